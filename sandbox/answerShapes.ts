/**
 * Answer-shape profiles (profiles.ts): readings of what the spec leaves open
 * about the shape of an answer ("Shape of an error response body: not
 * shown"; a success envelope's `data` is the operation's payload). Each
 * rewrites the body (and the HTTP status) of an /api/v1 answer after the
 * request was processed exactly as usual: what moved, moved. The nodes must
 * not depend on one reading (rules 1 and 2 of docs/reliability.md).
 */
import type { ProfileName, Profiles } from './profiles';

/** The POST paths that move money (or create a payin), whose success answers the success-shape profiles rewrite. */
export const MONEY_MOVING_PATHS = [
	'/api/v1/transfer-requests/bank-transfer',
	'/api/v1/transfer-requests/bulk/bank-transfer',
	'/api/v1/card-payments',
	'/api/v1/card-payments/with-token',
	'/api/v1/mobile-money/collection',
	'/api/v1/eft-payment',
	'/api/v1/virtual-accounts/dynamic',
];

/** The answer-shape profiles, in the order they apply (one of each kind makes sense at a time). */
export const ANSWER_SHAPE_PROFILES: ProfileName[] = [
	'errors-in-200-unstated-status',
	'errors-in-200-response-code',
	'errors-in-200-status-text',
	'empty-success',
	'success-without-reference',
];

export interface Answer {
	status: number;
	body: Record<string, unknown>;
}

/** The answer as the active answer-shape profiles give it (the input when none applies). */
export function shapeAnswer(profiles: Profiles, method: string, path: string, answer: Answer): Answer {
	const { status, body } = answer;
	const message = typeof body.message === 'string' ? body.message : '';
	const data = body.data && typeof body.data === 'object' && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : undefined;
	const errors = Array.isArray(data?.errors) ? data.errors : [];
	if (status >= 400) {
		if (profiles.has('errors-in-200-unstated-status')) {
			// No number anywhere: a word, success false, and the error as an object with a code.
			return { status: 200, body: { status: 'error', success: false, message, error: { code: `E${status}`, message, details: errors }, data: null } };
		}
		if (profiles.has('errors-in-200-response-code')) {
			return { status: 200, body: { responseCode: String(status === 409 ? 26 : 96), responseMessage: [message, ...errors].join('; '), data: null } };
		}
		if (profiles.has('errors-in-200-status-text')) {
			return { status: 200, body: { status: String(status), message, data: { statusCode: String(status), errors } } };
		}
		return answer;
	}
	if (method !== 'POST' || !MONEY_MOVING_PATHS.includes(path)) return answer;
	if (profiles.has('empty-success')) return { status, body: { status: 200, message: 'Successful', data: null } };
	if (profiles.has('success-without-reference') && data) {
		const { onusReference: _o, merchantReference: _m, reference: _r, transfers, ...rest } = data;
		const rows = Array.isArray(transfers)
			? transfers.map((t) => {
					const { onusReference: _to, ...row } = t as Record<string, unknown>;
					return row;
				})
			: undefined;
		return { status, body: { ...body, data: rows ? { ...rest, transfers: rows } : rest } };
	}
	return answer;
}
