import type { IDataObject, INode } from 'n8n-workflow';
import { redactText, sanitizeBody } from '../redact';
import { type Failure, type MoneyOutcome, PayOnUsApiError } from './apiError';
import { summarizeHttpError } from './titles';
import { networkReason } from './wording';

/** What the transport knows of the call that failed, for the message. */
export interface FailedCall {
	method: string;
	path: string;
	baseUrl: string;
	timeoutMs: number;
	/** The merchant reference when the call moves money. */
	reference?: string;
	/** Strings never to show (client secret, verification key, token). */
	secrets: string[];
	/** The request's fields (body, query or form fields), for naming the field an error is about. */
	params?: IDataObject;
}

/**
 * The error for a failed attempt: a plain message (method, path, what the
 * status means) and the service's own words, never a secret.
 */
export function requestError(
	node: INode,
	f: Failure,
	call: FailedCall,
	extra?: { message?: string; description?: string; record?: IDataObject; outcome?: MoneyOutcome },
): PayOnUsApiError {
	const { secrets } = call;
	const where = `${call.method} ${call.path}`;
	let message: string;
	let description: string | undefined;
	let status: number | undefined;
	let said: string | undefined;
	let body: unknown;
	if ((f.kind === 'http' || f.kind === 'auth') && (f.status !== undefined || f.stated)) {
		const s = summarizeHttpError(f.status, f.body, {
			method: call.method,
			path: call.path,
			moneyMoving: call.reference !== undefined,
			secrets,
			params: call.params,
		});
		message = s.message;
		description = s.description;
		status = f.status;
		said = s.said;
		body = s.body;
	} else if (f.kind === 'token') {
		message = redactText(f.message ?? 'Could not get a PayOnUs access token', secrets);
		if (f.description) description = redactText(f.description, secrets);
		status = f.status;
	} else if (f.kind === 'timeout') {
		message = `PayOnUs did not answer within ${Math.round(call.timeoutMs / 1000)} s`;
		description = 'The service may be slow or unreachable. Try again later.';
	} else if (f.kind === 'dropped') {
		message = `The connection to PayOnUs dropped (${networkReason(f.code)})`;
		description = 'Try again later.';
	} else if (f.kind === 'unreachable') {
		message = `Could not reach PayOnUs at ${call.baseUrl} (${networkReason(f.code)})`;
		description = "Check the credential's Environment / Base URL and this server's network access.";
	} else {
		message = `The call to PayOnUs failed: ${redactText(f.message ?? 'unknown error', secrets)}`;
	}
	// A caller's own description is specific; on a 409 it says everything the generic
	// hint would (said twice, "nothing was sent again" read as a contradiction).
	if (extra?.description) description = description && status !== 409 ? `${extra.description} ${description}` : extra.description;
	if (extra?.message) message = redactText(extra.message, secrets);
	return new PayOnUsApiError(node, {
		message,
		description,
		status,
		kind: f.kind,
		serviceMessage: said,
		serviceResponse: body,
		reference: call.reference,
		existingRecord: extra?.record ? (sanitizeBody(extra.record, secrets) as IDataObject) : undefined,
		outcome: extra?.outcome,
		request: where,
	});
}

/** An error before any call (e.g. a credential setting that cannot work). */
export function setupError(node: INode, message: string): PayOnUsApiError {
	return new PayOnUsApiError(node, { message });
}
