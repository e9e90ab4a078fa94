/** Payment Page, step "answer" (request/answer.ts): which answer, and how it is written. */
import type { View } from '../../../../nodes/PayOnUsPaymentPage/checkout/types';
import { notices, pollAnswer, send, viewAnswer, type PageResponse } from '../../../../nodes/PayOnUsPaymentPage/request/answer';
import { PageOutputs } from '../../../../nodes/PayOnUsPaymentPage/request/outputs';
import type { RenderOptions } from '../../../../nodes/PayOnUsPaymentPage/render/html';
import { pageConfig } from '../fakes';

const o: RenderOptions = { nonce: 'N0NCE', config: pageConfig() };
const state = { v: 1 as const, id: 'a'.repeat(24), iat: 0, exp: 1, amt: 5000, cur: 'NGN' };
const view = (over: Partial<View> = {}): View => ({ kind: 'bank', state, sealed: 'SEALED', ...over });

describe('viewAnswer', () => {
	it('the request that saw the payment: a paid answer (the receipt, or on to the Redirect URL)', () => {
		const receipt = viewAnswer(view({ kind: 'paid' }), { post: false }, true, o);
		expect(receipt).toMatchObject({ kind: 'paid', body: expect.stringContaining('<title>Paid: Ticket</title>') });
		const onwards = viewAnswer(view({ kind: 'paid', redirect: 'https://shop.test/x?y=1' }), { post: true, step: 'pin' }, true, o);
		expect(onwards).toMatchObject({ kind: 'paid', body: expect.stringContaining('http-equiv="refresh" content="2;url=https://shop.test/x?y=1"') });
	});

	it('a view with an address (a bank page, the Redirect URL): 303 there', () => {
		expect(viewAnswer(view({ kind: 'paid', redirect: 'https://shop.test/x' }), { post: false }, false, o)).toEqual({
			kind: 'seeOther',
			location: 'https://shop.test/x',
		});
	});

	it('a POST that went through: post/redirect/get (after "I have paid" with its notice)', () => {
		expect(viewAnswer(view(), { post: true, step: 'start' }, false, o)).toEqual({ kind: 'seeOther', location: '?c=SEALED' });
		expect(viewAnswer(view({ message: 'not yet' }), { post: true, step: 'check' }, false, o)).toEqual({
			kind: 'seeOther',
			location: '?c=SEALED&notice=check',
		});
		expect(viewAnswer(view(), { post: true, step: 'check' }, false, o)).toEqual({ kind: 'seeOther', location: '?c=SEALED' });
	});

	it('a refused POST, or a GET: the page itself, with its status', () => {
		const refused = viewAnswer(view({ kind: 'details', status: 400, message: 'Bank: choose your bank' }), { post: true, step: 'eft' }, false, o);
		expect(refused).toMatchObject({ kind: 'page', status: 400, html: expect.stringContaining('Bank: choose your bank') });
		expect(viewAnswer(view(), { post: false }, false, o)).toMatchObject({ kind: 'page', status: 200 });
	});
});

describe('pollAnswer and the notices', () => {
	it('the poll that saw the payment is a paid answer; any other is the status', () => {
		expect(pollAnswer({ state: 'paid' }, true)).toEqual({ kind: 'paid', body: { state: 'paid' } });
		expect(pollAnswer({ state: 'pending' }, false)).toEqual({ kind: 'status', body: { state: 'pending' } });
	});

	it.each([
		['expired', 400, 'This page has expired'],
		['invalidLink', 400, 'This payment link is not valid'],
		['notSetUp', 503, 'Payments are not available'],
		['unreachable', 502, 'We could not reach the payment service'],
	] as const)('%s: %d "%s"', (name, status, title) => {
		expect(notices[name](o)).toMatchObject({ kind: 'page', status, html: expect.stringContaining(`<h2 id="msg-h">${title}</h2>`) });
	});
});

function response() {
	const calls: unknown[][] = [];
	let finish: (() => void) | undefined;
	const res: PageResponse = {
		statusCode: 200,
		status(code) {
			calls.push(['status', code]);
			this.statusCode = code;
			return this;
		},
		set: (h) => (calls.push(['set', h]), res),
		type: (t) => (calls.push(['type', t]), res),
		send: (b) => (calls.push(['send', b.length > 0]), res),
		json: (b) => (calls.push(['json', b]), res),
		location: (l) => (calls.push(['location', l]), res),
		end: () => (calls.push(['end']), res),
		once: (_e, fn) => (finish = fn),
	};
	return { res, calls, finish: (status: number) => ((res.statusCode = status), finish?.()) };
}

describe('send', () => {
	it('writes a page with its CSP nonce; items go along only when there are some', () => {
		const { res, calls } = response();
		const result = send(res, 'N0NCE', { kind: 'page', status: 400, html: '<p>x</p>' }, new PageOutputs(), () => undefined);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(calls[0]).toEqual(['status', 400]);
		expect((calls[1][1] as Record<string, string>)['Content-Security-Policy']).toContain("script-src 'nonce-N0NCE'");
		expect(calls.slice(2)).toEqual([['type', 'html'], ['send', true]]);
		const outputs = new PageOutputs();
		outputs.notPaid.push({ outcome: 'expired' });
		expect(send(response().res, 'N', { kind: 'seeOther', location: '?c=S' }, outputs, () => undefined)).toEqual({
			noWebhookResponse: true,
			workflowData: [[], [{ json: { outcome: 'expired' } }]],
		});
	});

	it('the status poll: JSON, not stored', () => {
		const { res, calls } = response();
		send(res, 'N', { kind: 'status', body: { state: 'open' } }, new PageOutputs(), () => undefined);
		expect(calls).toEqual([
			['status', 200],
			['set', { 'Cache-Control': 'no-store, max-age=0', 'X-Content-Type-Options': 'nosniff' }],
			['json', { state: 'open' }],
		]);
	});

	it('a paid answer is left to n8n with the items, and gives the claims back if n8n answers 5xx', () => {
		const outputs = new PageOutputs();
		outputs.paid = { merchantCheckoutReference: 'PP-1' };
		const release = jest.fn();
		const { res, calls, finish } = response();
		const result = send(res, 'N', { kind: 'paid', body: '<html>' }, outputs, release);
		expect(result).toEqual({ workflowData: [[{ json: { merchantCheckoutReference: 'PP-1' } }]], webhookResponse: '<html>' });
		expect(calls).toEqual([
			['set', { 'Cache-Control': 'no-store, max-age=0', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' }],
			['type', 'html'],
		]);
		finish(200);
		expect(release).not.toHaveBeenCalled();
		finish(500);
		expect(release).toHaveBeenCalledTimes(1);
	});
});
