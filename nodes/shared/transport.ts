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
};
const MAX_AUTH_RECOVERIES = 2;
/** Credential fields preAuthentication writes (tokenCache.ts tokenFields). */
const TOKEN_FIELDS = ['accessToken', 'tokenIssuedAt', 'tokenExpiresAt', 'tokenFingerprint'] as const;
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
			const expiresAt = numberField(data.tokenExpiresAt) ?? 0;
			const rec = { token, issuedAt: numberField(data.tokenIssuedAt) ?? 0, expiresAt };
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
			const issuedAt = numberField(fresh.tokenIssuedAt) ?? 0;
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
	private fail(f: Failure, opts: RequestOptions, extra?: { description?: string; record?: IDataObject }): never {
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
		const error = new NodeApiError(node, details as JsonObject, {
			message,
			description,
			httpCode,
		});
		// The service's (cleaned) answer and, for a duplicate, the record that
		// holds the reference: shown in n8n's error details.
		if (body !== undefined) error.context.serviceResponse = body as IDataObject;
		if (extra?.record) error.context.existingRecord = details.existingRecord;
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

	/** Finds the record by reference, retrying the lookup itself a few times. */
	private async lookup(mm: MoneyMovingOptions, opts: RequestOptions, after: Failure): Promise<IDataObject | undefined> {
		let lastError: unknown;
		for (let attempt = 0; attempt < this.opts.lookupAttempts; attempt++) {
			try {
				return (await mm.lookup()) ?? undefined;
			} catch (error) {
				lastError = error;
				await this.pause(this.backoff(attempt));
			}
		}
		const why = lastError instanceof Error ? redactText(lastError.message, this.currentSecrets()) : 'unknown error';
		return this.fail(after, opts, {
			description: `The outcome is UNKNOWN: the call may have been processed, and looking it up by reference "${mm.reference}" failed ${this.opts.lookupAttempts} times (${why}). Nothing was resent. Check the reference in PayOnUs before trying again.`,
		});
	}

	/** Money-moving calls: lookup by reference before any resend; 409 reported as a duplicate. */
	private async sendMoneyMoving<T>(opts: RequestOptions, mm: MoneyMovingOptions): Promise<T> {
		let uncertainBefore = false;
		for (let resends = 0; ; resends++) {
			let failure: Failure | undefined;
			let body: unknown;
			try {
				body = await this.send(this.httpOptions(opts));
			} catch (error) {
				failure = classifyFailure(error);
			}
			if (!failure) return this.unwrap<T>(body, opts);
			if (failure.kind === 'http' && failure.status === 409) {
				const existing = await this.lookupQuietly(mm);
				if (existing && uncertainBefore) {
					// Our own earlier attempt landed (it was not there when we
					// looked, so it cannot be someone else's older record).
					return { ...existing, recoveredByLookup: true } as T;
				}
				if (existing && mm.onDuplicate === 'returnExisting') {
					return { ...existing, duplicateReference: true } as T;
				}
				this.fail(failure, opts, {
					description: existing
						? `Duplicate reference: "${mm.reference}" is already used by an existing transaction of this business (shown under existingRecord); nothing new was created.`
						: `Duplicate reference: "${mm.reference}" is already used for this business; nothing new was created.`,
					record: existing,
				});
			}
			if (!isUncertain(failure)) this.fail(failure, opts);
			const found = await this.lookup(mm, opts, failure);
			if (found) return { ...found, recoveredByLookup: true } as T;
			if (resends >= this.opts.moneyMovingResends) {
				this.fail(failure, opts, {
					description: `Nothing was created for reference "${mm.reference}" (checked by lookup after each attempt; sent ${resends + 1} time(s)).`,
				});
			}
			uncertainBefore = true;
			await this.pause(this.backoff(resends));
		}
	}

	private async lookupQuietly(mm: MoneyMovingOptions): Promise<IDataObject | undefined> {
		for (let attempt = 0; attempt < 2; attempt++) {
			try {
				return (await mm.lookup()) ?? undefined;
			} catch {
				await this.pause(this.backoff(attempt));
			}
		}
		return undefined;
	}

	async request<T = IDataObject>(opts: RequestOptions): Promise<T> {
		if (opts.moneyMoving) return await this.sendMoneyMoving<T>(opts, opts.moneyMoving);
		const body = await this.sendRead(opts);
		return this.unwrap<T>(body, opts);
	}

	async paginate<T = IDataObject>(opts: PaginateOptions): Promise<T[]> {
		const limit = opts.returnAll ? Infinity : Math.max(0, Math.floor(opts.limit ?? 50));
		const out: T[] = [];
		if (limit === 0) return out;
		const configured = Math.max(1, Math.floor(opts.pageSize ?? this.opts.pageSize));
		const size = Number.isFinite(limit) ? Math.min(configured, limit) : configured;
		const zeroBased = opts.style === 'zeroBased';
		let page = zeroBased ? 0 : 1;
		let seen = 0;
		for (let guard = 0; guard < 1_000_000; guard++) {
			const qs: IDataObject = { ...(opts.qs ?? {}) };
			if (zeroBased) {
				qs.page = page;
				qs.size = size;
			} else {
				qs.pageNo = page;
				qs.pageSize = size;
			}
			const data = await this.request<IDataObject | IDataObject[]>({ method: 'GET', path: opts.path, qs });
			const content = (Array.isArray(data) ? data : Array.isArray(data?.content) ? data.content : []) as T[];
			seen += content.length;
			for (const record of content) {
				if (out.length >= limit) break;
				out.push(record);
			}
			if (out.length >= limit || content.length === 0 || content.length < size || Array.isArray(data)) break;
			const meta = data as IDataObject;
			const lastPage = numberField(meta.lastPage);
			const total = numberField(meta.totalNumberOfItems) ?? numberField(meta.totalElements);
			const totalPages = numberField(meta.totalPages);
			if (meta.last === true || meta.lastPage === true) break;
			if (lastPage !== undefined && page >= lastPage) break;
			if (total !== undefined && seen >= total) break;
			if (totalPages !== undefined && (zeroBased ? page + 1 : page) >= totalPages) break;
			page++;
		}
		return out;
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
