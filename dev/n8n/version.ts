/**
 * Which n8n this process runs and where it is installed, read from the
 * installer (dev/n8n/install/, plain JavaScript: versions, cache folder and
 * usability check are written there once), and where this package lives.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { paths, resolveVersion, VERSIONS, type InstallState } from './install';

export const PACKAGE_NAME = 'n8n-nodes-payonus';

/** n8n versions known to the installer (dev/n8n/install/versions.json): `current` (default) and `minimum`. */
export const N8N_VERSIONS: { current: string; minimum: string } = { current: VERSIONS.current, minimum: VERSIONS.minimum };

/**
 * The n8n this process runs: PAYONUS_N8N_VERSION (current | minimum | x.y.z),
 * default current. A name the installer refuses is kept as given: importing
 * the harness never throws, ensureN8nInstalled() reports it in the
 * installer's words.
 */
export const N8N_VERSION = versionNamed(process.env.PAYONUS_N8N_VERSION);

function versionNamed(name: string | undefined): string {
	try {
		return resolveVersion(name);
	} catch {
		return name as string;
	}
}

export function n8nInstallDir(): string {
	return paths(N8N_VERSION).dir;
}

export function n8nBin(): string {
	return paths(N8N_VERSION).bin;
}

export type InstallInfo = InstallState;

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
 * Makes sure the chosen n8n is installed and usable: runs the installer's
 * command line (installs or repairs it, with progress, under its lock; the
 * same check everywhere). Once per process.
 */
export function ensureN8nInstalled(): InstallInfo {
	if (installInfo) return installInfo;
	const script = join(packageRoot(), 'dev', 'n8n', 'install', 'index.js');
	const out = execFileSync(process.execPath, [script, '--version', N8N_VERSION, '--json'], {
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
	});
	const info = JSON.parse(out.trim().split('\n').pop() as string) as InstallInfo;
	if (!info.ok || !info.node) throw new Error(`n8n ${N8N_VERSION} is not usable: ${info.problem}`);
	installInfo = info;
	return info;
}
