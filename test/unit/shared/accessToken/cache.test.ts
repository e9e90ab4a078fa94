/**
 * The token cache behind the credential's preAuthentication, against the
 * real sandbox (one token per client, 3 token calls per sandbox-clock minute,
 * 429 beyond). Both clocks are virtual and stand still in real time (the
 * sandbox's is frozen): the cache's sleep() moves both, so a minute of
 * rate-limit waiting takes no real time, and a slow machine cannot make the
 * sandbox's minute end later than the cache's.
 */
import { startSandbox, type SandboxHandle } from '../../../../sandbox/server';
import { PayOnUsApi } from '../../../../credentials/PayOnUsApi.credentials';
import { ISSUE_ORDER_MARGIN_MS, STRIKES_TO_OPEN, TokenCache, tokenCache } from '../../../../nodes/shared/accessToken/cache';
import { tokenFingerprint } from '../../../../nodes/shared/accessToken/credential';
import { TokenCallError } from '../../../../nodes/shared/errors';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../../dev/inProcessN8n';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

jest.setTimeout(30_000); // a generous give-up for a loaded machine; no timing is asserted through it

let sb: SandboxHandle;
/** The cache's virtual now (ms). */
let ourNow = 0;
let sleeps: number[] = [];
const cred = new PayOnUsApi();

function virtualClock(advanceSandbox = true) {
	sb.state.clock.freeze();
	ourNow = sb.state.clock.nowMs();
	tokenCache.configure({
		clock: {
			now: () => ourNow,
			sleep: async (ms: number) => {
				sleeps.push(ms);
				ourNow += ms;
				if (advanceSandbox) sb.state.clock.advance(ms / 1000);
			},
		},
	});
}

function stats(client = 1) {
	return { ...sb.state.clientStats(`sandbox-client-${client}`) };
}

async function preAuth(creds: ICredentialDataDecryptedObject): Promise<IDataObject> {
	const n8n = new FakeN8n(new CredentialStore(), cred);
	return await cred.preAuthentication.call(n8n.preAuthThis() as never, creds);
}

async function rawTokenCall(client = 1): Promise<number> {
	const res = await fetch(`${sb.url}/api/v1/access-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ apiClientId: `sandbox-client-${client}`, apiClientSecret: `sandbox-secret-${client}` }),
	});
	await res.arrayBuffer();
	return res.status;
}

async function walletsStatus(token: string): Promise<number> {
	const res = await fetch(`${sb.url}/api/v1/merchants/MER-1001/wallets`, { headers: { authorization: `Bearer ${token}` } });
	await res.arrayBuffer();
	return res.status;
}

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await sb.stop();
});
beforeEach(async () => {
	sb.sandbox.reset();
	tokenCache.reset();
	sleeps = [];
	virtualClock();
});

describe('single flight', () => {
	it('shares one token call among 25 concurrent callers with an empty token', async () => {
		const creds = sandboxCredential(sb.url);
		const results = await Promise.all(Array.from({ length: 25 }, async () => await preAuth({ ...creds })));
		const tokens = new Set(results.map((r) => r.accessToken));
		expect(tokens.size).toBe(1);
		expect(stats().tokenCalls).toBe(1);
		const [r] = results;
		expect(r.tokenFingerprint).toBe(tokenFingerprint({ baseUrl: sb.url, clientId: 'sandbox-client-1', clientSecret: 'sandbox-secret-1' }));
		expect(Number(r.expiresAt) - Number(r.issuedAt)).toBe(86399 * 1000);
		expect(await walletsStatus(String(r.accessToken))).toBe(200);
	});

	it('keeps clients apart: two clients, two token calls', async () => {
		await Promise.all([
			preAuth(sandboxCredential(sb.url, 1)),
			preAuth(sandboxCredential(sb.url, 1)),
			preAuth(sandboxCredential(sb.url, 2)),
			preAuth(sandboxCredential(sb.url, 2)),
		]);
		expect(stats(1).tokenCalls).toBe(1);
		expect(stats(2).tokenCalls).toBe(1);
	});

	it('reuses a live token of this process for a caller whose stored token is empty (no call)', async () => {
		const first = await preAuth(sandboxCredential(sb.url));
		const second = await preAuth(sandboxCredential(sb.url));
		expect(second.accessToken).toBe(first.accessToken);
		expect(stats().tokenCalls).toBe(1);
	});
});

describe('reuse after 401', () => {
	it('returns the newer token of this process instead of minting when an older one failed', async () => {
		const t1 = await preAuth(sandboxCredential(sb.url));
		// Another execution found t1 refused (flagged by the transport) and got t2.
		tokenCache.markDead(String(t1.tokenFingerprint), String(t1.accessToken));
		ourNow += 1000;
		const t2 = await preAuth(sandboxCredential(sb.url));
		expect(t2.accessToken).not.toBe(t1.accessToken);
		expect(stats().tokenCalls).toBe(2);
		// A slow execution still holding t1 now gets its 401: it must reuse t2.
		const late = await preAuth(sandboxCredential(sb.url, 1, { ...t1 }));
		expect(late.accessToken).toBe(t2.accessToken);
		expect(stats().tokenCalls).toBe(2);
		expect(await walletsStatus(String(late.accessToken))).toBe(200);
	});

	it('mints once when the token that failed is the newest known, however many callers fail with it', async () => {
		const t1 = await preAuth(sandboxCredential(sb.url));
		sb.state.clock.advance(86400); // the service lets it expire
		expect(await walletsStatus(String(t1.accessToken))).toBe(401);
		const results = await Promise.all(
			Array.from({ length: 10 }, async () => await preAuth(sandboxCredential(sb.url, 1, { ...t1 }))),
		);
		expect(new Set(results.map((r) => r.accessToken)).size).toBe(1);
		expect(results[0].accessToken).not.toBe(t1.accessToken);
		expect(stats().tokenCalls).toBe(2);
		expect(await walletsStatus(String(results[0].accessToken))).toBe(200);
	});

	it('keeps a token that still works when the error was not about it (returns no token, no call)', async () => {
		const t1 = await preAuth(sandboxCredential(sb.url));
		const out = await preAuth(sandboxCredential(sb.url, 1, { ...t1 }));
		expect(out).toEqual({});
		expect(stats().tokenCalls).toBe(1);
	});

	it('does not hand an older token of this process to a caller whose failed token is newer', async () => {
		const t1 = await preAuth(sandboxCredential(sb.url));
		// Another process stored a newer token t2 (its issue time is later).
		ourNow += 5000;
		expect(await rawTokenCall()).toBe(200);
		const t2Issued = ourNow;
		const out = await preAuth(
			sandboxCredential(sb.url, 1, { ...t1, accessToken: 'sbx_gone', issuedAt: t2Issued }),
		);
		// t1 (older, killed by t2) must not be offered; a mint follows.
		expect(out.accessToken).not.toBe(t1.accessToken);
		expect(await walletsStatus(String(out.accessToken))).toBe(200);
	});

	it('mints at once (no probe of the old token) when the stored token was minted for other settings', async () => {
		const t1 = await preAuth(sandboxCredential(sb.url, 1));
		const out = await preAuth(sandboxCredential(sb.url, 2, { ...t1, tokenFingerprint: t1.tokenFingerprint }));
		expect(stats(2).tokenCalls).toBe(1);
		expect(out.accessToken).not.toBe(t1.accessToken);
	});
});

describe('rate guard', () => {
	// Each token here is refused at once: the breaker (./breaker.test.ts) would
	// hold the third token call; it is set aside to reach the rate guard.
	beforeEach(() => tokenCache.configure({ limits: { strikesToOpen: Number.POSITIVE_INFINITY } }));
	afterEach(() => tokenCache.configure({ limits: { strikesToOpen: STRIKES_TO_OPEN } }));

	it('never sends a 4th token call within a minute: waits for the window instead (no 429)', async () => {
		let last: IDataObject = {};
		for (let i = 0; i < 5; i++) {
			last = await preAuth(sandboxCredential(sb.url));
			tokenCache.markDead(String(last.tokenFingerprint), String(last.accessToken));
		}
		expect(stats().tokenCalls).toBe(5);
		expect(stats().rateLimited).toBe(0);
		expect(sleeps.length).toBeGreaterThanOrEqual(1);
		expect(sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(55_000);
		expect(tokenCache.stats(String(last.tokenFingerprint)).rateLimited).toBe(0);
	});

	it('fails with a clear message instead of waiting longer than its bound', async () => {
		tokenCache.configure({ limits: { maxWaitMs: 10_000 } });
		try {
			for (let i = 0; i < 3; i++) {
				const t = await preAuth(sandboxCredential(sb.url));
				tokenCache.markDead(String(t.tokenFingerprint), String(t.accessToken));
			}
			await expect(preAuth(sandboxCredential(sb.url))).rejects.toThrow(/3 token requests a minute/);
			expect(stats().tokenCalls).toBe(3);
		} finally {
			tokenCache.configure({ limits: { maxWaitMs: 65_000 } });
		}
	});
});

describe('429 backoff', () => {
	it('backs off for the window and retries once when another program used the budget', async () => {
		for (let i = 0; i < 3; i++) expect(await rawTokenCall()).toBe(200);
		const out = await preAuth(sandboxCredential(sb.url));
		expect(await walletsStatus(String(out.accessToken))).toBe(200);
		expect(stats().rateLimited).toBe(1);
		expect(tokenCache.stats(String(out.tokenFingerprint)).rateLimited).toBe(1);
		expect(sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60_000);
	});

	it('says so clearly when the service still refuses after the backoff', async () => {
		virtualClock(false); // our waiting does not move the sandbox clock: still 429
		for (let i = 0; i < 3; i++) expect(await rawTokenCall()).toBe(200);
		let error: unknown;
		try {
			await preAuth(sandboxCredential(sb.url));
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(TokenCallError);
		expect((error as Error).message).toMatch(/refused more token requests \(3 per minute/);
		expect(stats().rateLimited).toBe(2);
	});
});

describe('errors name the problem and never carry secrets', () => {
	it('a wrong secret', async () => {
		const creds = sandboxCredential(sb.url, 1, { clientSecret: 'wrong-secret-123' });
		const error = await preAuth(creds).catch((e: Error) => e);
		expect(String((error as Error).message)).toMatch(/refused the Client ID \/ Client Secret \(HTTP 401\)/);
		expect(JSON.stringify(error)).not.toContain('wrong-secret-123');
		expect(String((error as Error).message)).not.toContain('wrong-secret-123');
		expect(String((error as Error).stack)).not.toContain('wrong-secret-123');
	});

	it('an address that is not PayOnUs', async () => {
		const creds = sandboxCredential('http://127.0.0.1:1', 1);
		const error = (await preAuth(creds).catch((e: Error) => e)) as Error;
		expect(error.message).toMatch(/Could not reach PayOnUs at http:\/\/127\.0\.0\.1:1 .*\(connection refused\)/);
		expect(error.message).not.toContain('sandbox-secret-1');
	});
});

describe('dead watermark (one valid token per client: the newest)', () => {
	it('a refused token makes every token issued clearly before it dead; close or newer ones still count', () => {
		const cache = new TokenCache();
		cache.configure({ clock: { now: () => 100_000 } });
		const refusedAt = 50_000;
		cache.markDead('k', 'refused', refusedAt);
		expect(cache.isStale('k', 'refused', refusedAt)).toBe(true);
		expect(cache.isStale('k', 'older', refusedAt - ISSUE_ORDER_MARGIN_MS - 1)).toBe(true);
		// Sent within the margin: the two token calls may have reached the service in either order.
		expect(cache.isStale('k', 'close', refusedAt - ISSUE_ORDER_MARGIN_MS + 1)).toBe(false);
		expect(cache.isStale('k', 'newer', refusedAt + 1)).toBe(false);
		expect(cache.isStale('k', 'unknown-time', 0)).toBe(false);
		cache.observe('k', { token: 'older', issuedAt: 30_000, expiresAt: 10_000_000 });
		expect(cache.live('k')).toBeUndefined();
		cache.observe('k', { token: 'newer', issuedAt: 60_000, expiresAt: 10_000_000 });
		expect(cache.live('k')?.token).toBe('newer');
		cache.markDead('k', 'x', 60_000 + ISSUE_ORDER_MARGIN_MS + 1);
		expect(cache.live('k')).toBeUndefined();
	});
});
