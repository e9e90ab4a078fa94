/**
 * Authentication through the transport, against the real sandbox, with
 * n8n-core's real httpRequestWithAuthentication and a credentials helper
 * that behaves like n8n 2.8.4's (dev/inProcessN8n.ts). A "process" is a
 * separate copy of the modules (jest.isolateModules): its own token cache,
 * sharing one credential store ("the database") with the other.
 */
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server';
import type { PayOnUsClient } from '../../../nodes/shared/clientInterface';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../dev/inProcessN8n';
import { sandboxAccessToken } from '../../../dev/sandboxCredential';

type TransportModule = typeof import('../../../nodes/shared/transport');
type CacheModule = typeof import('../../../nodes/shared/accessToken/cache');
type CredModule = typeof import('../../../credentials/PayOnUsApi.credentials');

interface Proc {
	n8n: FakeN8n;
	client(): Promise<PayOnUsClient>;
	cache: CacheModule['tokenCache'];
}

let sb: SandboxHandle;

function startProcess(store: CredentialStore): Proc {
	let transport!: TransportModule;
	let cache!: CacheModule;
	let cred!: CredModule;
	jest.isolateModules(() => {
		 
		transport = require('../../../nodes/shared/transport');
		cache = require('../../../nodes/shared/accessToken/cache');
		cred = require('../../../credentials/PayOnUsApi.credentials');
		 
	});
	const n8n = new FakeN8n(store, new cred.PayOnUsApi());
	return {
		n8n,
		cache: cache.tokenCache,
		client: async () => await transport.createClient(n8n.context() as never, { sleep: async () => {} }),
	};
}

const stats = (client = 1) => ({ ...sb.state.clientStats(`sandbox-client-${client}`) });
const wallets = async (c: PayOnUsClient) =>
	await c.request<IDataObject[]>({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' });

const rawToken = async (): Promise<string> => await sandboxAccessToken(sb.url, 1);

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await sb.stop();
});
beforeEach(() => {
	sb.sandbox.reset();
});

it('50 concurrent executions with an empty stored token: one token call, stored once for everyone', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url));
	const p = startProcess(store);
	const results = await Promise.all(Array.from({ length: 50 }, async () => await wallets(await p.client())));
	expect(results.every((r) => Array.isArray(r) && r.length > 0)).toBe(true);
	expect(stats().tokenCalls).toBe(1);
	expect(stats().unauthorized).toBe(0);
	const stored = store.read();
	expect(String(stored.accessToken)).toMatch(/^sbx_/);
	expect(Number(stored.expiresAt)).toBeGreaterThan(Date.now() + 86_000_000);
	// The transport's marker never reaches the database.
	expect(Object.keys(stored).sort()).toEqual(Object.keys(sandboxCredential(sb.url)).sort());
});

it('a token killed by another process that stored its own: re-reads the credential, no token call', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url));
	const a = startProcess(store);
	const b = startProcess(store);
	const clientA = await a.client();
	await wallets(clientA); // A mints T_A and keeps it in its client
	store.patch({ accessToken: '' }); // B will mint (as if T_A had expired for B)
	await wallets(await b.client()); // B mints T_B (kills T_A) and stores it
	expect(stats().tokenCalls).toBe(2);
	const out = await wallets(clientA); // A sends T_A -> 401 -> re-read -> T_B
	expect(out.length).toBeGreaterThan(0);
	expect(stats().tokenCalls).toBe(2);
	expect(stats().unauthorized).toBe(1);
});

it('a token killed by a client that stored nothing: exactly one new token, then it works', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url));
	const a = startProcess(store);
	const c = await a.client();
	await wallets(c);
	await rawToken(); // a second client kills it without storing anything
	expect(stats().tokenCalls).toBe(2);
	const results = await Promise.all(Array.from({ length: 20 }, async () => await wallets(await a.client())));
	expect(results).toHaveLength(20);
	expect(stats().tokenCalls).toBe(3);
	expect(stats().rateLimited).toBe(0);
});

it('two processes, one database, forced expiry under load: every call succeeds, at most one token call per process per phase', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url));
	const procs = [startProcess(store), startProcess(store)];
	const run = async (count: number) =>
		await Promise.all(
			Array.from({ length: count }, async (_, i) => {
				const c = await procs[i % 2].client();
				const w = await wallets(c);
				const page = await c.paginate({ path: '/api/v1/payment-requests', style: 'zeroBased', returnAll: false, limit: 5 });
				return w.length > 0 && Array.isArray(page);
			}),
		);
	expect((await run(40)).every(Boolean)).toBe(true);
	const first = stats().tokenCalls;
	expect(first).toBeLessThanOrEqual(2);
	sb.state.clock.advance(86_400); // every token of the client expires
	const during = run(60);
	expect((await during).every(Boolean)).toBe(true);
	expect(stats().tokenCalls - first).toBeLessThanOrEqual(2);
	expect(stats().rateLimited).toBe(0);
});

it('a token minted for another environment or client is never sent: the transport asks for a new one', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url, 1, { accessToken: 'token-of-elsewhere', tokenFingerprint: 'x' }));
	const p = startProcess(store);
	await wallets(await p.client());
	const log = sb.state.requestLog as Array<{ headers?: Record<string, string> }>;
	expect(JSON.stringify(log)).not.toContain('token-of-elsewhere');
	expect(stats().unauthorized).toBe(0);
	expect(stats().tokenCalls).toBe(1);
});

it('one node run with calls in flight when its token dies: a late 401 takes the token another call recovered, no second mint', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url));
	const p = startProcess(store);
	const c = await p.client(); // one client = one node run (items run concurrently for reads)
	await wallets(c);
	await rawToken(); // kills the token without storing anything
	expect(stats().tokenCalls).toBe(2);
	// One call answers (401) only after the others recovered with a new token.
	await new SandboxClient(sb.url).addFault({ method: 'GET', path: '/api/v1/payment-requests', latencyMs: 400, times: 1 });
	const slow = c.request({ method: 'GET', path: '/api/v1/payment-requests', qs: { page: 0, size: 1 } });
	const fast = Array.from({ length: 7 }, async () => await wallets(c));
	const results = await Promise.allSettled([slow, ...fast]);
	expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
	// The late 401 was for the dead token: it must not be blamed on the new one (which would mint again and kill it).
	expect(stats().tokenCalls).toBe(3);
	expect(await wallets(c)).not.toHaveLength(0);
	expect(stats().tokenCalls).toBe(3);
});

it('after a rollover, a process never takes a stored token OLDER than the one refused (the database kept the last write): one 401, then a new token', async () => {
	const store = new CredentialStore(sandboxCredential(sb.url));
	const a = startProcess(store);
	const b = startProcess(store);
	// A's token call is sent well before B's (issue times further apart than ISSUE_ORDER_MARGIN_MS).
	a.cache.configure({ clock: { now: () => Date.now() - 60_000 } });
	await wallets(await a.client()); // A mints T_A and stores it
	const writtenByA = store.read();
	store.patch({ accessToken: '' });
	const clientB = await b.client();
	await wallets(clientB); // B mints T_B (kills T_A) and stores it
	store.write(writtenByA); // ...but A's write lands last: the database holds the older, dead T_A
	sb.state.clock.advance(86_400); // T_B expires too
	const before = stats();
	const out = await wallets(clientB);
	expect(out.length).toBeGreaterThan(0);
	// Only T_B was refused: T_A (issued before it) was never sent again.
	expect(stats().unauthorized - before.unauthorized).toBe(1);
	expect(stats().tokenCalls - before.tokenCalls).toBe(1);
	// The new token is stored (the older one is replaced).
	expect(store.read().accessToken).not.toBe(writtenByA.accessToken);
});
