import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import type {
	MoneyMovingOptions,
	MultipartFile,
	PaginateOptions,
	PayOnUsClient,
	PayOnUsEnvironment,
	RequestOptions,
} from './client';
import { isEnvironment, NO_REDIRECTS, resolveBaseUrl } from './environments';
import { describeRecord } from './outcome';
import { collectPages, PageLimitError } from './api/paging';
import { networkReason, redactText, sanitizeBody, statusMeaning, summarizeHttpError } from './errors';
import {
	isTokenRejectedSignal,
	markTransportOwned,
	TOKEN_CALL_CODE,
	TOKEN_REJECTED_CODE,
	TokenCallError,
	tokenCache,
	tokenFingerprint,
} from './tokenCache';

/**
 * The one place where the nodes talk HTTP to PayOnUs.
 *
 * - Authentication: every call goes through n8n's
 *   `httpRequestWithAuthentication` with the credential this transport read
 *   itself (passed as `credentialsDecrypted`, marked as transport-owned), so
 *   that after a 401 it can re-read the stored credential and take a newer
 *   token another execution or n8n process stored, and only then ask for a
 *   new one (see tokenCache.ts). At most two such recoveries per call; a 401
 *   means the service refused before processing, so resending is safe even
 *   for money-moving calls.
 * - Envelope: returns `data` of `{ status, message, data }`.
 * - Errors: NodeApiError with a plain message (method, path, status meaning)
 *   and the service's own words; never the token, secret, key or card data.
 * - Money-moving calls are never resent blindly: after a timeout, a dropped
 *   connection or a 5xx, the record is looked up by reference first.
 * - Reads (GET, and the idempotent DELETE) are retried on transient failures.
 */

export type PayOnUsContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions
	| IHookFunctions;

export const CREDENTIAL_TYPE = 'payOnUsApi';

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
	/** Tests only. */
	sleep?: (ms: number) => Promise<void>;
}

const DEFAULTS = {
	timeoutMs: 30_000,
	readRetries: 2,
	moneyMovingResends: 3,
	lookupAttempts: 4,
	backoffMs: 500,
	pageSize: 100,
	maxPages: 10_000,
};
const MAX_AUTH_RECOVERIES = 2;
/** Credential fields preAuthentication writes (tokenCache.ts tokenFields). */
const TOKEN_FIELDS = ['accessToken', 'issuedAt', 'expiresAt', 'tokenFingerprint'] as const;
/** A stored token issued this recently that already fails probably lost a
 * race with another process that is about to store its own: look again. */
const RECENT_TOKEN_MS = 15_000;
const RACE_SETTLE_MS = 500;
const RACE_LOOKS = 4;

/** What went wrong with one HTTP attempt. */
interface Failure {
	kind: 'http' | 'timeout' | 'dropped' | 'unreachable' | 'auth' | 'token' | 'other';
	status?: number;
	body?: unknown;
	code?: string;
	message?: string;
}

interface ErrorLike {
	cause?: unknown;
	code?: unknown;
	message?: unknown;
	messages?: unknown;
	httpCode?: unknown;
	context?: { data?: unknown };
	response?: { status?: unknown; data?: unknown };
}

const TIMEOUT_CODES = ['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'];
const DROPPED_CODES = ['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET'];
const UNREACHABLE_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];

/**
 * Classifies what n8n's request helpers threw. In n8n 2.8 that is a
 * NodeApiError built from the AxiosError WITHOUT the error as `cause` (the
 * class field resets it): what is left is `httpCode` (the HTTP status, or
 * the network error code such as ECONNABORTED/ECONNRESET), `context.data`
 * (the response body) and `messages` (the raw texts, e.g. "timeout of
 * 30000ms exceeded", "socket hang up"). Errors thrown by our own
 * preAuthentication carry a PAYONUS_* httpCode.
 */
export function classifyFailure(error: unknown): Failure {
	const e = (error ?? {}) as ErrorLike;
	for (const c of [e, e.cause]) {
		if (!c || typeof c !== 'object') continue;
		if (isTokenRejectedSignal(c) || (c as ErrorLike).httpCode === TOKEN_REJECTED_CODE) return { kind: 'auth', status: 401 };
		if (c instanceof TokenCallError || (c as ErrorLike).httpCode === TOKEN_CALL_CODE) {
			return { kind: 'token', message: String((c as ErrorLike).message ?? '') };
		}
	}
	// A raw AxiosError (or a NodeApiError that kept it as its cause).
	const raw = (e.response ? e : (e.cause as ErrorLike | undefined)?.response ? (e.cause as ErrorLike) : undefined) as
		| ErrorLike
		| undefined;
	let status: number | undefined;
	let body: unknown;
	let code: string | undefined;
	if (raw?.response && typeof raw.response.status === 'number') {
		status = raw.response.status;
		body = raw.response.data;
	} else if (typeof e.httpCode === 'string' && /^\d{3}$/.test(e.httpCode)) {
		status = Number(e.httpCode);
		body = e.context?.data;
	} else {
		code =
			typeof e.httpCode === 'string' && e.httpCode !== ''
				? e.httpCode
				: typeof e.code === 'string'
					? e.code
					: typeof (e.cause as ErrorLike | undefined)?.code === 'string'
						? String((e.cause as ErrorLike).code)
						: undefined;
	}
	if (status !== undefined) {
		return status === 401 ? { kind: 'auth', status, body } : { kind: 'http', status, body };
	}
	const texts = [
		...(Array.isArray(e.messages) ? e.messages.map(String) : []),
		typeof e.message === 'string' ? e.message : '',
		typeof (e.cause as ErrorLike | undefined)?.message === 'string' ? String((e.cause as ErrorLike).message) : '',
	].join(' | ');
	if ((code && TIMEOUT_CODES.includes(code)) || /timeout of \d+ms exceeded|timed? ?out/i.test(texts)) {
		return { kind: 'timeout', code: code ?? 'ETIMEDOUT' };
	}
	if ((code && DROPPED_CODES.includes(code)) || /socket hang up|ECONNRESET|other side closed/i.test(texts)) {
		return { kind: 'dropped', code: code ?? 'ECONNRESET' };
	}
	if (code === 'ECONNABORTED') return { kind: 'dropped', code };
	if (code && UNREACHABLE_CODES.includes(code)) return { kind: 'unreachable', code };
	return { kind: 'other', code, message: texts };
}

/** After these the request may or may not have been processed. */
function isUncertain(f: Failure): boolean {
	return f.kind === 'timeout' || f.kind === 'dropped' || (f.kind === 'http' && (f.status ?? 0) >= 500);
}

/** Worth retrying for a read. */
function isTransient(f: Failure): boolean {
	return isUncertain(f) || f.kind === 'unreachable' || (f.kind === 'http' && f.status === 429);
}

function isEnvelope(body: unknown): body is IDataObject {
	return !!body && typeof body === 'object' && !Array.isArray(body) && 'data' in (body as IDataObject);
}

function randomBoundary(): string {
	let s = '';
	for (let i = 0; i < 24; i++) s += Math.floor(Math.random() * 36).toString(36);
	return `----payonus${s}`;
}

function quoteHeaderValue(v: string): string {
	return v.replace(/["\r\n\\]/g, '_');
}

/** multipart/form-data body as one Buffer (no third-party form library). */
export function buildMultipart(form: { fields: Record<string, string>; files: MultipartFile[] }): {
	body: Buffer;
	contentType: string;
} {
	const boundary = randomBoundary();
	const chunks: Buffer[] = [];
	for (const [name, value] of Object.entries(form.fields)) {
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quoteHeaderValue(name)}"\r\n\r\n${value}\r\n`,
				'utf8',
			),
		);
	}
	for (const f of form.files) {
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quoteHeaderValue(f.field)}"; filename="${quoteHeaderValue(f.filename)}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
				'utf8',
			),
			f.data,
			Buffer.from('\r\n', 'utf8'),
		);
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function numberField(v: unknown): number | undefined {
	const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
	return Number.isFinite(n) ? n : undefined;
}

class Transport implements PayOnUsClient {
	readonly environment: PayOnUsEnvironment;
	readonly defaults: { merchantId?: string; businessId?: string };
	private readonly opts: typeof DEFAULTS;
	private readonly pause: (ms: number) => Promise<void>;
	private readonly baseUrl: string;
	private readonly key: string;
	/** The credential data used for the next call (n8n updates its token in place). */
	private data: ICredentialDataDecryptedObject;
	private readonly secrets: string[];

	constructor(
		private readonly ctx: PayOnUsContext,
		credentials: ICredentialDataDecryptedObject,
		options: ClientOptions,
	) {
		this.opts = {
			timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
			readRetries: options.readRetries ?? DEFAULTS.readRetries,
			moneyMovingResends: options.moneyMovingResends ?? DEFAULTS.moneyMovingResends,
			lookupAttempts: options.lookupAttempts ?? DEFAULTS.lookupAttempts,
			backoffMs: options.backoffMs ?? DEFAULTS.backoffMs,
			pageSize: options.pageSize ?? DEFAULTS.pageSize,
			maxPages: options.maxPages ?? DEFAULTS.maxPages,
		};
		this.pause = options.sleep ?? (async (ms: number) => await sleep(ms));
		this.environment = isEnvironment(credentials.environment) ? credentials.environment : 'sandbox';
		this.baseUrl = this.wrap(() => resolveBaseUrl(credentials.environment, credentials.baseUrl));
		const merchantId = typeof credentials.merchantId === 'string' ? credentials.merchantId.trim() : '';
		const businessId = typeof credentials.businessId === 'string' ? credentials.businessId.trim() : '';
		this.defaults = {
			...(merchantId ? { merchantId } : {}),
			...(businessId ? { businessId } : {}),
		};
		this.key = tokenFingerprint({
			baseUrl: this.baseUrl,
			clientId: String(credentials.clientId ?? '').trim(),
			clientSecret: String(credentials.clientSecret ?? ''),
		});
		this.secrets = [credentials.clientSecret, credentials.webhookVerificationKey]
			.filter((s): s is string => typeof s === 'string' && s.length > 0);
		this.data = this.adopt(credentials);
	}

	private wrap<T>(fn: () => T): T {
		try {
			return fn();
		} catch (error) {
			throw new NodeApiError(this.ctx.getNode(), { message: (error as Error).message } as JsonObject, {
				message: (error as Error).message,
			});
		}
	}

	/**
	 * Takes a credential read from the database: notes its token in the
	 * process cache, and blanks the token (so preAuthentication supplies one)
	 * when it was minted for other settings or is about to expire.
	 */
	private adopt(credentials: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
		const data = markTransportOwned({ ...credentials });
		const token = typeof data.accessToken === 'string' ? data.accessToken : '';
		if (token !== '' && data.tokenFingerprint !== this.key) {
			data.accessToken = '';
		} else if (token !== '') {
			const expiresAt = numberField(data.expiresAt) ?? 0;
			const rec = { token, issuedAt: numberField(data.issuedAt) ?? 0, expiresAt };
			if (expiresAt > 0 && !tokenCache.isFresh(rec, this.key)) {
				data.accessToken = '';
			} else if (expiresAt > 0) {
				tokenCache.observe(this.key, rec);
			}
		}
		for (const s of [data.clientSecret, data.webhookVerificationKey]) {
			if (typeof s === 'string' && s.length > 0 && !this.secrets?.includes(s)) this.secrets?.push(s);
		}
		return data;
	}

	private currentSecrets(): string[] {
		const token = typeof this.data.accessToken === 'string' ? this.data.accessToken : '';
		return token ? [...this.secrets, token] : this.secrets;
	}

	private credentialsDecrypted(data: ICredentialDataDecryptedObject): ICredentialsDecrypted {
		const ref = this.ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		return {
			id: ref?.id ?? '',
			name: ref?.name ?? 'PayOnUs API',
			type: CREDENTIAL_TYPE,
			data,
		};
	}

	/**
	 * Re-reads the stored credential after a refused token and decides
	 * whether a new token is needed:
	 *  - the stored token differs from the one that failed: another execution
	 *    or process stored a newer one; use it (no token call);
	 *  - the stored token IS the one that failed, and it is only seconds old:
	 *    another process most likely minted at the same moment and is about to
	 *    store its token; look again a few times (jittered) before minting, so
	 *    two processes do not keep killing each other's tokens;
	 *  - otherwise flag it dead and send with an empty token: preAuthentication
	 *    then hands out this process's live token if it has one (and n8n
	 *    stores it), or mints one (single flight).
	 */
	private async recoverFromRejectedToken(failedToken: string): Promise<void> {
		for (let look = 0; ; look++) {
			const fresh = this.adopt(
				(await this.ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)) ?? {},
			);
			const stored = typeof fresh.accessToken === 'string' ? fresh.accessToken : '';
			if (stored !== '' && stored !== failedToken && !tokenCache.isDead(this.key, stored)) {
				this.data = fresh;
				return;
			}
			const issuedAt = numberField(fresh.issuedAt) ?? 0;
			const recent = stored === failedToken && issuedAt > 0 && tokenCache.now() - issuedAt < RECENT_TOKEN_MS;
			const mine = tokenCache.live(this.key);
			if (recent && look < RACE_LOOKS && !(mine && mine.token !== failedToken)) {
				await this.pause(RACE_SETTLE_MS + Math.floor(Math.random() * RACE_SETTLE_MS));
				continue;
			}
			if (failedToken !== '') tokenCache.markDead(this.key, failedToken);
			fresh.accessToken = '';
			this.data = fresh;
			return;
		}
	}

	/**
	 * One call with authentication and the 401 recovery; returns the raw body.
	 * Safe with several calls of one node run in flight (the node runs reads
	 * concurrently): each attempt sends its own copy of the credential data, so
	 * n8n writes the token it sends (preAuthentication) into that copy and the
	 * token blamed for a 401 is exactly the one THIS attempt sent; a token that
	 * worked is handed back to the shared data for the next calls. When
	 * another call already recovered (the shared data holds another live
	 * token), a 401 just resends with it: no database read, no token call.
	 */
	private async send(request: IHttpRequestOptions): Promise<unknown> {
		let tookShared = false;
		for (let recoveries = 0; ; recoveries++) {
			const options: IHttpRequestOptions = {
				...request,
				headers: { ...(request.headers ?? {}) },
				qs: request.qs ? { ...request.qs } : undefined,
			};
			const base = this.data;
			const sent = markTransportOwned({ ...base });
			let failed: unknown;
			try {
				const body = await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx as IExecuteFunctions,
					CREDENTIAL_TYPE,
					options,
					{ credentialsDecrypted: this.credentialsDecrypted(sent) },
				);
				if (this.data === base && sent.accessToken !== base.accessToken) {
					for (const k of TOKEN_FIELDS) if (k in sent) base[k] = sent[k];
				}
				return body;
			} catch (error) {
				failed = error;
			}
			if (classifyFailure(failed).kind !== 'auth' || recoveries >= MAX_AUTH_RECOVERIES) throw failed;
			const token = typeof sent.accessToken === 'string' ? sent.accessToken : '';
			const current = typeof this.data.accessToken === 'string' ? this.data.accessToken : '';
			if (!tookShared && current !== '' && current !== token && !tokenCache.isDead(this.key, current)) {
				// Once per call, and not counted as a recovery (the re-read ones stay available).
				tookShared = true;
				recoveries--;
				continue;
			}
			await this.recoverFromRejectedToken(token);
		}
	}

	private httpOptions(opts: RequestOptions): IHttpRequestOptions {
		const request: IHttpRequestOptions = {
			method: opts.method,
			url: `${this.baseUrl}${opts.path}`,
			json: true,
			timeout: this.opts.timeoutMs,
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

	/** Raises a safe NodeApiError for a failure. */
	private fail(
		f: Failure,
		opts: RequestOptions,
		extra?: { description?: string; record?: IDataObject; outcome?: 'alreadyDone' },
	): never {
		const node = this.ctx.getNode();
		const secrets = this.currentSecrets();
		const where = `${opts.method} ${opts.path}`;
		let message: string;
		let description: string | undefined;
		let httpCode: string | undefined;
		let body: unknown;
		if ((f.kind === 'http' || f.kind === 'auth') && f.status !== undefined) {
			const s = summarizeHttpError(f.status, f.body, {
				method: opts.method,
				path: opts.path,
				moneyMoving: !!opts.moneyMoving,
				secrets,
			});
			message = s.message;
			description = s.description;
			httpCode = String(f.status);
			body = s.body;
		} else if (f.kind === 'token') {
			message = redactText(f.message ?? 'Could not get a PayOnUs access token', secrets);
			httpCode = f.status !== undefined ? String(f.status) : undefined;
		} else if (f.kind === 'timeout') {
			message = `PayOnUs ${where} did not answer within ${Math.round(this.opts.timeoutMs / 1000)} s`;
			description = 'The service may be slow or unreachable. Try again later.';
		} else if (f.kind === 'dropped') {
			message = `The connection to PayOnUs dropped during ${where} (${networkReason(f.code)})`;
			description = 'Try again later.';
		} else if (f.kind === 'unreachable') {
			message = `Could not reach PayOnUs at ${this.baseUrl} for ${where} (${networkReason(f.code)})`;
			description = "Check the credential's Environment / Base URL and this server's network access.";
		} else {
			message = `PayOnUs ${where} failed: ${redactText(f.message ?? 'unknown error', secrets)}`;
		}
		if (extra?.description) description = description ? `${extra.description} ${description}` : extra.description;
		const details: IDataObject = { message, httpCode: httpCode ?? null };
		if (body !== undefined) details.serviceResponse = body as IDataObject;
		if (extra?.record) details.existingRecord = sanitizeBody(extra.record, secrets) as IDataObject;
		if (extra?.outcome) details.outcome = extra.outcome;
		const error = new NodeApiError(node, details as JsonObject, {
			message,
			description,
			httpCode,
		});
		// The service's (cleaned) answer and, for a duplicate, the record that
		// holds the reference: shown in n8n's error details.
		if (body !== undefined) error.context.serviceResponse = body as IDataObject;
		if (extra?.record) error.context.existingRecord = details.existingRecord;
		// 'alreadyDone': a 409 on a first attempt whose reference is held by a
		// record matching this request (the same call made before, e.g. a
		// repeated notification): machine-readable for routing on it.
		if (extra?.outcome) error.context.outcome = extra.outcome;
		throw error;
	}

	private unwrap<T>(body: unknown, opts: RequestOptions): T {
		if (Buffer.isBuffer(body)) body = body.toString('utf8');
		if (typeof body === 'string') {
			const t = body.trim();
			if (t === '') return undefined as T;
			try {
				body = JSON.parse(t);
			} catch {
				this.fail({ kind: 'other', message: 'the service answered with something that is not JSON' }, opts);
			}
		}
		if (!isEnvelope(body)) return body as T;
		const status = numberField(body.status);
		if (status !== undefined && status >= 400) {
			// An error inside a 200 envelope: treat it like the HTTP status.
			this.fail(status === 401 ? { kind: 'auth', status, body } : { kind: 'http', status, body }, opts);
		}
		// `envelope: true` (client.ts): the caller needs the message too.
		return (opts.envelope ? body : body.data) as T;
	}

	private backoff(attempt: number): number {
		return this.opts.backoffMs * 2 ** attempt;
	}

	/** Reads: retried a couple of times on transient failures. */
	private async sendRead(opts: RequestOptions): Promise<unknown> {
		const retryable = opts.method === 'GET' || opts.method === 'HEAD' || opts.method === 'DELETE';
		for (let attempt = 0; ; attempt++) {
			try {
				return await this.send(this.httpOptions(opts));
			} catch (error) {
				const f = classifyFailure(error);
				if (retryable && isTransient(f) && attempt < this.opts.readRetries) {
					await this.pause(this.backoff(attempt));
					continue;
				}
				this.fail(f, opts);
			}
		}
	}

	/** Raises an error about the outcome of a money-moving call (it never tells the user to change the reference). */
	private failOutcome(
		kind: 'unknown' | 'differentOwner' | 'duplicate',
		opts: RequestOptions,
		text: { message: string; description: string; record?: IDataObject; httpCode?: string },
	): never {
		const secrets = this.currentSecrets();
		const details: IDataObject = { message: redactText(text.message, secrets), httpCode: text.httpCode ?? null, outcome: kind };
		if (text.record) details.existingRecord = sanitizeBody(text.record, secrets) as IDataObject;
		const error = new NodeApiError(this.ctx.getNode(), details as JsonObject, {
			message: redactText(text.message, secrets),
			description: redactText(text.description, secrets),
			httpCode: text.httpCode,
		});
		error.context.outcome = kind;
		if (text.record) error.context.existingRecord = details.existingRecord;
		throw error;
	}

	private what(mm: MoneyMovingOptions): string {
		return mm.describe ? ` (${mm.describe})` : '';
	}

	/** "Unknown outcome": names the reference, what was checked and what to check before retrying. */
	private failUnknown(mm: MoneyMovingOptions, opts: RequestOptions, checked: string, httpCode?: string): never {
		const noun = mm.noun ?? 'transaction';
		return this.failOutcome('unknown', opts, {
			httpCode,
			message: `Outcome unknown for reference "${mm.reference}": the ${noun} may or may not have been made`,
			description:
				`The outcome is UNKNOWN for reference "${mm.reference}"${this.what(mm)}: ${checked}. Nothing more was sent. ` +
				`Before retrying, check reference "${mm.reference}" in PayOnUs (Get Transfer / Search Transfers or List Payments by that reference, ` +
				`the wallet ledger, or the PayOnUs dashboard). If it is not there and you retry, keep the SAME reference "${mm.reference}" so the service refuses a second payment.`,
		});
	}

	/** A record holding the reference that is not this request: nothing was sent for this item. */
	private failDifferentOwner(mm: MoneyMovingOptions, opts: RequestOptions, record: IDataObject, differences: string[], httpCode?: string): never {
		const noun = mm.noun ?? 'transaction';
		const other = describeRecord(record);
		return this.failOutcome('differentOwner', opts, {
			httpCode,
			record,
			message: `Reference "${mm.reference}" belongs to an earlier, different ${noun} (${other}); nothing was sent for this item`,
			description:
				`An earlier, different ${noun} owns reference "${mm.reference}": ${other} (shown under existingRecord). ` +
				`This item${this.what(mm)} was NOT made: the service keeps one ${noun} per reference. Differences: ${differences.join('; ')}. ` +
				`Check that earlier ${noun} before doing anything else with this reference.`,
		});
	}

	/** Runs the lookup with retries; `error` when it could not tell (failed each time, or hit its bound). */
	private async runLookup(mm: MoneyMovingOptions, attempts: number): Promise<{ record?: IDataObject; error?: string }> {
		let why = 'unknown error';
		for (let attempt = 0; attempt < attempts; attempt++) {
			try {
				return { record: (await mm.lookup()) ?? undefined };
			} catch (error) {
				why = error instanceof Error ? redactText(error.message, this.currentSecrets()) : String(error);
				if (error instanceof PageLimitError || (error as Error)?.name === 'PageLimitError') break;
				if (attempt + 1 < attempts) await this.pause(this.backoff(attempt));
			}
		}
		return { error: why };
	}

	private differences(mm: MoneyMovingOptions, record: IDataObject, mode: 'answer' | 'record' = 'record'): string[] {
		return mm.check ? mm.check(record, mode) : [];
	}

	/**
	 * Money-moving calls. Never resent blindly:
	 * - a lost answer (timeout, dropped connection, 5xx) is resolved by lookup
	 *   first: a record matching this request is returned (`recoveredByLookup`);
	 *   a record holding the reference that does not match means nothing was
	 *   sent for this item (error); nothing found (the lookup read the whole
	 *   list) allows a resend with the same reference, at most
	 *   `moneyMovingResends` times; a lookup that cannot tell, or a call whose
	 *   absence no lookup can prove (bulk), fails as "outcome unknown";
	 * - a 409 after a lost answer: resolved by lookup, else "outcome unknown";
	 * - a 409 on a first attempt: a duplicate reference (the reference was
	 *   already used), with the record holding it when the lookup finds it;
	 * - every answer is checked against the request (`check`).
	 */
	private async sendMoneyMoving<T>(opts: RequestOptions, mm: MoneyMovingOptions): Promise<T> {
		let lostBefore = false;
		let lostHow = '';
		for (let resends = 0; ; resends++) {
			let failure: Failure | undefined;
			let body: unknown;
			try {
				body = await this.send(this.httpOptions(opts));
			} catch (error) {
				failure = classifyFailure(error);
			}
			if (!failure && isEnvelope(body)) {
				// An error inside a 200 envelope counts as that status (a 409 or a 5xx included).
				const status = numberField(body.status);
				if (status !== undefined && status >= 400 && status !== 401) failure = { kind: 'http', status, body };
			}
			if (!failure) {
				const data = this.unwrap<IDataObject>(body, opts);
				if (data && typeof data === 'object' && !Array.isArray(data)) {
					const diff = this.differences(mm, data, 'answer');
					if (diff.length > 0) this.failDifferentOwner(mm, opts, data, diff);
				}
				return data as T;
			}
			if (failure.kind === 'http' && failure.status === 409) {
				const { record, error } = await this.runLookup(mm, lostBefore ? this.opts.lookupAttempts : 2);
				const diff = record ? this.differences(mm, record) : [];
				if (lostBefore) {
					// Our own earlier attempt may have landed.
					if (record && diff.length === 0) return { ...record, recoveredByLookup: true } as T;
					if (record) this.failDifferentOwner(mm, opts, record, diff, '409');
					this.failUnknown(
						mm,
						opts,
						`an earlier attempt's answer was lost (${lostHow}), the lookup by reference found nothing, then the resend was refused as a duplicate (409), and looking again ${
							error ? `failed (${error})` : 'still found nothing'
						}, so an earlier attempt may have been processed`,
						'409',
					);
				}
				if (record && diff.length === 0 && mm.onDuplicate === 'returnExisting') {
					return { ...record, duplicateReference: true } as T;
				}
				if (record && diff.length > 0) {
					this.fail(failure, opts, {
						description:
							`Duplicate reference: "${mm.reference}" is already used by an existing transaction of this business (shown under existingRecord): ` +
							`an earlier, different ${mm.noun ?? 'transaction'} (${describeRecord(record)}). Nothing was sent for this item${this.what(mm)}. Differences: ${diff.join('; ')}.`,
						record,
					});
				}
				this.fail(failure, opts, {
					description: record
						? `Duplicate reference: "${mm.reference}" is already used by an existing transaction of this business (shown under existingRecord), which matches this request (${describeRecord(record)}): the reference was already used, this request was not sent again.`
						: `Duplicate reference: "${mm.reference}" is already used for this business, and the lookup by reference ${
								error ? `failed (${error})` : 'did not find the transaction holding it'
							}. The reference was used before: check the outcome of that earlier use (Get Transfer / List Payments by reference, the ledger, or the PayOnUs dashboard) before doing anything else.`,
					record,
					outcome: record ? 'alreadyDone' : undefined,
				});
			}
			if (!isUncertain(failure)) this.fail(failure, opts);
			const how = failure.kind === 'http' ? `HTTP ${failure.status}` : failure.kind === 'timeout' ? 'timeout' : 'connection dropped';
			lostHow = lostHow ? `${lostHow}, ${how}` : how;
			const { record, error } = await this.runLookup(mm, this.opts.lookupAttempts);
			if (error !== undefined) {
				this.failUnknown(
					mm,
					opts,
					`the answer was lost (${lostHow}) and looking it up by reference failed (${error}); the call may have been processed`,
					failure.status !== undefined ? String(failure.status) : undefined,
				);
			}
			if (record) {
				const diff = this.differences(mm, record);
				if (diff.length > 0) this.failDifferentOwner(mm, opts, record, diff);
				return { ...record, recoveredByLookup: true } as T;
			}
			if (mm.lookupProvesAbsence === false) {
				this.failUnknown(
					mm,
					opts,
					`the answer was lost (${lostHow}); the lookup found no record of it, but nothing the service offers can prove it was NOT processed, so it was not resent`,
					failure.status !== undefined ? String(failure.status) : undefined,
				);
			}
			if (resends >= this.opts.moneyMovingResends) {
				this.fail(failure, opts, {
					description: `Nothing was created for reference "${mm.reference}" (checked by lookup after each attempt; sent ${resends + 1} time(s)). If you retry, keep the same reference.`,
				});
			}
			lostBefore = true;
			await this.pause(this.backoff(resends));
		}
	}

	async request<T = IDataObject>(opts: RequestOptions): Promise<T> {
		if (opts.moneyMoving) return await this.sendMoneyMoving<T>(opts, opts.moneyMoving);
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
			pageSize: Math.max(1, Math.floor(opts.pageSize ?? this.opts.pageSize)),
			maxPages: Math.max(1, Math.floor(opts.maxPages ?? this.opts.maxPages)),
		})) as T[];
	}
}

/**
 * The client for a node context. Reads the `payOnUsApi` credential once for
 * the environment and the defaults; each call then re-uses it, and re-reads
 * it after a refused token.
 */
export async function createClient(ctx: PayOnUsContext, options: ClientOptions = {}): Promise<PayOnUsClient> {
	const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	if (!credentials) {
		throw new NodeApiError(ctx.getNode(), { message: 'No PayOnUs API credential is set on this node' } as JsonObject, {
			message: 'No PayOnUs API credential is set on this node',
		});
	}
	return new Transport(ctx, credentials, options);
}

export { statusMeaning };
