/**
 * Which n8n the harness runs, where it is installed (scripts/install-n8n.js
 * installs it once into a cache folder) and where this package lives.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const PACKAGE_NAME = 'n8n-nodes-payonus';

/** n8n versions known to the installer (scripts/n8n-versions.json): `current` (default) and `minimum`. */
export const N8N_VERSIONS = JSON.parse(
	readFileSync(join(packageRoot(), 'scripts', 'n8n-versions.json'), 'utf8'),
) as { current: string; minimum: string };

function versionFrom(name: string | undefined): string {
	if (!name || name === 'current') return N8N_VERSIONS.current;
	if (name === 'minimum') return N8N_VERSIONS.minimum;
	return name;
}

/** The n8n this process runs: PAYONUS_N8N_VERSION (current | minimum | x.y.z), default current. */
export const N8N_VERSION = versionFrom(process.env.PAYONUS_N8N_VERSION);

export function n8nInstallDir(): string {
	const root = process.env.PAYONUS_N8N_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-payonus');
	return join(root, `n8n-${N8N_VERSION}`);
}

export function n8nBin(): string {
	return join(n8nInstallDir(), 'node_modules', 'n8n', 'bin', 'n8n');
}

export interface InstallInfo {
	version: string;
	dir: string;
	bin: string;
	node: string | null;
	ok: boolean;
	problem: string;
}

let installInfo: InstallInfo | undefined;

/** The Node binary that runs this n8n (n8n 2.41 needs Node 24; the installer provides it). */
export function n8nNode(): string {
	return ensureN8nInstalled().node as string;
}

/** The n8n major.minor as numbers, for the few places where versions behave differently. */
export function n8nVersionAtLeast(major: number, minor: number): boolean {
	const [a, b] = N8N_VERSION.split('.').map(Number);
	return a > major || (a === major && b >= minor);
}

/** The folder of this package (works from the sources and from build/). */
export function packageRoot(): string {
	let dir = __dirname;
	for (;;) {
		const candidate = join(dir, 'package.json');
		if (existsSync(candidate)) {
			const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
			if (pkg.name === PACKAGE_NAME) return dir;
		}
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${__dirname}`);
		dir = parent;
	}
}

/**
 * Makes sure the chosen n8n is installed and usable (scripts/install-n8n.js:
 * installs or repairs it, with progress; the same check everywhere). Once per process.
 */
export function ensureN8nInstalled(): InstallInfo {
	if (installInfo) return installInfo;
	const script = join(packageRoot(), 'scripts', 'install-n8n.js');
	const out = execFileSync(process.execPath, [script, '--version', N8N_VERSION, '--json'], {
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		env: { ...process.env, PAYONUS_N8N_CACHE: dirname(n8nInstallDir()) },
	});
	const info = JSON.parse(out.trim().split('\n').pop() as string) as InstallInfo;
	if (!info.ok || !info.node) throw new Error(`n8n ${N8N_VERSION} is not usable: ${info.problem}`);
	installInfo = info;
	return info;
}
