/** Payment Page, step "answer" (request/answer.ts): which answer, and how it is written. */
import type { View } from '../../../../nodes/PayOnUsPaymentPage/checkout/types';
import { afterPost, noticeAnswer, notices, pollAnswer, send, viewAnswer, type PageResponse } from '../../../../nodes/PayOnUsPaymentPage/request/answer';
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

	it('every POST is answered with a redirect to a GET, errors included (Back never shows "Confirm Form Resubmission")', () => {
		expect(viewAnswer(view(), { post: true, step: 'start' }, false, o)).toEqual({ kind: 'seeOther', location: '?c=SEALED' });
		expect(viewAnswer(view({ message: 'not yet' }), { post: true, step: 'check' }, false, o)).toEqual({ kind: 'seeOther', location: '?c=SEALED' });
		// a refused form: its message travels sealed (checkout/flash.ts), the answer is still a redirect
		const refused = viewAnswer(view({ kind: 'details', status: 400, message: 'Bank: choose your bank' }), { post: true, step: 'eft' }, false, o);
		expect(refused).toEqual({ kind: 'seeOther', location: '?c=SEALED' });
	});

	it('the POST that saw the payment goes on to the receipt by a refresh that replaces it in the history', () => {
		const answer = viewAnswer(view({ kind: 'paid' }), { post: true, step: 'check' }, true, o);
		expect(answer).toMatchObject({ kind: 'paid', body: expect.stringContaining('<meta http-equiv="refresh" content="0;url=?c=SEALED">') });
	});

	it('a GET: the page itself, with its status', () => {
		expect(viewAnswer(view({ kind: 'details', status: 400, message: 'Bank: choose your bank' }), { post: false }, false, o)).toMatchObject({
			kind: 'page',
			status: 400,
			html: expect.stringContaining('Bank: choose your bank'),
		});
		expect(viewAnswer(view(), { post: false }, false, o)).toMatchObject({ kind: 'page', status: 200 });
	});
});

describe('afterPost: a POST answered outside a checkout is a redirect to the GET that shows it', () => {
	const sealed = { kind: 'step' as const, sealed: 'S.1', step: 'momo', form: {} };
	it.each([
		['unreachable', notices.unreachable(o), sealed, '?n=unreachable&c=S.1', 502],
		['unavailable', notices.notSetUp(o), sealed, '?n=unavailable&c=S.1', undefined],
		['expired', notices.expired(o), { kind: 'expired' as const }, '?n=expired', 400],
		['invalid', notices.invalidLink(o), sealed, '?n=invalid', 400],
	])('%s', (notice, answer, route, location, status) => {
		expect(afterPost(answer, route)).toEqual({ kind: 'seeOther', location });
		const shown = noticeAnswer(notice, o);
		if (status === undefined) expect(shown).toBeUndefined();
		else expect(shown).toMatchObject({ kind: 'page', status });
	});

	it('a bound refusal stays a 429 (Retry-After), a status stays a status', () => {
		const tooMany = { kind: 'tooMany' as const, retryAfter: 20, html: '<p>wait</p>' };
		expect(afterPost(tooMany, sealed)).toBe(tooMany);
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
