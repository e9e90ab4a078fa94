/**
 * Requests per second the sandbox serves for simple authenticated reads
 * (GET wallets, GET payment request by onusReference), measured from a
 * separate child process with an undici Pool at a few concurrency levels,
 * side by side with a bare node:http server answering a fixed JSON body of
 * the same size (the ceiling on this machine).
 *
 *   npm run bench -- sandbox-rps [--duration=3000] [--concurrency=1,16,64]
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, request } from 'undici';
import { startSandbox } from '../sandbox/server';

export const description = 'sandbox requests/s: authenticated GET wallets and GET payment request, vs a bare node:http server';

interface Job {
	url: string;
	path: string;
	headers: Record<string, string>;
	concurrency: number;
	durationMs: number;
}

interface JobResult {
	requests: number;
	errors: number;
	seconds: number;
	rps: number;
	p50ms: number;
	p99ms: number;
}

async function load(job: Job): Promise<JobResult> {
	const pool = new Pool(job.url, { connections: job.concurrency, pipelining: 1 });
	const latencies: number[] = [];
	let errors = 0;
	const end = Date.now() + job.durationMs;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: job.concurrency }, async () => {
			while (Date.now() < end) {
				const t0 = process.hrtime.bigint();
				try {
					const res = await pool.request({ method: 'GET', path: job.path, headers: job.headers });
					await res.body.dump();
					if (res.statusCode !== 200) errors++;
				} catch {
					errors++;
				}
				latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
			}
		}),
	);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	await pool.close();
	latencies.sort((a, b) => a - b);
	const pick = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(2));
	return { requests: latencies.length, errors, seconds: Number(seconds.toFixed(2)), rps: Math.round(latencies.length / seconds), p50ms: pick(0.5), p99ms: pick(0.99) };
}

/** Runs one load job in a child process (this same file with --sandbox-rps-child). */
function inChild(job: Job): Promise<JobResult> {
	return new Promise((resolve, reject) => {
		const child = fork(__filename, ['--sandbox-rps-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		child.once('message', (m) => {
			resolve(m as JobResult);
			child.kill();
		});
		child.once('error', reject);
		child.once('exit', (code) => {
			if (code) reject(new Error(`load child exited with ${code}`));
		});
		child.send(job);
	});
}

function flag(args: string[], name: string, def: string): string {
	const hit = args.find((a) => a.startsWith(`--${name}=`));
	return hit ? hit.slice(name.length + 3) : def;
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const durationMs = Number(flag(args, 'duration', '3000'));
	const levels = flag(args, 'concurrency', '1,16,64').split(',').map(Number);
	const sb = await startSandbox({ port: 0 });
	const tokenRes = await request(`${sb.url}/api/v1/access-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ apiClientId: 'sandbox-client-1', apiClientSecret: 'sandbox-secret-1' }),
	});
	const token = ((await tokenRes.body.json()) as { data: { access_token: string } }).data.access_token;
	const headers = { authorization: `Bearer ${token}` };
	const created = await request(`${sb.url}/api/v1/virtual-accounts/dynamic`, {
		method: 'POST',
		headers: { ...headers, 'content-type': 'application/json' },
		body: JSON.stringify({ amount: 1500, reference: 'bench-1', businessId: 'BUS-2001', customer: { name: 'Bench', email: 'bench@example.com' } }),
	});
	const onus = ((await created.body.json()) as { data: { onusReference: string } }).data.onusReference;

	const walletsBody = await (await request(`${sb.url}/api/v1/merchants/MER-1001/wallets`, { headers })).body.text();
	const bare = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(walletsBody) });
		res.end(walletsBody);
	});
	await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
	const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

	const scenarios = [
		{ name: 'bare node:http (same body as wallets)', url: bareUrl, path: '/', headers: {} },
		{ name: 'GET /api/v1/merchants/MER-1001/wallets', url: sb.url, path: '/api/v1/merchants/MER-1001/wallets', headers },
		{ name: 'GET /api/v1/payment-requests/businesses/BUS-2001?onusReference=..', url: sb.url, path: `/api/v1/payment-requests/businesses/BUS-2001?onusReference=${encodeURIComponent(onus)}`, headers },
	];
	const rows: Array<Record<string, unknown>> = [];
	try {
		for (const concurrency of levels) {
			const bareResult = await inChild({ ...scenarios[0], concurrency, durationMs });
			rows.push({ scenario: scenarios[0].name, concurrency, ...bareResult, vsBare: 1 });
			for (const s of scenarios.slice(1)) {
				const r = await inChild({ url: s.url, path: s.path, headers: s.headers, concurrency, durationMs });
				rows.push({ scenario: s.name, concurrency, ...r, vsBare: Number((r.rps / bareResult.rps).toFixed(2)) });
			}
		}
	} finally {
		await sb.stop();
		await new Promise<void>((r) => {
			bare.close(() => r());
			bare.closeAllConnections();
		});
	}
	console.table(rows.map((r) => ({ scenario: r.scenario, conc: r.concurrency, 'req/s': r.rps, 'p50 ms': r.p50ms, 'p99 ms': r.p99ms, errors: r.errors, 'vs bare': r.vsBare })));
	const sandboxRows = rows.filter((r) => !String(r.scenario).startsWith('bare'));
	const best = Math.max(...sandboxRows.map((r) => r.rps as number));
	console.log(`best sandbox rate: ${best} req/s (goal >= 5000): ${best >= 5000 ? 'met' : 'NOT met'}`);
	return { durationMs, levels, rows, bestSandboxRps: best, goalRps: 5000, goalMet: best >= 5000 };
}

if (require.main === module && process.argv.includes('--sandbox-rps-child')) {
	process.once('message', (job) => {
		void load(job as Job).then((result) => process.send!(result));
	});
}
