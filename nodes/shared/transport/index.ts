import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { Attempts, PaginateOptions, PayOnUsClient, PayOnUsEnvironment, RequestOptions } from '../clientInterface';
import { NO_REDIRECTS } from '../environments';
import { type FailedCall, type Failure, type PayOnUsApiError, requestError, setupError } from '../errors';
import { collectPages } from '../api/paging';
import { tokenCache } from '../accessToken/cache';
import { storedToken, tokenFingerprint } from '../accessToken/credential';
import { baseUrlOf, type PayOnUsCredential, readCredential } from '../credential/read';
import type { CredentialDefaults } from '../credential/defaults';
import type { PayOnUsContext } from '../context';
import { parseBody, payloadOf, statedFailure } from './envelope';
import { classifyFailure, isPushBack, isQuota, isTransient, retryAfterOf } from './failure';
import { AdaptiveLimiter } from './limiter';
import { buildMultipart } from './multipart';
import { keepsStoredToken, Session } from './session';

/**
 * The one place where the nodes talk HTTP to PayOnUs.
 *
 * - Authentication and the 401 recovery: session.ts (the access token: ../accessToken/).
 * - Envelope: returns `data` of `{ status, message, data }` (envelope.ts).
 * - Errors: a PayOnUsApiError (../errors/) with a plain message (method,
 *   path, status meaning), the typed status and the service's own words;
 *   never the token, secret, key or card data. What n8n threw is read by
 *   failure.ts.
 * - A call that carries its own sending policy (a money-moving call: never
 *   resent blindly, ../moneyMoving/) is sent by it, over this transport's
 *   single attempts (Attempts, ../clientInterface.ts); the transport knows
 *   no policy.
 * - Reads (GET, and the idempotent DELETE) are retried on transient failures.
 */

export type { PayOnUsContext } from '../context';

export interface ClientOptions {
	/** Per-request timeout. Default 30 s. */
	timeoutMs?: number;
	/** Retries of a read (GET/DELETE) after a transient failure. Default 2. */
	readRetries?: number;
	/** Resends of a money-moving call, each only after a lookup by reference
	 * found nothing (so each is safe). Default 3. */
	moneyMovingResends?: number;
	/** Attempts of a lookup by reference before giving up. Default 4. */
	lookupAttempts?: number;
	/** Base of the exponential backoff between attempts. Default 500 ms. */
	backoffMs?: number;
	/** Default page size of paginate(). Default 100. */
	pageSize?: number;
	/** Bound on the pages paginate() reads (an error when hit with more to read). Default 10,000. */
	maxPages?: number;
	/** Retries of a call the service pushed back (429, or 503 with Retry-After), each after its Retry-After. Default 8. */
	pushBackRetries?: number;
	/** Calls in flight, adapted to the service (./limiter.ts). Default: from 8, at most DEFAULT_CEILING. */
	limiter?: AdaptiveLimiter;
	/**
	 * The wait between attempts: by default a plain wait of this call; a run
	 * of the action node's writes passes its limiter's `pause`, so that the
	 * wait holds every call of the run (./limiter.ts). Tests inject a clock.
	 */
	sleep?: (ms: number) => Promise<void>;
	/**
	 * The credential as the caller read it (the webhook trigger reads it once
	 * per request, and takes a recent read only when `reusable` says so),
	 * used instead of a read of createClient's own.
	 */
	credential?: PayOnUsCredential;
}

/** Calls in flight at most when the caller sets no ceiling (dropdown loaders, triggers). */
export const DEFAULT_CEILING = 32;

export { AdaptiveLimiter } from './limiter';

const DEFAULTS = {
	timeoutMs: 30_000,
	readRetries: 2,
	moneyMovingResends: 3,
	lookupAttempts: 4,
	backoffMs: 500,
	pageSize: 100,
	maxPages: 10_000,
	pushBackRetries: 8,
};

/** The longest wait between push-back retries without a Retry-After. */
const MAX_PUSH_BACK_WAIT_MS = 10_000;

class Transport implements PayOnUsClient, Attempts {
	readonly environment: PayOnUsEnvironment;
	readonly defaults: CredentialDefaults;
	readonly limits: typeof DEFAULTS;
	private readonly wait: (ms: number) => Promise<void>;
	private readonly baseUrl: string;
	private readonly session: Session;
	readonly limiter: AdaptiveLimiter;

	constructor(
		private readonly ctx: PayOnUsContext,
		credential: PayOnUsCredential,
		options: ClientOptions,
	) {
		this.limits = { ...DEFAULTS };
		for (const k of Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>) {
			if (options[k] !== undefined) this.limits[k] = options[k];
		}
		this.wait = options.sleep ?? (async (ms: number) => await sleep(ms));
		this.limiter = options.limiter ?? new AdaptiveLimiter({ ceiling: DEFAULT_CEILING });
		this.environment = credential.environment;
		try {
			this.baseUrl = baseUrlOf(credential);
		} catch (error) {
			throw setupError(ctx.getNode(), (error as Error).message);
		}
		this.defaults = credential.defaults;
		this.session = new Session(ctx, credential.data, clientKey(credential), this.wait);
	}

	// ---- Attempts (for a request's policy, and the reads below)

	async pause(ms: number): Promise<void> {
		await this.wait(ms);
	}

	backoff(attempt: number): number {
		return this.limits.backoffMs * 2 ** attempt;
	}

	secrets(): string[] {
		return this.session.secrets();
	}

	/** One attempt, through the limiter: a 429 or 503 halves the calls in flight and holds new ones for its Retry-After. */
	async attempt(opts: RequestOptions): Promise<unknown> {
		const seq = await this.limiter.acquire();
		const sent = this.session.send(this.httpOptions(opts));
		// The outcome feeds the limiter; the caller gets the answer (or what n8n threw) as it is.
		sent.then(
			() => this.limiter.release(seq, { ok: true }),
			(error: unknown) => {
				const failure = classifyFailure(error);
				this.limiter.release(seq, isPushBack(failure) ? { pushBackMs: retryAfterOf(error) ?? 0, quota: isQuota(failure) } : { ok: false });
			},
		);
		return await sent;
	}

	/** The wait before retrying a pushed-back call (its Retry-After, else a capped exponential back-off). */
	pushBackWait(error: unknown, attempt: number): number {
		return retryAfterOf(error) ?? Math.min(MAX_PUSH_BACK_WAIT_MS, this.backoff(attempt));
	}

	private failedCall(opts: RequestOptions): FailedCall {
		return {
			method: opts.method,
			path: opts.path,
			baseUrl: this.baseUrl,
			timeoutMs: this.limits.timeoutMs,
			secrets: this.secrets(),
			params: requestParams(opts),
		};
	}

	error(f: Failure, opts: RequestOptions): PayOnUsApiError {
		return requestError(this.ctx.getNode(), f, this.failedCall(opts));
	}

	fail(opts: RequestOptions, build: Parameters<Attempts['fail']>[1]): PayOnUsApiError {
		return build(this.ctx.getNode(), this.failedCall(opts));
	}

	unwrap<T>(body: unknown, opts: RequestOptions): T {
		const parsed = parseBody(body);
		if (parsed.failure) throw this.error(parsed.failure, opts);
		const value = parsed.value;
		// Rule 2: an error the body states is an error, whatever the 2xx status (./envelope.ts).
		const stated = statedFailure(value);
		if (stated) throw this.error(stated, opts);
		return payloadOf(value, opts.envelope) as T;
	}

	// ---- requests

	private httpOptions(opts: RequestOptions): IHttpRequestOptions {
		const request: IHttpRequestOptions = {
			method: opts.method,
			url: `${this.baseUrl}${opts.path}`,
			json: true,
			timeout: this.limits.timeoutMs,
			arrayFormat: 'repeat',
			...NO_REDIRECTS,
		};
		if (opts.qs) {
			const qs: IDataObject = {};
			for (const [k, v] of Object.entries(opts.qs)) if (v !== undefined && v !== null && v !== '') qs[k] = v;
			request.qs = qs;
		}
		if (opts.form) {
			const { body, contentType } = buildMultipart(opts.form);
			request.body = body;
			request.headers = { 'Content-Type': contentType, Accept: 'application/json' };
		} else if (opts.body !== undefined) {
			request.body = opts.body;
			request.headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
		}
		return request;
	}

	/**
	 * Reads: retried a couple of times on transient failures; a push-back
	 * (429/503) is retried after its Retry-After, up to pushBackRetries times.
	 */
	private async sendRead(opts: RequestOptions): Promise<unknown> {
		const retryable = opts.method === 'GET' || opts.method === 'HEAD' || opts.method === 'DELETE';
		let failures = 0;
		let pushBacks = 0;
		for (;;) {
			try {
				return await this.attempt(opts);
			} catch (error) {
				const f = classifyFailure(error);
				if (retryable && isPushBack(f) && pushBacks < this.limits.pushBackRetries) {
					await this.pause(this.pushBackWait(error, pushBacks++));
					continue;
				}
				if (retryable && isTransient(f) && failures < this.limits.readRetries) {
					await this.pause(this.backoff(failures++));
					continue;
				}
				throw this.error(f, opts);
			}
		}
	}

	async request<T = IDataObject>(opts: RequestOptions): Promise<T> {
		if (opts.policy) return await opts.policy.send<T>(this, opts);
		const body = await this.sendRead(opts);
		return this.unwrap<T>(body, opts);
	}

	async paginate<T = IDataObject>(opts: PaginateOptions): Promise<T[]> {
		const limit = opts.returnAll ? undefined : Math.max(0, Math.floor(opts.limit ?? 50));
		return (await collectPages(async (path, qs) => await this.request<unknown>({ method: 'GET', path, qs }), {
			path: opts.path,
			qs: opts.qs,
			style: opts.style,
			limit,
			pageSize: Math.max(1, Math.floor(opts.pageSize ?? this.limits.pageSize)),
			maxPages: Math.max(1, Math.floor(opts.maxPages ?? this.limits.maxPages)),
			// Pages ahead in flight once the first page tells how many there are; the limiter decides the pace.
			parallel: this.limiter.ceiling,
		})) as T[];
	}
}

/** The fields of a request (JSON body, form fields or query), for naming the field an error is about. */
function requestParams(opts: RequestOptions): IDataObject | undefined {
	if (opts.body && typeof opts.body === 'object' && !Array.isArray(opts.body)) return opts.body as IDataObject;
	if (opts.form) return opts.form.fields as IDataObject;
	return opts.qs;
}

/** The token fingerprint of the client a credential makes (its base address, client id and secret). */
function clientKey(credential: PayOnUsCredential): string {
	return tokenFingerprint({ baseUrl: credential.baseUrl, clientId: credential.clientId, clientSecret: credential.clientSecret });
}

/**
 * Whether a credential read a moment ago can stand in for a fresh read: its
 * base address is usable, the session would send its stored token as it is
 * (session.ts, keepsStoredToken), and that token is the one this process
 * would use now. Then the read can only be behind on a token another
 * process stored since, which a 401 recovers (the session re-reads) without
 * a token call: reusing it never causes a token call a fresh read would
 * have avoided. A token to blank or replace always gets a fresh read.
 */
export function reusable(credential: PayOnUsCredential): boolean {
	if (credential.baseUrlProblem !== undefined) return false;
	const key = clientKey(credential);
	const live = tokenCache.live(key);
	return keepsStoredToken(credential.data, key) && (live === undefined || live.token === storedToken(credential.data));
}

/**
 * The client for a node context. Reads the `payOnUsApi` credential once for
 * the environment and the defaults (../credential/read.ts), unless the
 * caller hands its own read (`credential`); each call then re-uses it, and
 * re-reads it after a refused token.
 */
export async function createClient(ctx: PayOnUsContext, options: ClientOptions = {}): Promise<PayOnUsClient> {
	const credential = options.credential ?? (await readCredential(ctx));
	if (!credential) throw setupError(ctx.getNode(), 'No PayOnUs API credential is set on this node');
	return new Transport(ctx, credential, options);
}
