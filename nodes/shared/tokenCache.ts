import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { describeEnvironment, NO_REDIRECTS, resolveBaseUrl } from './environments';
import { networkReason } from './errors';

/**
 * Access tokens of the PayOnUs API, shared by every execution of this n8n
 * process (module state: the credential and the nodes load this same file).
 *
 * The service allows ONE valid token per API client (minting one kills the
 * previous one, for every process) and 3 token calls a minute. So:
 *  - single flight: concurrent callers that need a token share one token call;
 *  - reuse after 401: a caller whose token failed takes a newer token known to
 *    this process instead of minting (minting would kill that newer token);
 *  - the transport (nodes/shared/transport.ts) re-reads the stored credential
 *    after a 401 and only asks for a mint when the stored token is the one
 *    that failed (another process may have stored a newer one);
 *  - rate guard: at most 3 token calls per client per sliding minute in this
 *    process; waits (bounded) rather than exceed, and backs off once on 429.
 *
 * Tokens, the client secret and the verification key are never logged, never
 * put in an error message and never returned as node output.
 */

export interface TokenRecord {
	token: string;
	/** ms since epoch, taken when the token call was sent (conservative). */
	issuedAt: number;
	/** ms since epoch, issuedAt + expires_in. */
	expiresAt: number;
}

export interface ClientIdentity {
	environment: string;
	baseUrl: string;
	clientId: string;
	clientSecret: string;
}

/** Refresh this long before the stored expiry. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;
export const TOKEN_CALLS_PER_WINDOW = 3;
export const TOKEN_WINDOW_MS = 60 * 1000;
/** Longest wait for the rate window before failing with a clear message. */
export const MAX_TOKEN_WAIT_MS = 65 * 1000;
const TOKEN_CALL_TIMEOUT_MS = 30 * 1000;

/** Marker put by the transport on the credential data it passes to n8n. A
 * symbol key: JSON.stringify (used by n8n when it saves a credential) drops
 * it, so it never reaches the database. Symbol.for: shared across copies of
 * this module. */
const TRANSPORT_OWNED = Symbol.for('n8n-nodes-payonus.transportOwned');
const REJECTED_SIGNAL = Symbol.for('n8n-nodes-payonus.tokenRejected');

export function markTransportOwned<T extends object>(data: T): T {
	Object.defineProperty(data, TRANSPORT_OWNED, { value: true, enumerable: false, configurable: true });
	return data;
}

export function isTransportOwned(data: object): boolean {
	return (data as Record<symbol, unknown>)[TRANSPORT_OWNED] === true;
}

/**
 * Thrown by preAuthentication for a transport call whose token was refused
 * and for which this process knows nothing newer: the transport then re-reads
 * the stored credential (another process may have stored a newer token) and
 * only then asks for a mint. Saves n8n's blind resend with the same token.
 */
/** `httpCode` of our errors: n8n's NodeApiError keeps it (and drops `cause`). */
export const TOKEN_REJECTED_CODE = 'PAYONUS_TOKEN_REJECTED';
export const TOKEN_CALL_CODE = 'PAYONUS_TOKEN_CALL';

export class TokenRejectedSignal extends Error {
	readonly httpCode = TOKEN_REJECTED_CODE;
	constructor() {
		super('PayOnUs refused the access token; the stored credential is checked for a newer one');
		this.name = 'TokenRejectedSignal';
		Object.defineProperty(this, REJECTED_SIGNAL, { value: true, enumerable: false });
	}
}

export function isTokenRejectedSignal(error: unknown): boolean {
	return !!error && typeof error === 'object' && (error as Record<symbol, unknown>)[REJECTED_SIGNAL] === true;
}

/** A token call that failed; the message is safe to show (no secret, no token). */
export class TokenCallError extends Error {
	readonly httpCode = TOKEN_CALL_CODE;
	constructor(
		message: string,
		readonly kind: 'rejected' | 'rateLimited' | 'unreachable' | 'unexpected',
		readonly httpStatus?: number,
		readonly retryAfterMs?: number,
	) {
		super(message);
		this.name = 'TokenCallError';
	}
}

function sha256(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/**
 * One-way fingerprint of (base URL, client id, client secret): the cache key
 * of a client in this process, and stored with the token (hidden field
 * `tokenFingerprint`) so a token minted for other settings (another
 * environment, client or secret) is never sent anywhere.
 */
export function tokenFingerprint(id: Pick<ClientIdentity, 'baseUrl' | 'clientId' | 'clientSecret'>): string {
	return sha256(`payonus-token-v1\n${id.baseUrl}\n${id.clientId}\n${id.clientSecret}`).slice(0, 32);
}

function tokenId(token: string): string {
	return sha256(`payonus-dead\n${token}`).slice(0, 24);
}

/** Reads the connection part of a credential, refusing missing fields clearly. */
export function clientIdentity(credentials: ICredentialDataDecryptedObject): ClientIdentity {
	const baseUrl = resolveBaseUrl(credentials.environment, credentials.baseUrl);
	const clientId = typeof credentials.clientId === 'string' ? credentials.clientId.trim() : '';
	const clientSecret = typeof credentials.clientSecret === 'string' ? credentials.clientSecret : '';
	if (clientId === '') throw new TokenCallError('The PayOnUs API credential has no Client ID', 'rejected');
	if (clientSecret === '') throw new TokenCallError('The PayOnUs API credential has no Client Secret', 'rejected');
	return { environment: String(credentials.environment), baseUrl, clientId, clientSecret };
}

export interface TokenCacheClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export interface TokenCacheLimits {
	callsPerWindow: number;
	windowMs: number;
	maxWaitMs: number;
	refreshMarginMs: number;
}

export interface ClientSlot {
	current?: TokenRecord;
	inflight?: Promise<TokenRecord>;
	dead: string[];
	/** Times of the token calls sent by this process (sliding window). */
	calls: number[];
	/** No token call before this time (after a 429). */
	notBefore: number;
	probes: Map<string, { at: number; result: Promise<boolean> }>;
	stats: TokenSlotStats;
}

export interface TokenSlotStats {
	tokenCalls: number;
	rateLimited: number;
	waitedMs: number;
	reusedAfterReject: number;
	sharedMints: number;
}

export class TokenCache {
	private slots = new Map<string, ClientSlot>();
	private clock: TokenCacheClock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };
	limits: TokenCacheLimits = {
		callsPerWindow: TOKEN_CALLS_PER_WINDOW,
		windowMs: TOKEN_WINDOW_MS,
		maxWaitMs: MAX_TOKEN_WAIT_MS,
		refreshMarginMs: REFRESH_MARGIN_MS,
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

	/** Internal state of one client (exported for the probe helper below). */
	slot(key: string): ClientSlot {
		let s = this.slots.get(key);
		if (!s) {
			s = {
				dead: [],
				calls: [],
				notBefore: 0,
				probes: new Map(),
				stats: { tokenCalls: 0, rateLimited: 0, waitedMs: 0, reusedAfterReject: 0, sharedMints: 0 },
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

	markDead(key: string, token: string): void {
		const s = this.slot(key);
		const id = tokenId(token);
		if (!s.dead.includes(id)) {
			s.dead.push(id);
			if (s.dead.length > 32) s.dead.shift();
		}
		if (s.current?.token === token) s.current = undefined;
	}

	/** Fresh enough to use without refreshing (not dead, not near its expiry). */
	isFresh(rec: TokenRecord | undefined, key: string): rec is TokenRecord {
		return !!rec && !this.isDead(key, rec.token) && rec.expiresAt - this.limits.refreshMarginMs > this.clock.now();
	}

	/** The token this process would use now for this client, if any. */
	live(key: string): TokenRecord | undefined {
		const cur = this.slot(key).current;
		return this.isFresh(cur, key) ? cur : undefined;
	}

	/** Notes a token seen elsewhere (read from the stored credential) if newer. */
	observe(key: string, rec: TokenRecord): void {
		if (!rec.token || this.isDead(key, rec.token)) return;
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
	async mint(key: string, call: () => Promise<TokenRecord>): Promise<TokenRecord> {
		const s = this.slot(key);
		if (s.inflight) {
			s.stats.sharedMints++;
			return await s.inflight;
		}
		const flight = (async () => {
			const rec = await this.guardedCall(s, call);
			s.current = rec;
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

/** The cache of this process (shared by the credential and the nodes). */
export const tokenCache = new TokenCache();

type HttpHelpers = IHttpRequestHelper['helpers'];

interface AxiosLikeError {
	code?: string;
	message?: string;
	response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
	httpCode?: string;
}

function errorStatus(error: AxiosLikeError): number | undefined {
	const s = error?.response?.status;
	return typeof s === 'number' ? s : undefined;
}

function retryAfterMs(error: AxiosLikeError): number | undefined {
	const v = error?.response?.headers?.['retry-after'];
	const n = typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN;
	return Number.isFinite(n) && n >= 0 ? n * 1000 : undefined;
}

/** A safe error for a failed token call (nothing of the request is kept). */
function tokenCallFailure(error: AxiosLikeError, where: string): TokenCallError {
	const status = errorStatus(error);
	if (status === 429) {
		return new TokenCallError(
			'The service refused more token requests (3 per minute per API client)',
			'rateLimited',
			429,
			retryAfterMs(error),
		);
	}
	if (status === 400 || status === 401) {
		return new TokenCallError(
			`PayOnUs ${where} refused the Client ID / Client Secret (HTTP ${status}). Check both values, and that they were issued for this environment: sandbox and production have separate API credentials.`,
			'rejected',
			status,
		);
	}
	if (status === 403) {
		return new TokenCallError(
			`PayOnUs ${where} refused the token request (HTTP 403): the API client is not allowed, or this server's outbound IP address is not whitelisted for this environment on the PayOnUs dashboard.`,
			'rejected',
			status,
		);
	}
	if (status === 404 || status === 405) {
		return new TokenCallError(
			`${where} answered ${status} to the token request: this address does not look like the PayOnUs API. Check the credential's Environment / Base URL.`,
			'unexpected',
			status,
		);
	}
	if (status !== undefined) {
		return new TokenCallError(
			`PayOnUs ${where} failed to issue an access token (HTTP ${status}). Try again later.`,
			'unexpected',
			status,
		);
	}
	const code = networkReason(typeof error?.code === 'string' ? error.code : undefined);
	return new TokenCallError(
		`Could not reach PayOnUs at ${where} to get an access token (${code}). Check the credential's Environment / Base URL and this server's network access.`,
		'unreachable',
	);
}

/** POST /api/v1/access-token. Errors are rebuilt so nothing of the request (the secret) leaks. */
export async function requestToken(helpers: HttpHelpers, id: ClientIdentity, now: () => number): Promise<TokenRecord> {
	const where = describeEnvironment(id.environment, id.baseUrl);
	const sentAt = now();
	let body: unknown;
	let failure: AxiosLikeError | undefined;
	try {
		body = await helpers.httpRequest({
			method: 'POST',
			url: `${id.baseUrl}/api/v1/access-token`,
			body: { apiClientId: id.clientId, apiClientSecret: id.clientSecret },
			json: true,
			timeout: TOKEN_CALL_TIMEOUT_MS,
			...NO_REDIRECTS,
		});
	} catch (err) {
		// Never rethrow the raw error: its request config holds the secret.
		failure = (err ?? {}) as AxiosLikeError;
	}
	if (failure) throw tokenCallFailure(failure, where);
	const envelope = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const data = (envelope.data && typeof envelope.data === 'object' ? envelope.data : envelope) as IDataObject;
	const token = data.access_token ?? data.accessToken;
	if (typeof token !== 'string' || token === '') {
		throw new TokenCallError(
			`${where} answered the token request without an access token: check the credential's Environment / Base URL.`,
			'unexpected',
		);
	}
	const expiresIn = Number(data.expires_in ?? data.expiresIn);
	const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : 86399 * 1000;
	return { token, issuedAt: sentAt, expiresAt: sentAt + lifetimeMs };
}

/**
 * One cheap authenticated read with this token: the merchant's wallets when
 * the credential names a default merchant, else one payment request. Returns
 * true when the token is accepted, false on 401; throws a clear error when
 * the read shows what else is wrong (403: IP whitelist or permission; 404:
 * unknown merchant or not a PayOnUs address; unreachable). Shared by
 * concurrent callers asking about the same token at the same time.
 */
async function verifyToken(
	helpers: HttpHelpers,
	key: string,
	id: ClientIdentity,
	token: string,
	merchantId: string,
): Promise<boolean> {
	const s = tokenCache.slot(key);
	const pid = tokenId(`${token}\n${merchantId}`);
	const known = s.probes.get(pid);
	if (known) return await known.result;
	const where = describeEnvironment(id.environment, id.baseUrl);
	const path = merchantId
		? `/api/v1/merchants/${encodeURIComponent(merchantId)}/wallets`
		: '/api/v1/payment-requests';
	const result = (async () => {
		try {
			await helpers.httpRequest({
				method: 'GET',
				url: `${id.baseUrl}${path}`,
				qs: merchantId ? undefined : { page: 0, size: 1 },
				headers: { Authorization: `Bearer ${token}` },
				json: true,
				timeout: TOKEN_CALL_TIMEOUT_MS,
				...NO_REDIRECTS,
			});
			return true;
		} catch (err) {
			return err as AxiosLikeError;
		}
	})().then((outcome) => {
		if (outcome === true) return true;
		const status = errorStatus(outcome);
		if (status === 401) return false;
		if (status === 403) {
			throw new TokenCallError(
				`The Client ID and Client Secret are valid, but PayOnUs ${where} refused a read with the token (HTTP 403): this server's outbound IP address is probably not whitelisted for this environment on the PayOnUs dashboard, or the API client lacks permission${merchantId ? ` for merchant ${merchantId}` : ''}.`,
				'rejected',
				403,
			);
		}
		if (status === 404) {
			throw new TokenCallError(
				merchantId
					? `The Client ID and Client Secret are valid, but the Default Merchant ID "${merchantId}" was not found in ${where} (HTTP 404). Check it, or leave it empty.`
					: `${where} issued a token but answered 404 to a PayOnUs read: check the credential's Environment / Base URL.`,
				'unexpected',
				404,
			);
		}
		// Other statuses (400, 5xx...): the token itself was accepted.
		if (status !== undefined) return true;
		const code = networkReason(outcome?.code);
		throw new TokenCallError(
			`Could not reach PayOnUs at ${where} (${code}). Check the credential's Environment / Base URL.`,
			'unreachable',
		);
	});
	// Shared while in flight only: a settled answer may be stale a moment later.
	const entry = { at: tokenCache.now(), result };
	s.probes.set(pid, entry);
	const forget = () => {
		if (s.probes.get(pid) === entry) s.probes.delete(pid);
	};
	result.then(forget, forget);
	return await result;
}

function tokenFields(rec: TokenRecord, fingerprint: string): IDataObject {
	return {
		accessToken: rec.token,
		issuedAt: rec.issuedAt,
		expiresAt: rec.expiresAt,
		tokenFingerprint: fingerprint,
	};
}

function asNumber(v: unknown): number {
	const n = Number(v);
	return Number.isFinite(n) ? n : 0;
}

/**
 * The credential's preAuthentication. n8n calls it when the stored token is
 * '' (then the result is saved to the credential), after a 401 with the very
 * credential object whose token failed, on any error with the legacy request
 * helper (HTTP Request node), and during a credential test. Returning {}
 * (no `accessToken`) means "keep the token": n8n writes nothing.
 */
export async function payOnUsPreAuthentication(
	helpers: HttpHelpers,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const id = clientIdentity(credentials);
	const key = tokenFingerprint(id);
	const owned = isTransportOwned(credentials);
	const merchantId = typeof credentials.merchantId === 'string' ? credentials.merchantId.trim() : '';
	const mint = async () => await tokenCache.mint(key, async () => await requestToken(helpers, id, () => tokenCache.now()));
	/** Outside the transport (credential test, HTTP Request node), a token
	 * handed out is first checked with one read, so that a test names what is
	 * wrong (IP whitelist, merchant) in words. */
	const handOut = async (rec: TokenRecord): Promise<IDataObject> => {
		if (!owned) await verifyToken(helpers, key, id, rec.token, merchantId);
		return tokenFields(rec, key);
	};
	const token = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';

	if (token === '') return await handOut(tokenCache.live(key) ?? (await mint()));

	// A non-empty token: it failed (or this is a credential test).
	const newer = tokenCache.newerThan(key, token, asNumber(credentials.issuedAt));
	if (newer) return await handOut(newer);
	if (credentials.tokenFingerprint !== key || tokenCache.isDead(key, token)) {
		// Minted for other settings, or known refused: replace it (shared call).
		return await handOut(await mint());
	}
	if (owned) {
		// The transport re-reads the stored credential before any mint.
		throw new TokenRejectedSignal();
	}
	// HTTP Request node (legacy helper: any error) or a credential test: is
	// the token itself still good? Then the error was not about it.
	if (await verifyToken(helpers, key, id, token, merchantId)) {
		tokenCache.observe(key, {
			token,
			issuedAt: asNumber(credentials.issuedAt),
			expiresAt: asNumber(credentials.expiresAt) || tokenCache.now() + 60 * 60 * 1000,
		});
		return {};
	}
	tokenCache.markDead(key, token);
	return await handOut(await mint());
}
