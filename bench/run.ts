/**
 * `npm run bench [-- name ...]`: runs the benchmarks in bench/*.bench.ts
 * (compiled to build/bench/*.bench.js), each printing its own side-by-side
 * table and ratios, and writes a JSON report per bench to bench/results/.
 * With no name, runs them all in alphabetical order. Registered benches
 * include money-drill (bench/money-drill.bench.ts, issue 14: every
 * money-moving operation x sandbox profile x fault) and queue-payout-drill
 * (bench/queue-payout-drill.bench.ts, issue 14: the auto-payout example in
 * queue mode with two webhook processes, each collection paid out once).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchModule {
	description: string;
	run(args: string[]): Promise<Record<string, unknown>>;
}

async function main() {
	const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
	const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
	const available = readdirSync(__dirname)
		.filter((f) => f.endsWith('.bench.js'))
		.map((f) => f.replace(/\.bench\.js$/, ''))
		.sort();
	const chosen = names.length > 0 ? names : available;
	const unknown = chosen.filter((n) => !available.includes(n));
	if (unknown.length > 0) {
		console.error(`unknown bench: ${unknown.join(', ')}; available: ${available.join(', ')}`);
		process.exit(2);
	}
	const resultsDir = join(__dirname, '..', '..', 'bench', 'results');
	mkdirSync(resultsDir, { recursive: true });
	for (const name of chosen) {
		const mod = (await import(join(__dirname, `${name}.bench.js`))) as BenchModule;
		console.log(`\n=== ${name}: ${mod.description}`);
		const started = Date.now();
		const report = await mod.run(flags);
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		console.log(`=== ${name} done in ${seconds} s`);
		writeFileSync(join(resultsDir, `${name}.json`), resultJson({ name, at: new Date().toISOString(), seconds: Number(seconds), report }));
	}
}

/**
 * A report as committed: indented JSON, but an object or array that fits on
 * one line of at most 240 characters is written on one line (a row of a
 * table stays one line, so a drill of 224 cells is about 224 lines).
 */
export function resultJson(value: unknown): string {
	const write = (v: unknown, indent: string): string => {
		const flat = JSON.stringify(v);
		if (v === null || typeof v !== 'object' || flat.length + indent.length <= 240) return flat;
		const inner = `${indent}  `;
		if (Array.isArray(v)) return `[\n${v.map((x) => inner + write(x, inner)).join(',\n')}\n${indent}]`;
		const entries = Object.entries(v).filter(([, x]) => x !== undefined);
		return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${write(x, inner)}`).join(',\n')}\n${indent}}`;
	};
	return `${write(value, '')}\n`;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
