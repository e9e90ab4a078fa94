import type { IDataObject } from 'n8n-workflow';

/**
 * What one request of the page asks for (pure). GET without a sealed state
 * renders a fresh checkout, a POST without one has expired; with one
 * (`c`, the POSTed form's field first, else the address's): GET
 * `?poll=1` is the page's own status poll, any other GET shows the checkout,
 * a POST runs the step its form names.
 */
export type Route =
	| { kind: 'start' }
	| { kind: 'expired' }
	/** The GET a POST outside a checkout was redirected to (`?n=`, request/answer.ts afterPost). */
	| { kind: 'notice'; notice: string }
	| { kind: 'poll'; sealed: string }
	| { kind: 'show'; sealed: string; notice?: string }
	| { kind: 'step'; sealed: string; step: string; form: Record<string, string> };

export interface PageRequest {
	method: string;
	query: IDataObject;
	/** The POSTed form (./http.ts formOf); {} for a GET. */
	form: Record<string, string>;
}

export function routeOf({ method, query, form }: PageRequest): Route {
	const post = method === 'POST';
	if (!post && typeof query.n === 'string' && ['expired', 'invalid', 'unreachable'].includes(query.n)) return { kind: 'notice', notice: query.n };
	const sealed = (post ? form.c : undefined) ?? (typeof query.c === 'string' ? query.c : undefined);
	if (sealed === undefined || sealed === '') return post ? { kind: 'expired' } : { kind: 'start' };
	if (post) return { kind: 'step', sealed, step: String(form.step ?? ''), form };
	if (query.poll !== undefined) return { kind: 'poll', sealed };
	return { kind: 'show', sealed, notice: typeof query.notice === 'string' ? query.notice : undefined };
}
