import type { IDataObject } from 'n8n-workflow';

/**
 * Service errors as the operations read them: the HTTP status of a
 * transport error, and a message rewritten with what a status means for
 * one call.
 */

/** HTTP status of a transport error (NodeApiError.httpCode or similar), whatever its shape. */
export function statusOf(error: unknown): number | undefined {
	if (!error || typeof error !== 'object') return undefined;
	const e = error as IDataObject & { context?: IDataObject; cause?: IDataObject };
	for (const candidate of [
		e.httpCode,
		e.status,
		e.statusCode,
		e.context?.status,
		e.context?.httpCode,
		e.cause?.httpCode,
		e.cause?.status,
	]) {
		const n = typeof candidate === 'string' || typeof candidate === 'number' ? Number(candidate) : NaN;
		if (Number.isInteger(n) && n >= 100 && n < 600) return n;
	}
	return undefined;
}

/**
 * Rewrites the message of a service error with what it means for this
 * call (the error keeps its type, status and description, so n8n still shows
 * the service's own words). Errors of other statuses pass unchanged.
 */
export function explain(error: unknown, meanings: Partial<Record<number, string>>): unknown {
	const status = statusOf(error);
	const meaning = status === undefined ? undefined : meanings[status];
	if (meaning && error instanceof Error) {
		error.message = `${meaning} (PayOnUs answered ${status})`;
	}
	return error;
}
