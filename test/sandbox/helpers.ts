/** Helpers for the sandbox tests: one sandbox per file on port 0, call its API as answered (sandbox/client.ts reads the answers; control calls go through its SandboxClient), receive webhooks. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxClient, sandboxRequest, type RawAnswer } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';

/** An answer as it came; the body read freely by the tests. */
export type Res<T = any> = RawAnswer<T>;

export class Client {
	token: string | undefined;
	constructor(
		public url: string,
		readonly clientId = 'sandbox-client-1',
		readonly clientSecret = 'sandbox-secret-1',
	) {}

	async raw(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string>; rawBody?: string | Buffer } = {}): Promise<Res> {
		const headers: Record<string, string> = { ...(opts.headers ?? {}) };
		let body: string | Buffer | undefined;
		if (opts.rawBody !== undefined) body = opts.rawBody;
		else if (opts.body !== undefined) {
			body = JSON.stringify(opts.body);
			headers['content-type'] ??= 'application/json';
		}
		return await sandboxRequest(this.url + path, { method, headers, body });
	}

	async login(): Promise<string> {
		const r = await this.raw('POST', '/api/v1/access-token', { body: { apiClientId: this.clientId, apiClientSecret: this.clientSecret } });
		if (r.status !== 200) throw new Error(`login failed ${r.status} ${JSON.stringify(r.body)}`);
		this.token = r.body.data.access_token;
		return this.token!;
	}

	async api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
		if (!this.token) await this.login();
		return this.raw(method, path, { body, headers: { authorization: `Bearer ${this.token}`, ...headers } });
	}

	get = (path: string) => this.api('GET', path);
	post = (path: string, body?: unknown) => this.api('POST', path, body ?? {});
	del = (path: string) => this.api('DELETE', path);
	/** A control call (under /_sandbox) as answered: the tests of the control API check its statuses. */
	control = (method: string, path: string, body?: unknown): Promise<Res> => new SandboxClient(this.url).send(method, path, body);
}

/**
 * One sandbox for the test file (jest hooks: started before all, stopped
 * after all) and its client 1. With `reset` (the default), before each test
 * the sandbox goes back to its seed and the client forgets its token; with
 * `login` it then takes a fresh one. `sb()` is the handle once started.
 */
export function sandboxPerFile(opts: { reset?: boolean; login?: boolean } = {}): { c: Client; sb: () => SandboxHandle } {
	let handle: SandboxHandle | undefined;
	const c = new Client('');
	beforeAll(async () => {
		handle = await startSandbox({ port: 0 });
		c.url = handle.url;
	});
	afterAll(async () => {
		await handle?.stop();
	});
	if (opts.reset ?? true) {
		beforeEach(async () => {
			await c.control('POST', '/reset');
			c.token = undefined;
			if (opts.login) await c.login();
		});
	}
	return {
		c,
		sb: () => {
			if (!handle) throw new Error('the sandbox is not started yet');
			return handle;
		},
	};
}

let refCounter = 0;
export const ref = (prefix = 'ref') => `${prefix}-${Date.now().toString(36)}-${++refCounter}`;

export const customer = { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348012345678' };

/**
 * Waits for an event (polled every 10 ms). The bound only ends a wait for an
 * event that never comes: generous, so a busy shared machine cannot fail a
 * test that would pass (no timing is asserted through it).
 */
export async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const v = await fn();
		if (v !== undefined && v !== false) return v as T;
		if (Date.now() > end) throw new Error('waitFor timed out');
		await new Promise((r) => setTimeout(r, 10));
	}
}

export interface Received {
	headers: IncomingHttpHeaders;
	body: string;
	json: any;
	path: string;
}

/** A webhook receiver on a free port. */
export async function receiver(status = 200): Promise<{ url: string; got: Received[]; close(): Promise<void>; server: Server }> {
	const got: Received[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			got.push({ headers: req.headers, body, json: JSON.parse(body), path: req.url ?? '/' });
			res.writeHead(status);
			res.end('ok');
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
	return {
		url,
		got,
		server,
		close: () =>
			new Promise<void>((r) => {
				server.close(() => r());
				server.closeAllConnections();
			}),
	};
}

/** Creates a dynamic account and pays it with the fund simulation. */
export async function paidDynamic(c: Client, amount = 5000, businessId = 'BUS-2001') {
	const reference = ref('dyn');
	const created = await c.post('/api/v1/virtual-accounts/dynamic', { amount, reference, businessId, customer });
	if (created.status !== 200) throw new Error(JSON.stringify(created.body));
	const d = created.body.data;
	const funded = await c.post('/api/v1/fund-ngn-account', {
		onusReference: d.onusReference,
		accountNumber: d.accountNumber,
		amount,
		paymentStatus: 'SUCCESSFUL',
		forDynamicAccount: true,
	});
	if (funded.status !== 200) throw new Error(JSON.stringify(funded.body));
	return { ...d, reference, record: funded.body.data };
}
