import type { IDataObject } from 'n8n-workflow';
import type { Failure } from '../errors';

/**
 * The service's answer `{ status, message, data }`: reading it, and THE one
 * reader of an error the service states (rule 2 of docs/reliability.md:
 * "an error the service states is an error", whatever the HTTP status and
 * whatever else the body holds or lacks). The transport applies
 * statedError() to every answer that arrived with a 2xx status (reads in
 * ./index.ts unwrap, and the sending policy a call may carry); an
 * answer with an error status is an error by that status (./failure.ts),
 * its words read by serviceMessage() (../errors/wording.ts).
 *
 * What counts as a stated error. The spec's envelope has a numeric
 * `status` ("HTTP-like status code, 200 on success"); public-facts.md
 * shows errors as `{ status: 400, data: { statusCode: 400, errors: [] } }`.
 * The spec shows no error body ("Shape of an error response body: not
 * shown"), so every shape a service may use for one is read here:
 * - `status` (number or numeric text) of 400 or more, or `statusCode` of
 *   400 or more at the top or inside `data`: an error of that status;
 * - `status` as a word of failure ("error", "failed", "failure", "fail",
 *   "declined", "rejected"), `success: false` (or "false", at the top or
 *   inside `data`), a non-empty `error` (text or object) or `errors`
 *   (list or object) at the top or a non-empty `errors` inside `data`, a
 *   `responseCode` other than a success code, or a `code` other than a
 *   success code next to a message and no data: an error whose status the
 *   service did not state (`status` undefined, unless the envelope's
 *   `status` or `statusCode` gave one).
 * A `message` alone is never an error (success answers carry one, e.g.
 * "Card token already deleted"); a record's own `paymentStatus: FAILED`
 * is a record, not an error of the call.
 */

export function isEnvelope(body: unknown): body is IDataObject {
	return !!body && typeof body === 'object' && !Array.isArray(body) && 'data' in (body as IDataObject);
}

/** What a caller gets of a parsed answer that states no error: the envelope's data, or the whole envelope with `envelope: true` (../clientInterface.ts). */
export function payloadOf(value: unknown, envelope?: boolean): unknown {
	return isEnvelope(value) && !envelope ? value.data : value;
}

/** The answer as JSON ('' is undefined), or a failure when it is not JSON. */
export function parseBody(body: unknown): { value: unknown; failure?: undefined } | { failure: Failure } {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return { value: body };
	const t = body.trim();
	if (t === '') return { value: undefined };
	try {
		return { value: JSON.parse(t) };
	} catch {
		return { failure: { kind: 'other', message: 'the service answered with something that is not JSON' } };
	}
}

/** Codes that mean success where a service answers a `responseCode` or `code`. */
const SUCCESS_CODES = new Set(['0', '00', '000', '200', '201', '202', 'success', 'successful', 'ok', 'approved', 'accepted']);
const FAILURE_WORDS = new Set(['error', 'failed', 'failure', 'fail', 'declined', 'rejected', 'false']);

function statusNumber(v: unknown): number | undefined {
	const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{3}\s*$/.test(v) ? Number(v) : NaN;
	return Number.isInteger(n) ? n : undefined;
}

function objectOf(v: unknown): IDataObject | undefined {
	return v && typeof v === 'object' && !Array.isArray(v) ? (v as IDataObject) : undefined;
}

function filled(v: unknown): boolean {
	if (v === undefined || v === null || v === false) return false;
	if (typeof v === 'string') return v.trim() !== '';
	if (Array.isArray(v)) return v.length > 0;
	if (typeof v === 'object') return Object.keys(v).length > 0;
	return true;
}

function failureCode(v: unknown): string | undefined {
	if (typeof v !== 'string' && typeof v !== 'number') return undefined;
	const code = String(v).trim();
	return code !== '' && !SUCCESS_CODES.has(code.toLowerCase()) ? code : undefined;
}

/** What the service stated about an error in a body: its status when it gave one (400 or more), its code. */
export interface StatedError {
	status?: number;
	code?: string;
}

/** The error a body states (see the rules above), or undefined when it states none. */
export function statedError(body: unknown): StatedError | undefined {
	const b = objectOf(body);
	if (!b) return undefined;
	const data = objectOf(b.data);
	const statuses = [statusNumber(b.status), statusNumber(b.statusCode), statusNumber(data?.statusCode)];
	const status = statuses.find((s) => s !== undefined && s >= 400);
	// `code` is read only beside a message and no data (a bare `{ code, message }`).
	const bareCode = !filled(b.data) && (filled(b.message) || filled(b.error)) ? failureCode(b.code) : undefined;
	const code = failureCode(b.responseCode) ?? bareCode;
	const stated =
		status !== undefined ||
		(typeof b.status === 'string' && FAILURE_WORDS.has(b.status.trim().toLowerCase())) ||
		b.success === false ||
		b.success === 'false' ||
		data?.success === false ||
		data?.success === 'false' ||
		filled(b.error) ||
		filled(b.errors) ||
		(Array.isArray(data?.errors) && data.errors.length > 0) ||
		code !== undefined;
	if (!stated) return undefined;
	return { ...(status !== undefined ? { status } : {}), ...(code !== undefined ? { code } : {}) };
}

/**
 * An answer that arrived with a 2xx status, read as a Failure when its body
 * states an error: of the stated status (401: `auth`), or of no status
 * (`stated: true`, status undefined) when the body did not give one.
 */
export function statedFailure(body: unknown): Failure | undefined {
	const stated = statedError(body);
	if (!stated) return undefined;
	const { status } = stated;
	return status === 401 ? { kind: 'auth', status, body, stated: true } : { kind: 'http', status, body, stated: true, code: stated.code };
}
