/**
 * `npm run bench -- start-time [--runs=2]`: time from spawning `npm start`'s
 * script (build/scripts/start.js; the build steps of `npm start` are not
 * counted) to its "ready" line, cold (fresh folder: owner set-up, credential
 * and workflows imported) and warm (second run on the same folder: all
 * reused), measured side by side in one run; also the time SIGTERM takes to
 * bring everything down.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, packageRoot } from '../dev/n8n';
import { medianMs } from './common';

export const description = '`npm start` start-to-ready time: cold (fresh folder) vs warm (same folder again)';

const READY = 'PayOnUs demo is ready';


async function once(folder: string, n8nPort: number, sandboxPort: number): Promise<{ readyMs: number; stopMs: number }> {
	const script = join(packageRoot(), 'build', 'scripts', 'start.js');
	const started = Date.now();
	const child = spawn(process.execPath, [script, '--folder', folder, '--n8n-port', String(n8nPort), '--sandbox-port', String(sandboxPort)], {
		cwd: packageRoot(),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	const readyMs = await new Promise<number>((resolve, reject) => {
		const onData = (chunk: Buffer) => {
			out += chunk.toString();
			if (out.includes(READY)) resolve(Date.now() - started);
		};
		child.stdout!.on('data', onData);
		child.stderr!.on('data', onData);
		void exited.then((code) => reject(new Error(`start.js exited (${String(code)}) before ready:\n${out}`)));
	});
	const stopping = Date.now();
	child.kill('SIGTERM');
	const code = await exited;
	if (code !== 0) throw new Error(`start.js exited with ${String(code)} after SIGTERM:\n${out}`);
	return { readyMs, stopMs: Date.now() - stopping };
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 2);
	const cold: number[] = [];
	const warm: number[] = [];
	const stops: number[] = [];
	for (let i = 0; i < runs; i++) {
		const folder = mkdtempSync(join(tmpdir(), 'payonus-start-bench-'));
		try {
			const n8nPort = await freePort();
			const sandboxPort = await freePort();
			const first = await once(folder, n8nPort, sandboxPort);
			const second = await once(folder, n8nPort, sandboxPort);
			cold.push(first.readyMs);
			warm.push(second.readyMs);
			stops.push(first.stopMs, second.stopMs);
			console.log(
				`  run ${i + 1}: cold ${first.readyMs} ms, warm ${second.readyMs} ms (SIGTERM -> exit ${first.stopMs} / ${second.stopMs} ms)`,
			);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	}
	const report = {
		runs,
		coldMedianMs: medianMs(cold),
		warmMedianMs: medianMs(warm),
		warmToColdRatio: Number((medianMs(warm) / medianMs(cold)).toFixed(2)),
		stopMedianMs: medianMs(stops),
		cold,
		warm,
	};
	console.log(
		`  median: cold ${report.coldMedianMs} ms, warm ${report.warmMedianMs} ms, warm/cold ${report.warmToColdRatio}; stop ${report.stopMedianMs} ms`,
	);
	return report;
}
