/**
 * The baselines of the real-network bench, in their own process (forked by
 * bench/real-network.bench.ts with the Node that runs n8n and
 * NODE_EXTRA_CA_CERTS set, so TLS is verified exactly as n8n verifies it, and
 * so the client's CPU is not the sandbox's):
 *  - `helper`: n8n's own `httpRequest` (the installed n8n-core; a new HTTP
 *    agent per request, no keep-alive): the floor of any node that must use it;
 *  - `undici`: an undici Pool with keep-alive (`concurrency` connections),
 *    the limit.
 * Not a bench itself (bench/run.ts only loads *.bench.js).
 *
 * Messages in: { id, kind, baseUrl, token, concurrency, calls: [{ method, path, body? }] }
 * Messages out: { id, ms } or { id, error }.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Pool } from 'undici';

export interface Call {
	method: 'GET' | 'POST';
	path: string;
	body?: unknown;
}

export interface Job {
	id: number;
	kind: 'helper' | 'undici';
	baseUrl: string;
	token: string;
	concurrency: number;
	calls: Call[];
}

type HttpRequest = (options: {
	url: string;
	method: 'GET' | 'POST';
	json: boolean;
	body?: unknown;
	headers: Record<string, string>;
}) => Promise<unknown>;

let helper: HttpRequest | undefined;
function n8nHelper(): HttpRequest {
	if (helper) return helper;
	const dir = process.env.PAYONUS_N8N_INSTALL_DIR;
	if (!dir) throw new Error('PAYONUS_N8N_INSTALL_DIR is not set');
	const load = createRequire(join(dir, 'package.json'));
	// n8n 2.8: a plain function of n8n-core.
	const legacy = (
		load('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions') as { httpRequest?: HttpRequest }
	).httpRequest;
	if (typeof legacy === 'function') return (helper = legacy);
	// n8n 2.41: the helpers' httpRequest is OutboundHttp.requests().request of @n8n/backend-network.
	const fromCore = createRequire(load.resolve('n8n-core/package.json'));
	const { Container } = fromCore('@n8n/di') as { Container: { get<T>(c: new (...a: never[]) => T): T } };
	const { OutboundHttp } = fromCore('@n8n/backend-network') as {
		OutboundHttp: new (...a: never[]) => { requests(): { request: HttpRequest } };
	};
	const requests = Container.get(OutboundHttp).requests();
	helper = async (options) => await requests.request(options);
	return helper;
}

const pools = new Map<string, Pool>();

async function inParallel(count: number, limit: number, fn: (i: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await fn(next++);
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, async () => await worker()));
}

function check(body: unknown, call: Call): void {
	const status = (body as { status?: unknown } | undefined)?.status;
	if (status !== 200) throw new Error(`${call.method} ${call.path}: answered ${JSON.stringify(body).slice(0, 300)}`);
}

async function runJob(job: Job): Promise<number> {
	const auth = `Bearer ${job.token}`;
	let one: (call: Call) => Promise<void>;
	if (job.kind === 'helper') {
		const httpRequest = n8nHelper();
		one = async (call) => {
			const body = await httpRequest({
				url: `${job.baseUrl}${call.path}`,
				method: call.method,
				json: true,
				...(call.body !== undefined ? { body: call.body } : {}),
				headers: { Authorization: auth, ...(call.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
			});
			check(body, call);
		};
	} else {
		const key = `${job.baseUrl}#${job.concurrency}`;
		let pool = pools.get(key);
		if (!pool) {
			pool = new Pool(job.baseUrl, { connections: job.concurrency, pipelining: 1 });
			pools.set(key, pool);
		}
		const p = pool;
		one = async (call) => {
			const res = await p.request({
				method: call.method,
				path: call.path,
				headers: { authorization: auth, accept: 'application/json', ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}) },
				...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
			});
			check(await res.body.json(), call);
		};
	}
	const started = performance.now();
	await inParallel(job.calls.length, job.concurrency, async (i) => await one(job.calls[i]));
	return performance.now() - started;
}

process.on('message', (job: Job | 'close') => {
	if (job === 'close') {
		void Promise.all([...pools.values()].map(async (p) => await p.close())).then(() => process.exit(0));
		return;
	}
	runJob(job).then(
		(ms) => process.send?.({ id: job.id, ms }),
		(error: unknown) => process.send?.({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
	);
});
process.send?.({ ready: true });
