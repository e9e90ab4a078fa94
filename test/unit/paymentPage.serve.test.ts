/**
 * Payment Page, one request through the whole pipeline (serve.ts via the
 * node's webhook()), with a fake n8n and a fake PayOnUs: the answers, the
 * items handed to n8n, static data, the log.
 */
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';
import { encryptedCard, FakePayOnUs, PEM } from './paymentPage.fakes';
import { deriveKey, open } from '../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { SIMPLIFIED_MAX_FIELDS } from '../../nodes/shared/triggerSimplify';

let fake = new FakePayOnUs();
jest.mock('../../nodes/shared/transport', () => ({ createClient: jest.fn(async () => fake) }));
const { PayOnUsPaymentPage } = require('../../nodes/PayOnUsPaymentPage/PayOnUsPaymentPage.node') as typeof import('../../nodes/PayOnUsPaymentPage/PayOnUsPaymentPage.node');

interface Page {
	params: IDataObject;
	mode: string;
	staticData: IDataObject;
	typeVersion: number;
	secret: string;
	nodeId: string;
}

let pages = 0;
function page(params: IDataObject = {}, over: Partial<Page> = {}): Page {
	return {
		params: { title: 'Ticket', businessId: 'BUS-1', amount: 5000, methods: ['bank', 'card'], cardPublicKey: PEM, ...params },
		mode: 'webhook',
		staticData: {},
		typeVersion: 1.1,
		secret: 'secret-1',
		nodeId: `node-${++pages}`,
		...over,
	};
}

interface Answer {
	status?: number;
	headers: IDataObject;
	body?: string;
	json?: unknown;
	location?: string;
	result: IWebhookResponseData;
	logs: string[];
	/** n8n finishing the answer with this status (a paid answer's release on 5xx). */
	finish(status: number): void;
}

async function request(p: Page, method: 'GET' | 'POST', query: IDataObject = {}, form: IDataObject = {}): Promise<Answer> {
	const answer = { headers: {}, logs: [] as string[] } as unknown as Answer;
	let onFinish: () => void = () => undefined;
	const res = {
		statusCode: 200,
		status(s: number) {
			this.statusCode = answer.status = s;
			return this;
		},
		set(h: IDataObject) {
			Object.assign(answer.headers, h);
			return this;
		},
		type() {
			return this;
		},
		send(b: string) {
			answer.body = b;
			return this;
		},
		json(j: unknown) {
			answer.json = j;
			return this;
		},
		location(l: string) {
			answer.location = l;
			return this;
		},
		end() {
			return this;
		},
		once(_e: string, fn: () => void) {
			onFinish = fn;
		},
	};
	answer.finish = (status) => {
		res.statusCode = status;
		onFinish();
	};
	const ctx = {
		getRequestObject: () => ({ method, protocol: 'http', headers: { host: 'n8n.test' }, baseUrl: '', path: '/webhook-test/pay' }),
		getResponseObject: () => res,
		getQueryData: () => query,
		getBodyData: () => form,
		getNodeParameter: (name: string, fallback: unknown) => (name in p.params ? p.params[name] : fallback),
		getNode: () => ({ id: p.nodeId, name: 'Pay', typeVersion: p.typeVersion, credentials: { payOnUsApi: { id: 'cred-1', name: 'c' } } }),
		getWorkflow: () => ({ id: 'wf-1' }),
		getCredentials: async () => ({ clientSecret: p.secret, environment: 'custom', baseUrl: 'http://localhost:9/' }),
		getMode: () => p.mode,
		getWorkflowStaticData: () => p.staticData,
		getNodeWebhookUrl: () => 'https://n8n.test/webhook/pay',
		helpers: { httpRequest: async () => ({}) },
		logger: {
			error: (m: string) => answer.logs.push(`error: ${m}`),
			warn: (m: string) => answer.logs.push(`warn: ${m}`),
		},
	};
	answer.result = await new PayOnUsPaymentPage().webhook.call(ctx as never);
	return answer;
}

const sealedIn = (html?: string) => /name="c" value="([^"]+)"/.exec(html ?? '')![1];
const sealedAt = (location?: string) => decodeURIComponent(/c=([^&]+)/.exec(location ?? '')![1]);

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
		expect(await request(page(), 'POST', {}, { step: 'start' })).toMatchObject({ status: 400, body: expect.stringContaining('This page has expired') });
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

describe('a checkout, request by request', () => {
	it('start: post/redirect/get onto the sealed state; the state opens only with the node\'s key', async () => {
		const p = page();
		const sealed = await bankCheckout(p);
		const state = open(sealed, deriveKey('secret-1', `wf-1|${p.nodeId}`));
		expect(state).toMatchObject({ amt: 5000, em: 'ada@example.com', a: [{ n: 1, m: 'bank', r: 'ONUS-X-1' }] });
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
		expect(p.staticData.emittedCheckouts).toEqual([[expect.stringMatching(/^PP-/), expect.any(Number), '2026-01-01 12:00:01']]);
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

	it('version 1 hands the full item; the test URL keeps nothing in static data', async () => {
		const p = page({}, { typeVersion: 1, mode: 'manual' });
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

	it("an input the card operation refuses is shown in the page's words, 400", async () => {
		const p = page({ currency: 'EUR', methods: ['card'] });
		const c = sealedIn((await request(p, 'GET')).body);
		const details = sealedAt((await request(p, 'POST', {}, { c, step: 'start', email: 'e@example.com' })).location);
		const a = await request(p, 'POST', {}, { c: details, step: 'card', cardData: encryptedCard() });
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
