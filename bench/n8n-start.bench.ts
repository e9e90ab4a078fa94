/**
 * `npm run bench -- n8n-start [--runs=3] [--queue]`: cold start of the real n8n
 * the e2e harness uses, measured from spawning the process until the owner is
 * set up and an API key answers on the public API (package packed and
 * installed, fresh user folder every time). SQLite and a fresh Postgres
 * database are measured side by side, alternating, in one run; `--queue` adds
 * Postgres in queue mode with one worker (until the worker is ready).
 */
import { startN8n, type StartOptions } from '../dev/n8n';
import { medianMs } from './common';

export const description = 'n8n cold start (spawn -> owner + API key ready): sqlite vs postgres';


export async function run(args: string[]): Promise<Record<string, unknown>> {
	const runs = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 3);
	const variants: Array<{ name: string; options: StartOptions }> = [
		{ name: 'sqlite', options: { db: 'sqlite' } },
		{ name: 'postgres', options: { db: 'postgres' } },
	];
	if (args.includes('--queue')) variants.push({ name: 'postgres+queue(1 worker)', options: { db: 'postgres', queueWorkers: 1 } });

	const samples: Record<string, { ready: number[]; untilWorkers: number[] }> = {};
	for (const variant of variants) samples[variant.name] = { ready: [], untilWorkers: [] };
	for (let i = 0; i < runs; i++) {
		for (const variant of variants) {
			const spawned = Date.now();
			const n8n = await startN8n(variant.options);
			const total = Date.now() - spawned; // includes the community install and DB creation
			samples[variant.name].ready.push(n8n.startMs);
			samples[variant.name].untilWorkers.push(total);
			await n8n.stop();
			console.log(`  ${variant.name.padEnd(26)} run ${i + 1}: ready ${n8n.startMs} ms (startN8n total ${total} ms)`);
		}
	}

	const base = medianMs(samples.sqlite.ready);
	const table = variants.map((variant) => {
		const s = samples[variant.name];
		return {
			variant: variant.name,
			medianReadyMs: medianMs(s.ready),
			minReadyMs: Math.min(...s.ready),
			maxReadyMs: Math.max(...s.ready),
			medianStartN8nMs: medianMs(s.untilWorkers),
			ratioToSqlite: Number((medianMs(s.ready) / base).toFixed(2)),
		};
	});
	console.table(table);
	return { runs, table, samples };
}
