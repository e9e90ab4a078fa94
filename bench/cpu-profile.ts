/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and summarises where the time
 * went: the top functions by self time, and self time per area (this
 * package's code, n8n-core, n8n-workflow, zod, TLS / networking, ...), plus
 * the inclusive time below this package's own frames. Used by
 * `npm run bench -- real-network --profile` and `webhook-drills --profile`
 * (not a bench itself), which also take from here the folder the profiles go
 * to and the NODE_OPTIONS that make n8n write them.
 *
 *   node build/bench/cpu-profile.js <file.cpuprofile> [top]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where this package's code sits in n8n (a community install); the n8n cache folder's name contains the package name too. */
const PACKAGE_PATH = '/node_modules/n8n-nodes-payonus/';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

export interface ProfileSummary {
	totalMs: number;
	top: Array<{ ms: number; percent: number; fn: string; where: string }>;
	areas: Array<{ area: string; ms: number; percent: number }>;
	/**
	 * Time on stacks through this package, by what the package called: the
	 * package's innermost frame, then the first frame outside it (an n8n
	 * helper, zod, ...) or "(own code)" when the package itself was running.
	 */
	packageCalls: Array<{ ms: number; percent: number; from: string; calls: string }>;
	/** Inclusive time of this package's frames (outermost frame of the package on each stack). */
	packageInclusive: Array<{ ms: number; percent: number; fn: string; where: string }>;
}

export function areaOf(url: string, fn: string): string {
	if (url.includes(PACKAGE_PATH)) return 'n8n-nodes-payonus (this package)';
	if (url === '') return fn === '(garbage collector)' ? 'GC' : fn.startsWith('(') ? fn : 'native';
	if (url.startsWith('node:')) {
		if (/tls|_tls|https|crypto/.test(url)) return 'node: TLS/crypto';
		if (/net|http|stream|dns/.test(url)) return 'node: net/http/streams';
		return 'node: other';
	}
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url.replace(/.*node_modules\/(?=[^]*node_modules)/, ''));
	const last = url.lastIndexOf('node_modules/');
	if (last >= 0) {
		const rest = url.slice(last + 'node_modules/'.length);
		const parts = rest.split('/');
		return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
	}
	return m ? m[1] : 'other';
}

export function summarize(file: string, topN = 25): ProfileSummary {
	const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const self = new Map<number, number>();
	for (let i = 0; i < profile.samples.length; i++) {
		const dt = (profile.timeDeltas[i] ?? 0) / 1000;
		self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
	}
	const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}|${n.callFrame.url}:${n.callFrame.lineNumber + 1}`;
	const fnSelf = new Map<string, number>();
	const areas = new Map<string, number>();
	const pkgInclusive = new Map<string, number>();
	const pkgCalls = new Map<string, number>();
	for (const [id, ms] of self) {
		const n = byId.get(id)!;
		if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') continue;
		fnSelf.set(key(n), (fnSelf.get(key(n)) ?? 0) + ms);
		const area = areaOf(n.callFrame.url, n.callFrame.functionName);
		areas.set(area, (areas.get(area) ?? 0) + ms);
		// Outermost frame of this package on the stack.
		let outer: ProfileNode | undefined;
		for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
			const f = byId.get(cur)!;
			if (f.callFrame.url.includes(PACKAGE_PATH)) outer = f;
		}
		if (outer) pkgInclusive.set(key(outer), (pkgInclusive.get(key(outer)) ?? 0) + ms);
		// Innermost package frame and what it called.
		let below: ProfileNode | undefined;
		for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
			const f = byId.get(cur)!;
			if (f.callFrame.url.includes(PACKAGE_PATH)) {
				const callee = below ? `${below.callFrame.functionName || '(anonymous)'} [${areaOf(below.callFrame.url, below.callFrame.functionName)}]` : '(own code)';
				const k = `${f.callFrame.functionName || '(anonymous)'} ${f.callFrame.url.replace(/^.*n8n-nodes-payonus\/dist\//, '')}:${f.callFrame.lineNumber + 1}|${callee}`;
				pkgCalls.set(k, (pkgCalls.get(k) ?? 0) + ms);
				break;
			}
			below = f;
		}
	}
	const busy = [...fnSelf.values()].reduce((a, b) => a + b, 0);
	const pct = (ms: number) => Number(((ms * 100) / busy).toFixed(1));
	const split = (k: string) => {
		const [fn, where] = k.split('|');
		return { fn, where: where.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '') };
	};
	return {
		totalMs: Math.round(busy),
		top: [...fnSelf.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, topN)
			.map(([k, ms]) => ({ ms: Math.round(ms), percent: pct(ms), ...split(k) })),
		areas: [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([area, ms]) => ({ area, ms: Math.round(ms), percent: pct(ms) })),
		packageCalls: [...pkgCalls.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 25)
			.map(([k, ms]) => {
				const [from, calls] = k.split('|');
				return { ms: Math.round(ms), percent: pct(ms), from, calls };
			}),
		packageInclusive: [...pkgInclusive.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 15)
			.map(([k, ms]) => ({ ms: Math.round(ms), percent: pct(ms), ...split(k) })),
	};
}

/** A new folder under bench/results/ for one run's profiles, named profile-<name>-<time> (profile-<time> without a name). */
export function profileFolder(name?: string): string {
	return join(__dirname, '..', '..', 'bench', 'results', `profile-${name ? `${name}-` : ''}${Date.now().toString(36)}`);
}

/** The environment that makes n8n (each of its Node processes) write a CPU profile into `dir` when it exits. */
export function cpuProfileEnv(dir: string): { NODE_OPTIONS: string } {
	return { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` };
}

/** The n8n main process's profile (the one with this package's frames), summarised. */
export function n8nProfileSummary(dir: string): ProfileSummary | { problem: string } {
	const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
	let best: ProfileSummary | undefined;
	for (const f of files) {
		const s = summarize(join(dir, f), 30);
		const mine = s.areas.find((a) => a.area.startsWith('n8n-nodes-payonus'))?.ms ?? 0;
		const bestMine = best?.areas.find((a) => a.area.startsWith('n8n-nodes-payonus'))?.ms ?? -1;
		if (mine > bestMine) best = s;
	}
	if (!best) return { problem: `no .cpuprofile in ${dir} (n8n must exit cleanly to write it)` };
	console.log(`\n  CPU profile of n8n (${dir}): busy ${best.totalMs} ms`);
	console.table(best.areas.slice(0, 15));
	console.table(best.top);
	console.log('  time below this package\'s outermost frames (inclusive):');
	console.table(best.packageInclusive);
	console.log('  what this package\'s frames called (self time of everything below, by the first frame outside the package):');
	console.table(best.packageCalls);
	return best;
}

if (require.main === module) {
	const s = summarize(process.argv[2], Number(process.argv[3] ?? 25));
	console.log(`busy ${s.totalMs} ms`);
	console.table(s.areas);
	console.table(s.top);
	console.table(s.packageInclusive);
	console.table(s.packageCalls);
}
