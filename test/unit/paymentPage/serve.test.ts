/**
 * Payment Page, one request through the whole pipeline (serve.ts via the
 * node's webhook()), with a fake n8n and a fake PayOnUs: the answers, the
 * items handed to n8n, static data, the log.
 */
import { encryptedCard, FakePayOnUs } from './fakes';
import { page, request, sealedAt, sealedIn, type Page } from './requests';
import { deriveKey, open } from '../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { SIMPLIFIED_MAX_FIELDS } from '../../../nodes/shared/triggerSimplify';
import { clock } from '../../../nodes/PayOnUsPaymentPage/clock';
import { REUSE_MS } from '../../../nodes/shared/webhookCredential';

let fake = new FakePayOnUs();
// `reusable`: a read can stand in for a fresh one for the client (as with a stored, live token)
jest.mock('../../../nodes/shared/transport', () => ({ createClient: jest.fn(async () => fake), reusable: () => true }));

/** A bank transfer checkout started on `p`: its sealed state. */
async function bankCheckout(p: Page, email = 'ada@example.com'): Promise<string> {
	const c = sealedIn((await request(p, 'GET')).body);
	return sealedAt((await request(p, 'POST', {}, { c, step: 'start', email, method: 'bank' })).location);
}

beforeEach(() => {
	fake = new FakePayOnUs();
});

describe('the page outside a checkout', () => {
	it('GET: a fresh checkout, self-contained, with its own CSP nonce; nothing for n8n', async () => {
		const a = await request(page(), 'GET');
		expect(a.status).toBe(200);
		const nonce = /script-src 'nonce-([^']+)'/.exec(String(a.headers['Content-Security-Policy']))![1];
		expect(a.body).toContain(`<script nonce="${nonce}">`);
		expect(a.body).toContain('<h1>Ticket</h1>');
		expect(a.result).toEqual({ noWebhookResponse: true });
		expect(fake.calls).toEqual([]);
	});

	it('a POST without a checkout has expired; a link that does not open is not valid', async () => {
		// Every POST is answered with a redirect (Back never re-sends it): the GET shows it.
		const post = await request(page(), 'POST', {}, { step: 'start' });
		expect(post).toMatchObject({ status: 303, location: '?n=expired' });
		expect(await request(page(), 'GET', { n: 'expired' })).toMatchObject({ status: 400, body: expect.stringContaining('This page has expired') });
		expect(await request(page(), 'GET', { c: `1.${'x'.repeat(60)}` })).toMatchObject({
			status: 400,
			body: expect.stringContaining('This payment link is not valid'),
		});
	});

	it('a page that cannot take payments: 503, and the log says why', async () => {
		const a = await request(page({ businessId: '' }), 'GET');
		expect(a.status).toBe(503);
		expect(a.body).toContain('Payments are not available');
		expect(a.logs).toEqual([`error: PayOnUs Payment Page "Pay" is not usable: No business: set Business or the credential's Default Business ID`]);
		expect((await request(page({}, { secret: '' }), 'GET')).logs).toEqual([
			'error: PayOnUs Payment Page "Pay" is not usable: The PayOnUs credential has no Client Secret',
		]);
	});
});

describe("card: the key is the node's setting, as a deployment supplies it", () => {
	it('a local sandbox credential and no key: card not offered, nothing asked of the sandbox, the log names the setting', async () => {
		const a = await request(page({ cardPublicKey: '' }), 'GET');
		expect(a.status).toBe(200);
		expect(a.body).toContain('value="bank"');
		expect(a.body).not.toContain('value="card"');
		expect(a.outbound).toEqual([]);
		expect(a.logs).toEqual([expect.stringMatching(/^warn: PayOnUs Payment Page "Pay" does not offer card: it needs the Card Encryption Public Key set to/)]);
	});

	it('card alone and no key: 503, and the setup error says what to set', async () => {
		const a = await request(page({ methods: ['card'], cardPublicKey: '' }), 'GET');
		expect(a.status).toBe(503);
		expect(a.outbound).toEqual([]);
		expect(a.logs).toContainEqual(expect.stringMatching(/^error: PayOnUs Payment Page "Pay" is not usable: .*card needs the Card Encryption Public Key set to the environment's RSA public key/));
	});

	it('with the key: card offered', async () => {
		const a = await request(page(), 'GET');
		expect(a.body).toContain('value="card"');
		expect(a.logs).toEqual([]);
	});
});

describe('the credential: one read per request, handed to every step', () => {
	const realNow = clock.now;
	afterEach(() => {
		clock.now = realNow;
	});

	it('a request reads it at most once and makes the client over its read; a read younger than REUSE_MS is taken instead', async () => {
		const { createClient } = jest.requireMock('../../../nodes/shared/transport') as { createClient: jest.Mock };
		createClient.mockClear();
		let now = Date.now();
		clock.now = () => now;
		const p = page();
		const get = await request(p, 'GET');
		expect(get.credentialReads).toBe(1);
		expect((await request(p, 'GET')).credentialReads).toBe(0);
		const start = await request(p, 'POST', {}, { c: sealedIn(get.body), step: 'start', email: 'ada@example.com', method: 'bank' });
		expect(start.credentialReads).toBe(0);
		expect(createClient).toHaveBeenCalledTimes(1);
		expect(createClient.mock.calls[0][1]).toEqual({ credential: expect.objectContaining({ clientSecret: 'secret-1' }) });
		now += REUSE_MS;
		expect((await request(p, 'GET', { c: sealedAt(start.location) })).credentialReads).toBe(1);
	});

	it('a changed Client Secret takes effect REUSE_MS after the last read at the latest', async () => {
		let now = Date.now();
		clock.now = () => now;
		const p = page();
		const c = sealedIn((await request(p, 'GET')).body);
		const sealed = sealedAt((await request(p, 'POST', {}, { c, step: 'start', email: 'ada@example.com', method: 'bank' })).location);
		p.secret = 'secret-2';
		now += REUSE_MS;
		expect(await request(p, 'GET', { c: sealed })).toMatchObject({ status: 400, body: expect.stringContaining('This payment link is not valid') });
	});
});

describe('a checkout, request by request', () => {
	it('start: post/redirect/get onto the sealed state; the state opens only with the node\'s key', async () => {
		const p = page();
		const sealed = await bankCheckout(p);
		const state = open(sealed, deriveKey('secret-1', `wf-1|${p.nodeId}`));
		expect(state).toMatchObject({ amt: 5000, em: 'ada@example.com', a: [{ n: 1, m: 'bank', r: 'ONUS-NUB-1' }] });
		expect(open(sealed, deriveKey('secret-1', 'wf-1|other'))).toBeUndefined();
	});

	it('paid: the request that sees it hands n8n one Paid item (simplified), kept in static data; later requests none', async () => {
		const p = page();
		const c = await bankCheckout(p);
		expect((await request(p, 'GET', { c, poll: '1' })).json).toEqual({ state: 'pending' });
		fake.pay(1);
		const paid = await request(p, 'GET', { c, poll: '1' });
		expect(paid.result.webhookResponse).toEqual({ state: 'paid' });
		expect(paid.result.workflowData).toEqual([[{ json: expect.objectContaining({ merchantCheckoutReference: expect.stringMatching(/^PP-/), customerEmail: 'ada@example.com' }) }]]);
		expect(Object.keys(paid.result.workflowData![0][0].json).length).toBeLessThanOrEqual(SIMPLIFIED_MAX_FIELDS);
		expect(p.staticData.emittedChanges).toEqual([[expect.stringMatching(/^PP-/), expect.any(Number), '2026-01-01 12:00:01']]);
		const again = await request(p, 'GET', { c });
		expect(again).toMatchObject({ status: 200, body: expect.stringContaining('Payment received') });
		expect(again.result).toEqual({ noWebhookResponse: true });
	});

	it('when n8n could not store the run (5xx), the next request starts it', async () => {
		const p = page();
		const c = await bankCheckout(p);
		fake.pay(1);
		const stored = structuredClone(p.staticData);
		const failed = await request(p, 'GET', { c });
		expect(failed.result.workflowData?.[0]).toHaveLength(1);
		failed.finish(500);
		// n8n stored neither the run nor the static data of that request
		p.staticData = stored;
		const retried = await request(p, 'GET', { c });
		expect(retried.result.workflowData?.[0]).toHaveLength(1);
		retried.finish(200);
		expect((await request(p, 'GET', { c })).result.workflowData).toBeUndefined();
	});

	it('Simplify off hands the full item; the test URL keeps nothing in static data', async () => {
		const p = page({ simplify: false }, { mode: 'manual' });
		const c = await bankCheckout(p);
		fake.pay(1);
		const paid = await request(p, 'GET', { c });
		expect(paid.result.workflowData![0][0].json).toMatchObject({ confirmedWith: 'Get Payment', checkoutAttempt: 1, accountNumber: '0123456789' });
		expect(p.staticData).toEqual({});
	});

	it('the service out of reach: 502, nothing charged twice, the log says what failed', async () => {
		const p = page();
		const c = await bankCheckout(p);
		fake.failGets = 1;
		const a = await request(p, 'GET', { c });
		expect(a.status).toBe(502);
		expect(a.body).toContain('We could not reach the payment service');
		expect(a.logs).toEqual(['warn: PayOnUs Payment Page "Pay": PayOnUs failed to process the payment (server error 500)']);
	});

	it('a POST the page cannot serve is a redirect too: the service out of reach (502 on the GET, its checkout kept), a page not set up', async () => {
		const p = page();
		const c = await bankCheckout(p);
		fake.failGets = 1;
		const post = await request(p, 'POST', {}, { c, step: 'check' });
		expect(post).toMatchObject({ status: 303, location: `?n=unreachable&c=${encodeURIComponent(c)}` });
		const shown = await request(p, 'GET', { n: 'unreachable', c });
		expect(shown.status).toBe(502);
		expect(shown.body).toContain('We could not reach the payment service');
		// set up again: the checkout as it stands
		expect((await request(p, 'GET', { n: 'unavailable', c })).body).toContain('id="account-number"');
		const broken = await request(page({ businessId: '' }), 'POST', {}, { c, step: 'check' });
		expect(broken).toMatchObject({ status: 303, location: `?n=unavailable&c=${encodeURIComponent(c)}` });
	});

	it("an input the card operation refuses is shown in the page's words, 400", async () => {
		const p = page({ currency: 'EUR', methods: ['card'] });
		const c = sealedIn((await request(p, 'GET')).body);
		const details = sealedAt((await request(p, 'POST', {}, { c, step: 'start', email: 'e@example.com' })).location);
		const post = await request(p, 'POST', {}, { c: details, step: 'card', cardData: encryptedCard() });
		expect(post.status).toBe(303);
		const a = await request(p, 'GET', { c: sealedAt(post.location) });
		expect(a.status).toBe(400);
		expect(a.body).toContain('currency: must be one of the currencies PayOnUs documents: NGN, KES, ZAR, USD, GHS');
		expect(fake.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
	});

	it('Not Paid (the option): an expired checkout the customer had filled in, once', async () => {
		const p = page({ options: { notPaidOutput: true, expiryMinutes: 1 } });
		const c = await bankCheckout(p);
		const realNow = Date.now.bind(Date);
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 5 * 60_000);
		try {
			const expired = await request(p, 'GET', { c, poll: '1' });
			expect(expired.json).toEqual({ state: 'expired' });
			expect(expired.result.workflowData).toEqual([[], [{ json: expect.objectContaining({ outcome: 'expired' }) }]]);
			expect((await request(p, 'GET', { c })).result.workflowData).toBeUndefined();
		} finally {
			clock.mockRestore();
		}
	});
});
