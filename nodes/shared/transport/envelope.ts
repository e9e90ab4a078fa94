import type { IDataObject } from 'n8n-workflow';
import type { Failure } from '../errors';
import { numberField } from '../accessToken/credential';

/** The service's answer `{ status, message, data }`: reading it. */

export function isEnvelope(body: unknown): body is IDataObject {
	return !!body && typeof body === 'object' && !Array.isArray(body) && 'data' in (body as IDataObject);
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

/** An error inside a 200 envelope: treated like that HTTP status. */
export function envelopeFailure(body: unknown): Failure | undefined {
	if (!isEnvelope(body)) return undefined;
	const status = numberField(body.status);
	if (status === undefined || status < 400) return undefined;
	return status === 401 ? { kind: 'auth', status, body } : { kind: 'http', status, body };
}
