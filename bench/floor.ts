/**
 * The floor and the limit bench/real-network.bench.ts compares the PayOnUs
 * node with (run in the process of real-network-client.ts), at a given
 * concurrency, timed:
 *  - `helper`: n8n's own `httpRequest` of the INSTALLED n8n-core (a new HTTP
 *    agent per request, no keep-alive): the floor of any node that must use it;
 *  - `undici`: an undici Pool with keep-alive (`concurrency` connections),
 *    the limit.
 * Every answer must be the service's envelope with status 200 (and, when the
 * call names it, the record with that onusReference).
 * Not a bench itself (bench/run.ts only loads *.bench.js).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Pool } from 'undici';
import { inParallel } from './common';

export interface Call {
	method: 'GET' | 'POST';
	path: string;
	body?: unknown;
	/** The onusReference the answer's record must have. */
	onusReference?: string;
}

export interface Job {
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

/** `httpRequest` of the n8n-core that the n8n installed in `installDir` runs (not the dev copy). */
export function n8nHttpRequest(installDir: string): HttpRequest {
	const load = createRequire(join(installDir, 'package.json'));
	// n8n 2.8: a plain function of n8n-core.
	const legacy = (
		load('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions') as { httpRequest?: HttpRequest }
	).httpRequest;
	if (typeof legacy === 'function') return legacy;
	// n8n 2.41: the helpers' httpRequest is OutboundHttp.requests().request of @n8n/backend-network.
	const fromCore = createRequire(load.resolve('n8n-core/package.json'));
	const { Container } = fromCore('@n8n/di') as { Container: { get<T>(c: new (...a: never[]) => T): T } };
	const { OutboundHttp } = fromCore('@n8n/backend-network') as {
		OutboundHttp: new (...a: never[]) => { requests(): { request: HttpRequest } };
	};
	const requests = Container.get(OutboundHttp).requests();
	return async (options) => await requests.request(options);
}

function check(body: unknown, call: Call): void {
	const answer = body as { status?: unknown; data?: { onusReference?: unknown } } | undefined;
	if (answer?.status !== 200) throw new Error(`${call.method} ${call.path}: answered ${JSON.stringify(body).slice(0, 300)}`);
	if (call.onusReference !== undefined && answer.data?.onusReference !== call.onusReference) {
		throw new Error(`${call.method} ${call.path}: answered another record (${String(answer.data?.onusReference)})`);
	}
}

/** Runs jobs; keeps one undici pool per base URL and concurrency, and loads n8n's helper once. */
export class FloorDriver {
	private helper?: HttpRequest;
	private pools = new Map<string, Pool>();

	constructor(private readonly n8nInstallDir: string) {}

	/** Milliseconds to make every call of the job, `concurrency` in flight. */
	async run(job: Job): Promise<number> {
		const one = job.kind === 'helper' ? this.viaHelper(job) : this.viaUndici(job);
		const started = performance.now();
		await inParallel(job.calls.length, job.concurrency, async (i) => await one(job.calls[i]));
		return performance.now() - started;
	}

	async close(): Promise<void> {
		await Promise.all([...this.pools.values()].map(async (p) => await p.close()));
		this.pools.clear();
	}

	private viaHelper(job: Job): (call: Call) => Promise<void> {
		this.helper ??= n8nHttpRequest(this.n8nInstallDir);
		const httpRequest = this.helper;
		return async (call) => {
			const body = await httpRequest({
				url: `${job.baseUrl}${call.path}`,
				method: call.method,
				json: true,
				...(call.body !== undefined ? { body: call.body } : {}),
				headers: { Authorization: `Bearer ${job.token}`, ...(call.body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
			});
			check(body, call);
		};
	}

	private viaUndici(job: Job): (call: Call) => Promise<void> {
		const key = `${job.baseUrl}#${job.concurrency}`;
		let pool = this.pools.get(key);
		if (!pool) {
			pool = new Pool(job.baseUrl, { connections: job.concurrency, pipelining: 1 });
			this.pools.set(key, pool);
		}
		const p = pool;
		return async (call) => {
			const res = await p.request({
				method: call.method,
				path: call.path,
				headers: {
					authorization: `Bearer ${job.token}`,
					accept: 'application/json',
					...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
				},
				...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
			});
			check(await res.body.json(), call);
		};
	}
}
