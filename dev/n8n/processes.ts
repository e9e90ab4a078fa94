/** n8n processes (each in its own process group) and their clean-up, also when this process exits. */
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { n8nBin, n8nNode } from './version';
import { removePacked } from './pack';
import { clearRedisPrefix, dropDatabase } from './services';

export interface Proc {
	name: string;
	child: ChildProcess;
	exited: Promise<number | null>;
	hasExited: () => boolean;
}

export function spawnN8n(name: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, logFile: string): Proc {
	const fd = openSync(logFile, 'a');
	const child = spawn(n8nNode(), [n8nBin(), ...args], {
		cwd,
		env,
		detached: true, // own process group: stop() kills n8n and its task runner together
		stdio: ['ignore', fd, fd],
	});
	closeSync(fd);
	let done = false;
	const exited = new Promise<number | null>((resolve) => {
		child.on('exit', (code, signal) => {
			done = true;
			resolve(code ?? (signal ? 128 : null));
		});
		child.on('error', () => {
			done = true;
			resolve(-1);
		});
	});
	return { name, child, exited, hasExited: () => done };
}

export function signalGroup(proc: Proc, signal: NodeJS.Signals): void {
	if (proc.hasExited() && signal !== 'SIGKILL') return;
	try {
		process.kill(-(proc.child.pid as number), signal);
	} catch {
		// already gone
	}
}

export async function stopProc(proc: Proc, graceMs = 20000): Promise<void> {
	signalGroup(proc, 'SIGTERM');
	const timedOut = await Promise.race([
		proc.exited.then(() => false),
		new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
	]);
	// task runners and anything else left in the group
	signalGroup(proc, 'SIGKILL');
	if (timedOut) await proc.exited;
}

export interface Cleanup {
	procs: Proc[];
	dirs: string[];
	database?: string;
	redisPrefix?: string;
}

export const live = new Set<Cleanup>();
let exitHooked = false;

export function cleanupSync(c: Cleanup): void {
	for (const proc of c.procs) signalGroup(proc, 'SIGKILL');
	// PAYONUS_KEEP_N8N=1 keeps the user folders and logs for a post-mortem
	if (process.env.PAYONUS_KEEP_N8N !== '1') {
		for (const dir of c.dirs) rmSync(dir, { recursive: true, force: true });
	} else if (c.dirs.length > 0) {
		process.stderr.write(`kept n8n folders: ${c.dirs.join(', ')}\n`);
	}
	if (c.database) dropDatabase(c.database);
	if (c.redisPrefix) clearRedisPrefix(c.redisPrefix);
}

let signalsHooked = false;

export function hookExit(signals = true): void {
	if (!exitHooked) {
		exitHooked = true;
		process.on('exit', () => {
			for (const c of live) cleanupSync(c);
			live.clear();
			removePacked();
		});
	}
	if (!signals || signalsHooked) return;
	signalsHooked = true;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			for (const c of live) cleanupSync(c);
			live.clear();
			process.exit(130);
		});
	}
}

export function tail(file: string, lines = 60): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}
