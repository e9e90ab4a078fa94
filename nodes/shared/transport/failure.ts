import { MAX_RETRY_AFTER_MS, retryAfterMs } from './limiter';
import { type Failure, isTokenRejectedSignal, TOKEN_CALL_CODE, TOKEN_REJECTED_CODE, TokenCallError } from '../errors';

/**
 * What n8n's request helpers threw, read as a Failure. Checked against
 * n8n-core 2.8 (request-helper-functions.js) and 2.41
 * (request-helpers/authentication.js): httpRequestWithAuthentication wraps
 * every failure in `new NodeApiError(node, axiosError)`. In 2.8 the
 * AxiosError is NOT kept as `cause` (a class field resets it); in 2.41 it is
 * (a non-enumerable `cause`). Either way the NodeApiError holds `httpCode`
 * (the HTTP status, or the network code such as ECONNABORTED/ECONNRESET),
 * `context.data` (the response body, when an object) and `messages` (the
 * raw texts, e.g. "timeout of 30000ms exceeded", "socket hang up"). Errors
 * thrown by our own preAuthentication carry a PAYONUS_* httpCode.
 * test/unit/fakes/n8nErrors.ts builds these shapes; a test checks them
 * against n8n-core's real helper.
 */

interface ErrorLike {
	cause?: unknown;
	code?: unknown;
	message?: unknown;
	messages?: unknown;
	description?: unknown;
	httpCode?: unknown;
	context?: { data?: unknown };
	response?: { status?: unknown; data?: unknown };
}

const TIMEOUT_CODES = ['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'];
const DROPPED_CODES = ['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET'];
const UNREACHABLE_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];

function tokenFailure(e: ErrorLike): Failure | undefined {
	for (const c of [e, e.cause]) {
		if (!c || typeof c !== 'object') continue;
		if (isTokenRejectedSignal(c) || (c as ErrorLike).httpCode === TOKEN_REJECTED_CODE) return { kind: 'auth', status: 401 };
		if (c instanceof TokenCallError || (c as ErrorLike).httpCode === TOKEN_CALL_CODE) {
			const description = (c as ErrorLike).description;
			return {
				kind: 'token',
				message: String((c as ErrorLike).message ?? ''),
				...(typeof description === 'string' && description !== '' ? { description } : {}),
			};
		}
	}
	return undefined;
}

export function classifyFailure(error: unknown): Failure {
	const e = (error ?? {}) as ErrorLike;
	const token = tokenFailure(e);
	if (token) return token;
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
export function isUncertain(f: Failure): boolean {
	return f.kind === 'timeout' || f.kind === 'dropped' || (f.kind === 'http' && (f.status ?? 0) >= 500);
}

/** Worth retrying for a read. */
export function isTransient(f: Failure): boolean {
	return isUncertain(f) || f.kind === 'unreachable' || isQuota(f);
}

/** Too many requests (429): a quota, refused before anything was processed. */
export function isQuota(f: Failure): boolean {
	return f.kind === 'http' && f.status === 429;
}

/** The service pushed back (too many requests, or overloaded): slow down, then retry. */
export function isPushBack(f: Failure): boolean {
	return isQuota(f) || (f.kind === 'http' && f.status === 503);
}

/** The Retry-After of what n8n threw (ms), when its response headers are kept (n8n 2.41 keeps the AxiosError as cause). */
export function retryAfterOf(error: unknown, now: number = Date.now()): number | undefined {
	const e = (error ?? {}) as ErrorLike & { response?: { headers?: Record<string, unknown> } };
	for (const c of [e, e.cause as typeof e | undefined]) {
		const headers = c?.response?.headers;
		if (headers && typeof headers === 'object') {
			const ms = retryAfterMs(headers['retry-after'] ?? headers['Retry-After'], now);
			if (ms !== undefined) return Math.min(ms, MAX_RETRY_AFTER_MS);
		}
	}
	return undefined;
}
