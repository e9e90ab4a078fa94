import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';
import type { Clock } from '../clock';
import { TokenCallError } from '../errors';

/**
 * Access tokens of the PayOnUs API, shared by every execution of this n8n
 * process (module state: the credential and the nodes load this same file).
 * No I/O here: the token call is passed in, time is injected.
 *
 * The service allows ONE valid token per API client (minting one kills the
 * previous one, for every process) and 3 token calls a minute. So:
 *  - single flight: concurrent callers that need a token share one token call;
 *  - reuse after 401: a caller whose token failed takes a newer token known to
 *    this process instead of minting (minting would kill that newer token);
 *  - the transport (transport/session.ts) re-reads the stored credential
 *    after a 401 and only asks for a mint when the stored token is the one
 *    that failed (another process may have stored a newer one);
 *  - rate guard: at most 3 token calls per client per sliding minute in this
 *    process; waits (bounded) rather than exceed, and backs off once on 429;
 *  - refusal breaker (rule 4 at our own door, docs/reliability.md): when two
 *    tokens this process asked for were each refused within the token window
 *    of their token call, the service refuses every token of the client (an
 *    API client switched off, another installation taking a token after
 *    each of ours): no token call for the client for the token window, every
 *    caller that needs one fails at once with one error saying what to check
 *    (and after the window, one token call to try again). A single refused
 *    token is still replaced by one new token.
 *
 * Tokens are never kept in clear beyond the live one: dead tokens are kept
 * as one-way ids.
 */

export interface TokenRecord {
	token: string;
	/** ms since epoch, taken when the token call was sent (conservative). */
	issuedAt: number;
	/** ms since epoch, issuedAt + expires_in. */
	expiresAt: number;
}

/**
 * Issue times (taken when a token call is SENT, by each process's clock)
 * order tokens only when further apart than this: two token calls sent
 * closer together may reach the service in either order.
 */
export const ISSUE_ORDER_MARGIN_MS = 10 * 1000;
/** Refresh this long before the stored expiry. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;
export const TOKEN_CALLS_PER_WINDOW = 3;
export const TOKEN_WINDOW_MS = 60 * 1000;
/** Longest wait for the rate window before failing with a clear message. */
export const MAX_TOKEN_WAIT_MS = 65 * 1000;
/** A token refused this soon after its token call counts as refused fresh (a strike of the breaker). */
export const FRESH_TOKEN_MS = TOKEN_WINDOW_MS;
/** Strikes older than this are forgotten (two strikes within it open the breaker). */
export const STRIKE_MEMORY_MS = 5 * 60 * 1000;
/** Fresh refusals within STRIKE_MEMORY_MS that stop token calls for the token window. */
export const STRIKES_TO_OPEN = 2;

export function sha256(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/** One-way id of a token (or of a token and a merchant, for the check cache). */
export function tokenId(token: string): string {
	return sha256(`payonus-dead\n${token}`).slice(0, 24);
}

/** The shared Clock (../clock.ts), and a way to wait. */
export interface TokenCacheClock extends Clock {
	sleep(ms: number): Promise<void>;
}

export interface TokenCacheLimits {
	callsPerWindow: number;
	windowMs: number;
	maxWaitMs: number;
	refreshMarginMs: number;
	/** Fresh refusals that hold token calls (STRIKES_TO_OPEN). */
	strikesToOpen: number;
}

/** How a token is asked for: `userAsked` (the credential test, one call a person started) is not held by the breaker. */
export interface MintOptions {
	userAsked?: boolean;
}

export interface ClientSlot {
	current?: TokenRecord;
	inflight?: Promise<TokenRecord>;
	dead: string[];
	/** Newest issue time of a token refused (401): the service keeps one valid
	 * token per client, the newest, so every token issued clearly before a
	 * refused one (ISSUE_ORDER_MARGIN_MS) is dead too (0: none known). */
	deadThrough: number;
	/** Times of the token calls sent by this process (sliding window). */
	calls: number[];
	/** No token call before this time (after a 429). */
	notBefore: number;
	/** One-way ids and issue times of the last tokens this process got (for the breaker). */
	minted: Array<{ id: string; issuedAt: number }>;
	/** Times at which a token this process got was refused within FRESH_TOKEN_MS of its token call (strikes). */
	strikes: number[];
	/** Token checks in flight (./check.ts), shared by concurrent callers. */
	probes: Map<string, { at: number; result: Promise<boolean> }>;
	stats: TokenSlotStats;
}

export interface TokenSlotStats {
	tokenCalls: number;
	rateLimited: number;
	waitedMs: number;
	reusedAfterReject: number;
	sharedMints: number;
	/** Tokens this process got that were refused fresh (strikes). */
	refusedFresh: number;
	/** Token calls not made because the breaker was open. */
	heldByBreaker: number;
}

export class TokenCache {
	private slots = new Map<string, ClientSlot>();
	private clock: TokenCacheClock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };
	limits: TokenCacheLimits = {
		callsPerWindow: TOKEN_CALLS_PER_WINDOW,
		windowMs: TOKEN_WINDOW_MS,
		maxWaitMs: MAX_TOKEN_WAIT_MS,
		refreshMarginMs: REFRESH_MARGIN_MS,
		strikesToOpen: STRIKES_TO_OPEN,
	};

	/** Tests only: another clock or limits. */
	configure(opts: { clock?: Partial<TokenCacheClock>; limits?: Partial<TokenCacheLimits> }): void {
		if (opts.clock) this.clock = { ...this.clock, ...opts.clock };
		if (opts.limits) this.limits = { ...this.limits, ...opts.limits };
	}

	/** Tests only: forget everything (tokens, windows, stats). */
	reset(): void {
		this.slots.clear();
	}

	now(): number {
		return this.clock.now();
	}

	/** Internal state of one client (used by the token check, ./check.ts). */
	slot(key: string): ClientSlot {
		let s = this.slots.get(key);
		if (!s) {
			s = {
				dead: [],
				deadThrough: 0,
				calls: [],
				notBefore: 0,
				minted: [],
				strikes: [],
				probes: new Map(),
				stats: { tokenCalls: 0, rateLimited: 0, waitedMs: 0, reusedAfterReject: 0, sharedMints: 0, refusedFresh: 0, heldByBreaker: 0 },
			};
			this.slots.set(key, s);
		}
		return s;
	}

	stats(key: string): TokenSlotStats {
		return { ...this.slot(key).stats };
	}

	isDead(key: string, token: string): boolean {
		return this.slot(key).dead.includes(tokenId(token));
	}

	/** A token known refused, or issued clearly before one refused (`issuedAt` 0: unknown). */
	isStale(key: string, token: string, issuedAt: number): boolean {
		const through = this.slot(key).deadThrough;
		return this.isDead(key, token) || (issuedAt > 0 && through > 0 && issuedAt < through - ISSUE_ORDER_MARGIN_MS);
	}

	/**
	 * Notes a refused token; with its issue time, every token issued clearly
	 * before it is dead too. `refused` false: a token this process retired
	 * itself (the credential test's new token replaced it), no strike.
	 */
	markDead(key: string, token: string, issuedAt = 0, refused = true): void {
		const s = this.slot(key);
		if (issuedAt > s.deadThrough) s.deadThrough = issuedAt;
		if (s.current && (s.current.token === token || this.isStale(key, s.current.token, s.current.issuedAt))) s.current = undefined;
		const id = tokenId(token);
		if (!s.dead.includes(id)) {
			s.dead.push(id);
			if (s.dead.length > 32) s.dead.shift();
			if (refused) this.strike(s, id);
		}
	}

	/** A token this process got, refused within FRESH_TOKEN_MS of its token call: a strike (once per token). */
	private strike(s: ClientSlot, id: string): void {
		const mine = s.minted.find((m) => m.id === id);
		const now = this.clock.now();
		if (!mine || now - mine.issuedAt > FRESH_TOKEN_MS) return;
		s.strikes = [...s.strikes.filter((t) => now - t < STRIKE_MEMORY_MS), now];
		s.stats.refusedFresh++;
	}

	/**
	 * How long token calls for this client are still held by the breaker (ms;
	 * 0: not held): STRIKES_TO_OPEN fresh refusals within STRIKE_MEMORY_MS,
	 * the last less than a token window ago.
	 */
	heldFor(key: string): number {
		const s = this.slot(key);
		const now = this.clock.now();
		s.strikes = s.strikes.filter((t) => now - t < STRIKE_MEMORY_MS);
		if (s.strikes.length < this.limits.strikesToOpen) return 0;
		return Math.max(0, s.strikes[s.strikes.length - 1] + this.limits.windowMs - now);
	}

	/** A token of this client was accepted after a person asked for it (the credential test): the strikes are forgotten. */
	clearStrikes(key: string): void {
		this.slot(key).strikes = [];
	}

	/** Fresh enough to use without refreshing (not dead, not near its expiry). */
	isFresh(rec: TokenRecord | undefined, key: string): rec is TokenRecord {
		return !!rec && !this.isStale(key, rec.token, rec.issuedAt) && rec.expiresAt - this.limits.refreshMarginMs > this.clock.now();
	}

	/** The token this process would use now for this client, if any. */
	live(key: string): TokenRecord | undefined {
		const cur = this.slot(key).current;
		return this.isFresh(cur, key) ? cur : undefined;
	}

	/** Notes a token seen elsewhere (read from the stored credential) if newer. */
	observe(key: string, rec: TokenRecord): void {
		if (!rec.token || this.isStale(key, rec.token, rec.issuedAt)) return;
		const s = this.slot(key);
		if (!s.current || rec.issuedAt > s.current.issuedAt) s.current = rec;
	}

	/**
	 * A token this process knows that is newer than the one that failed (and
	 * not itself known dead): the reuse-after-401 rule. `failedIssuedAt` 0
	 * means unknown: then any other live token counts as newer.
	 */
	newerThan(key: string, failedToken: string, failedIssuedAt: number): TokenRecord | undefined {
		const cur = this.live(key);
		if (!cur || cur.token === failedToken) return undefined;
		if (failedIssuedAt > 0 && cur.issuedAt < failedIssuedAt) return undefined;
		this.slot(key).stats.reusedAfterReject++;
		return cur;
	}

	/**
	 * Gets a new token with `call`, sharing one call among concurrent callers
	 * of the same client (single flight) and keeping the rate guard.
	 */
	async mint(key: string, call: () => Promise<TokenRecord>, options: MintOptions = {}): Promise<TokenRecord> {
		const s = this.slot(key);
		if (s.inflight) {
			s.stats.sharedMints++;
			return await s.inflight;
		}
		const held = options.userAsked ? 0 : this.heldFor(key);
		if (held > 0) {
			s.stats.heldByBreaker++;
			throw tokensRefusedError(held);
		}
		const flight = (async () => {
			const rec = await this.guardedCall(s, call);
			s.current = rec;
			s.minted = [...s.minted.slice(-3), { id: tokenId(rec.token), issuedAt: rec.issuedAt }];
			return rec;
		})();
		s.inflight = flight;
		try {
			return await flight;
		} finally {
			if (s.inflight === flight) s.inflight = undefined;
		}
	}

	private async waitForBudget(s: ClientSlot): Promise<void> {
		const deadline = this.clock.now() + this.limits.maxWaitMs;
		for (;;) {
			const now = this.clock.now();
			s.calls = s.calls.filter((t) => now - t < this.limits.windowMs);
			let wait = Math.max(0, s.notBefore - now);
			if (s.calls.length >= this.limits.callsPerWindow) {
				wait = Math.max(wait, s.calls[0] + this.limits.windowMs - now + 50);
			}
			if (wait <= 0) return;
			if (now + wait > deadline) {
				throw new TokenCallError(
					`Not asking PayOnUs for another access token now: the service allows ${this.limits.callsPerWindow} token requests a minute per API client and they are used up (the next is possible in ${Math.ceil(wait / 1000)} s). Try again in a minute.`,
					'rateLimited',
				);
			}
			s.stats.waitedMs += wait;
			await this.clock.sleep(wait);
		}
	}

	private async guardedCall(s: ClientSlot, call: () => Promise<TokenRecord>): Promise<TokenRecord> {
		for (let attempt = 0; ; attempt++) {
			await this.waitForBudget(s);
			s.calls.push(this.clock.now());
			s.stats.tokenCalls++;
			let failure: unknown;
			try {
				return await call();
			} catch (error) {
				failure = error;
			}
			if (!(failure instanceof TokenCallError) || failure.kind !== 'rateLimited' || failure.httpStatus !== 429) {
				throw failure;
			}
			s.stats.rateLimited++;
			// Another process (or program using the same client) used the
			// budget: wait for a full window (or Retry-After) and try once more.
			const backoff = Math.min(failure.retryAfterMs ?? this.limits.windowMs, this.limits.maxWaitMs);
			s.notBefore = this.clock.now() + backoff;
			if (attempt >= 1) {
				throw new TokenCallError(
					`The service refused more token requests (3 per minute per API client): it answered 429 twice, after waiting ${Math.round(backoff / 1000)} s. Another n8n instance or program is probably using the same Client ID. Try again in a minute.`,
					'rateLimited',
					429,
				);
			}
		}
	}
}

/** The one error of an open breaker: what the service does, what this process does now, and what to check. */
export function tokensRefusedError(heldMs: number): TokenCallError {
	return new TokenCallError(
		'PayOnUs refuses every new access token for this API client',
		'tokensRefused',
		401,
		undefined,
		`Two new tokens were refused within a minute of being issued, so no new token is asked for in the next ${Math.ceil(heldMs / 1000)} s (each one would revoke the token of every other program using this API client, and the service allows 3 token requests a minute). Check: the Client ID and Client Secret are those of this environment; the API client is enabled on the PayOnUs dashboard; no other n8n instance or program uses the same API client (each token it takes revokes this one: give each installation its own). Then test the credential, or run again after that time.`,
	);
}

/** The cache of this process (shared by the credential and the nodes). */
export const tokenCache = new TokenCache();
