import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';
import type { PollAnswer, View } from '../checkout/types';
import type { BoundKind, DoorClosed } from './bounds';
import type { Route } from './route';
import { renderContinue, renderForward, renderMessage, renderView, renderWait, type RenderOptions } from '../render/html';
import { NO_STORE, securityHeaders } from './http';
import type { PageOutputs } from './outputs';

/**
 * How the page answers (the node answers every request itself,
 * `noWebhookResponse`): which answer (pure), then writing it.
 */
export type Answer =
	| { kind: 'page'; status: number; html: string }
	/** 303: post/redirect/get, or on to a bank's page or the page's Redirect URL. */
	| { kind: 'seeOther'; location: string }
	/** The page's own status poll. */
	| { kind: 'status'; body: PollAnswer }
	/** The request that saw the payment: answered by n8n once it stored the execution (`send`). */
	| { kind: 'paid'; body: string | IDataObject }
	/** A call over a bound (./bounds.ts): 429, Retry-After, a page or (the page's poll) its status. */
	| { kind: 'tooMany'; retryAfter: number; html?: string; status?: PollAnswer };

/**
 * A POST or GET that ran on a checkout: its view, as an answer. `paidNow`: this request emitted the Paid item.
 * Every POST is answered with a redirect to a GET (post/redirect/get, errors
 * included: what the step has to say is sealed in the view's state,
 * checkout/flash.ts), so Back and reload never re-send a form. The POST
 * that saw the payment is answered by n8n itself (`send`): its body goes on
 * to the receipt's GET at once (a refresh, which replaces the POST in the
 * history; n8n's sandbox CSP allows no script there).
 */
export function viewAnswer(view: View, request: { post: boolean; step?: string }, paidNow: boolean, o: RenderOptions): Answer {
	if (paidNow) {
		if (view.kind === 'paid' && view.redirect) return { kind: 'paid', body: renderContinue(o, view.redirect) };
		return { kind: 'paid', body: request.post ? renderForward(o, `?c=${view.sealed}`) : renderView(o, view) };
	}
	if (view.redirect) return { kind: 'seeOther', location: view.redirect };
	if (request.post) return { kind: 'seeOther', location: `?c=${view.sealed}` };
	return { kind: 'page', status: view.status ?? 200, html: renderView(o, view) };
}

/**
 * A POST answered outside a checkout (its link is not valid, the page has
 * expired or is not set up, the service is out of reach): a redirect to the
 * GET that shows it (`n`, request/route.ts), so Back never re-sends it. A
 * bound's refusal stays a 429 (Retry-After; its page links back to the
 * checkout as it was), the answer scripts and the drills count.
 */
export function afterPost(answer: Answer, route: Route | undefined): Answer {
	if (answer.kind !== 'page') return answer;
	const sealed = route && 'sealed' in route ? `&c=${encodeURIComponent(route.sealed)}` : '';
	const notice = answer.status === 502 ? 'unreachable' : answer.status === 503 ? 'unavailable' : route?.kind === 'expired' ? 'expired' : 'invalid';
	return { kind: 'seeOther', location: `?n=${notice}${notice === 'unreachable' || notice === 'unavailable' ? sealed : ''}` };
}

/** The GET a POST outside a checkout was redirected to (`afterPost`); `unavailable` is the page as it stands (set up again on every request). */
export function noticeAnswer(notice: string, o: RenderOptions): Answer | undefined {
	if (notice === 'unreachable') return notices.unreachable(o);
	if (notice === 'expired') return notices.expired(o);
	if (notice === 'invalid') return notices.invalidLink(o);
	return undefined;
}

export function pollAnswer(answer: PollAnswer, paidNow: boolean): Answer {
	return paidNow ? { kind: 'paid', body: answer as unknown as IDataObject } : { kind: 'status', body: answer };
}

/** The pages outside a checkout: no sealed state, a bad one, a page not set up, the service out of reach. */
export const notices = {
	expired: (o: RenderOptions): Answer => page(400, renderMessage(o, 'This page has expired', 'Please start again.')),
	invalidLink: (o: RenderOptions): Answer =>
		page(
			400,
			renderMessage(
				o,
				'This payment link is not valid',
				'It may be incomplete, or from another page. Nothing was charged by opening it.',
			),
		),
	notSetUp: (o: RenderOptions): Answer =>
		page(
			503,
			renderMessage(
				o,
				'Payments are not available',
				'This page is not set up to take payments right now. Please try again later.',
				false,
			),
		),
	unreachable: (o: RenderOptions): Answer =>
		page(
			502,
			renderMessage(
				o,
				'We could not reach the payment service',
				'Nothing was charged twice. Go back and reload the page in a moment to see where your payment stands.',
				false,
			),
		),
	/**
	 * A call over a bound: nothing was sent for it. The buyer learns which
	 * bound, when to try again, and goes back to the checkout as it was.
	 */
	tooMany: (o: RenderOptions, closed: DoorClosed, route: Route | undefined, now: number): Answer => {
		const retryAfter = closed.retryAfterSeconds;
		if (route?.kind === 'poll') return { kind: 'tooMany', retryAfter, status: { state: 'pending', retryAfter } };
		const back = route && 'sealed' in route ? `?c=${encodeURIComponent(route.sealed)}` : '?';
		const [title, why] = TOO_MANY[closed.kind];
		return { kind: 'tooMany', retryAfter, html: renderWait(o, title, why, retryAfter, now + retryAfter * 1000, back) };
	},
	/** The request saw the payment, then failed: the receipt is one reload away. */
	received: (o: RenderOptions): Answer => ({
		kind: 'paid',
		body: renderMessage(o, 'Payment received', 'Your payment was received. Reload this page for the receipt.', false),
	}),
};

/** What the buyer is told for each bound (title, why). */
const TOO_MANY: Record<BoundKind, [string, string]> = {
	visitor: [
		'Please wait a moment',
		'This page starts only a few payments a minute from one connection, to protect buyers from scripted payment requests.',
	],
	target: [
		'Please wait a moment',
		'This page sends only a few payment requests a minute to one phone number or email address. If a request already reached your phone, you can approve it now.',
	],
	page: ['This page is busy', 'Many payments are being started on this page right now.'],
};

function page(status: number, html: string): Answer {
	return { kind: 'page', status, html };
}

/** The parts of n8n's (Express) response the page writes. */
export interface PageResponse {
	statusCode: number;
	status(code: number): PageResponse;
	set(headers: Record<string, string>): PageResponse;
	type(type: string): PageResponse;
	send(body: string): PageResponse;
	json(body: unknown): PageResponse;
	location(url: string): PageResponse;
	end(): PageResponse;
	once(event: 'finish', listener: () => void): unknown;
}

/**
 * Writes an answer, with the request's CSP nonce, and hands n8n this
 * request's items. A paid answer is sent by n8n only after it created the
 * execution (responseMode onReceived, no noWebhookResponse); if n8n cannot
 * create it, the customer gets n8n's 5xx and `release` gives the claims
 * back, so the next request (the page polls) starts it again: a paid
 * checkout is never silently dropped. n8n wraps an HTML answer in its
 * sandbox CSP; the receipt needs no script.
 */
export function send(res: PageResponse, nonce: string, answer: Answer, outputs: PageOutputs, release: () => void): IWebhookResponseData {
	switch (answer.kind) {
		case 'paid':
			res.set({ 'Cache-Control': NO_STORE, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
			if (typeof answer.body === 'string') res.type('html');
			res.once('finish', () => {
				if (res.statusCode >= 500) release();
			});
			return { workflowData: outputs.workflowData(), webhookResponse: answer.body };
		case 'page':
			res.status(answer.status).set(securityHeaders(nonce)).type('html').send(answer.html);
			break;
		case 'seeOther':
			res.status(303).set(securityHeaders(nonce)).location(answer.location).end();
			break;
		case 'tooMany':
			res.status(429).set({ ...securityHeaders(nonce), 'Retry-After': String(answer.retryAfter) });
			if (answer.html !== undefined) res.type('html').send(answer.html);
			else res.json(answer.status);
			break;
		case 'status':
			res.status(200).set({ 'Cache-Control': NO_STORE, 'X-Content-Type-Options': 'nosniff' }).json(answer.body);
			break;
	}
	return outputs.any ? { noWebhookResponse: true, workflowData: outputs.workflowData() } : { noWebhookResponse: true };
}
