/**
 * Rule 4 at our own door (issue 36): the token cache's refusal breaker, on
 * an injected clock (no service, no real time). Two tokens this process got
 * and the service refused within a minute of their token call hold token
 * calls for that client for the token window; a single refused token is
 * still replaced.
 */
import { FRESH_TOKEN_MS, STRIKE_MEMORY_MS, TOKEN_WINDOW_MS, TokenCache, type TokenRecord } from '../../../../nodes/shared/accessToken/cache';
import { TokenCallError } from '../../../../nodes/shared/errors';

let now = 1_800_000_000_000;
let cache: TokenCache;
let calls: Record<string, number>;

function setup(): void {
	now = 1_800_000_000_000;
	calls = {};
	cache = new TokenCache();
	cache.configure({
		clock: {
			now: () => now,
			sleep: async (ms: number) => {
				now += ms;
			},
		},
	});
}

let seq = 0;
/** A token call that answers a new token at once (counted per client). */
const call = (key: string) => async (): Promise<TokenRecord> => {
	calls[key] = (calls[key] ?? 0) + 1;
	return { token: `tok-${key}-${++seq}`, issuedAt: now, expiresAt: now + 86_399_000 };
};

const mint = async (key = 'A') => await cache.mint(key, call(key));
const failure = async (p: Promise<unknown>) => (await p.then(() => undefined, (e: unknown) => e)) as TokenCallError | undefined;

beforeEach(setup);

it('every new token refused: after two refused tokens no third token call; the error says what to check', async () => {
	const t1 = await mint();
	now += 200;
	cache.markDead('A', t1.token, t1.issuedAt);
	const t2 = await mint(); // one refused token is still replaced
	now += 200;
	cache.markDead('A', t2.token, t2.issuedAt);
	const error = await failure(mint());
	expect(calls.A).toBe(2);
	expect(error).toBeInstanceOf(TokenCallError);
	expect(error?.kind).toBe('tokensRefused');
	expect(error?.message).toBe('PayOnUs refuses every new access token for this API client');
	expect(error?.description).toMatch(/Client ID and Client Secret/);
	expect(error?.description).toMatch(/API client is enabled on the PayOnUs dashboard/);
	expect(error?.description).toMatch(/no other n8n instance or program uses the same API client/);
	expect(error?.description).toMatch(/next 60 s/);
	expect(cache.stats('A')).toMatchObject({ tokenCalls: 2, refusedFresh: 2, heldByBreaker: 1, waitedMs: 0 });
});

it('held for the token window, then one token call to try again; refused again, held again at once', async () => {
	const t1 = await mint();
	cache.markDead('A', t1.token, t1.issuedAt);
	const t2 = await mint();
	cache.markDead('A', t2.token, t2.issuedAt);
	now += TOKEN_WINDOW_MS - 1000;
	expect(cache.heldFor('A')).toBe(1000);
	expect((await failure(mint()))?.kind).toBe('tokensRefused');
	now += 1000;
	expect(cache.heldFor('A')).toBe(0);
	const t3 = await mint(); // the probe
	expect(calls.A).toBe(3);
	now += 100;
	cache.markDead('A', t3.token, t3.issuedAt);
	expect(cache.heldFor('A')).toBe(TOKEN_WINDOW_MS);
	expect((await failure(mint()))?.kind).toBe('tokensRefused');
	expect(calls.A).toBe(3);
});

it('one refused token (revoked once by another process): replaced by one token call, nothing held', async () => {
	const t1 = await mint();
	now += 5_000;
	cache.markDead('A', t1.token, t1.issuedAt);
	expect(cache.heldFor('A')).toBe(0);
	const t2 = await mint();
	expect(t2.token).not.toBe(t1.token);
	expect(calls.A).toBe(2);
	expect(cache.live('A')?.token).toBe(t2.token);
});

it('a refused token this process did not ask for (read from the stored credential), or refused long after its token call, is no strike', async () => {
	cache.markDead('A', 'stored-by-another-process', now - 1000);
	cache.markDead('A', 'another', now - 500);
	const t1 = await mint();
	now += FRESH_TOKEN_MS + 1;
	cache.markDead('A', t1.token, t1.issuedAt); // lived over a minute: revoked, not refused at once
	const t2 = await mint();
	cache.markDead('A', t2.token, t2.issuedAt);
	expect(cache.heldFor('A')).toBe(0);
	await mint();
	expect(calls.A).toBe(3);
	expect(cache.stats('A').refusedFresh).toBe(1);
});

it('strikes further apart than the strike memory do not add up', async () => {
	const t1 = await mint();
	cache.markDead('A', t1.token, t1.issuedAt);
	now += STRIKE_MEMORY_MS;
	const t2 = await mint();
	cache.markDead('A', t2.token, t2.issuedAt);
	expect(cache.heldFor('A')).toBe(0);
	await mint();
	expect(calls.A).toBe(3);
});

it('per credential: another API client (another key) still gets its token while one is held', async () => {
	for (let i = 0; i < 2; i++) {
		const t = await mint('A');
		cache.markDead('A', t.token, t.issuedAt);
	}
	expect((await failure(mint('A')))?.kind).toBe('tokensRefused');
	const b = await mint('B');
	expect(b.token).toMatch(/^tok-B-/);
	expect(calls).toEqual({ A: 2, B: 1 });
});

it('many callers at once: a token refused by 50 calls in flight is one strike; 50 callers while held make no call and all get the error', async () => {
	const t1 = await mint();
	for (let i = 0; i < 50; i++) cache.markDead('A', t1.token, t1.issuedAt);
	expect(cache.stats('A').refusedFresh).toBe(1);
	expect(cache.heldFor('A')).toBe(0);
	// 50 callers need a token at once: one shared token call.
	const shared = await Promise.all(Array.from({ length: 50 }, async () => await mint()));
	expect(new Set(shared.map((t) => t.token)).size).toBe(1);
	expect(calls.A).toBe(2);
	for (let i = 0; i < 50; i++) cache.markDead('A', shared[0].token, shared[0].issuedAt);
	const errors = await Promise.all(Array.from({ length: 50 }, async () => await failure(mint())));
	expect(errors.every((e) => e?.kind === 'tokensRefused')).toBe(true);
	expect(calls.A).toBe(2);
	expect(cache.stats('A')).toMatchObject({ refusedFresh: 2, heldByBreaker: 50, waitedMs: 0 });
});

it('the credential test (a person asked) is not held; its accepted token clears the strikes', async () => {
	for (let i = 0; i < 2; i++) {
		const t = await mint();
		cache.markDead('A', t.token, t.issuedAt);
	}
	expect(cache.heldFor('A')).toBeGreaterThan(0);
	const tested = await cache.mint('A', call('A'), { userAsked: true });
	expect(tested.token).toMatch(/^tok-A-/);
	expect(calls.A).toBe(3);
	cache.clearStrikes('A');
	expect(cache.heldFor('A')).toBe(0);
});

it('a token this process retired itself (the credential test replaced the stored one) is no strike', async () => {
	const t1 = await mint();
	cache.markDead('A', t1.token, t1.issuedAt, false);
	const t2 = await mint();
	cache.markDead('A', t2.token, t2.issuedAt);
	expect(cache.heldFor('A')).toBe(0);
	expect(cache.stats('A').refusedFresh).toBe(1);
});
