/**
 * Issue 31 point 7, the page on a phone, view by view (render/views.ts,
 * methods/bank.ts, methods/momo.ts) and through the pipeline: the mobile money wait screen
 * names the number and the network prompted, says how long a prompt lasts
 * and offers a resend (bounded by rule 4: the phone's bucket); the bank
 * transfer screen keeps the account name whole, counts down to the deadline
 * and names the seller; TEST MODE only, "Simulate the customer paying"
 * finishes a sandbox checkout through the node's Simulate Payment.
 */
import { FakePayOnUs } from '../fakes';
import { page, request, sealedAt, sealedIn } from '../requests';
import { renderView } from '../../../../nodes/PayOnUsPaymentPage/render/html';
import { pageConfig } from '../fakes';
import type { View } from '../../../../nodes/PayOnUsPaymentPage/checkout';

let fake = new FakePayOnUs();
jest.mock('../../../../nodes/shared/transport', () => ({ ...jest.requireActual('../../../../nodes/shared/transport'), createClient: jest.fn(async () => fake) }));
beforeEach(() => {
	fake = new FakePayOnUs();
});

const state = { v: 1 as const, id: 'c'.repeat(24), iat: Date.UTC(2026, 0, 1, 12), exp: Date.UTC(2026, 0, 1, 12, 30), amt: 250, cur: 'KES', em: 'a@example.com' };
const kes = pageConfig({ currency: 'KES', methods: ['momo'], networks: [{ code: 'MPESA_KE', name: 'M-Pesa Kenya' }] });

describe('mobile money wait', () => {
	const view: View = {
		kind: 'momoWait',
		state: { ...state, m: 'momo' },
		sealed: '1.sealed',
		attempt: { n: 1, m: 'momo', r: 'ONUS-1', s: 'momoWait', ph: '+254722123456', net: 'MPESA_KE' },
	};
	const html = renderView({ nonce: 'n', config: kes }, view);

	it('names the number and the network prompted, and how long a prompt lasts', () => {
		expect(html).toContain('<b id="momo-number" class="nowrap">+254722123456</b> (<span id="momo-network">M-Pesa Kenya</span>)');
		expect(html).toContain('A request stays on the phone for a short time only');
	});

	it('resends to the same number and network (a new attempt, which rule 4 bounds per phone)', () => {
		const resend = /<form[^>]*>(?:(?!<\/form>).)*id="resend"(?:(?!<\/form>).)*<\/form>/s.exec(html)![0];
		expect(resend).toContain('name="step" value="momo"');
		expect(resend).toContain('name="network" value="MPESA_KE"');
		expect(resend).toContain('name="phone" value="+254722123456"');
	});
});

describe('bank transfer', () => {
	const view: View = {
		kind: 'bank',
		state: { ...state, cur: 'NGN', amt: 5000, m: 'bank' },
		sealed: '1.sealed',
		attempt: { n: 1, m: 'bank', r: 'ONUS-1', s: 'bank', acct: { no: '0123456789', bank: 'Test Bank', name: 'Adaeze Okonkwo-Stores / Chukwuemeka' } },
		record: { paymentStatus: 'PENDING', businessName: 'Adaeze Stores' },
	};
	const at = Date.UTC(2026, 0, 1, 12, 5, 30);

	it('keeps the account name whole, counts down to the deadline and names the seller', () => {
		const html = renderView({ nonce: 'n', config: pageConfig(), now: at }, view);
		expect(html).toContain(
			'<dd class="words" id="account-name"><span class="nowrap">Adaeze</span> <span class="nowrap">Okonkwo-Stores</span> <span class="nowrap">/</span> <span class="nowrap">Chukwuemeka</span></dd>',
		);
		expect(html).toMatch(/dd\.words\{word-break:normal;overflow-wrap:break-word/);
		expect(html).toContain('Time left to pay: <b><span id="time-left" data-until="2026-01-01T12:30:00.000Z">24:30</span></b>');
		expect(html).toContain('to <b id="seller">Adaeze Stores</b>');
	});

	it('offers "Simulate the customer paying" only in TEST MODE', () => {
		expect(renderView({ nonce: 'n', config: pageConfig(), testMode: true, now: at }, view)).toContain('id="simulate"');
		expect(renderView({ nonce: 'n', config: pageConfig(), testMode: false, now: at }, view)).not.toContain('simulate');
	});
});

describe('simulate the customer paying, through the pipeline', () => {
	async function bankCheckout(p: ReturnType<typeof page>) {
		const c = sealedIn((await request(p, 'GET')).body);
		return sealedAt((await request(p, 'POST', {}, { c, step: 'start', email: 'ada@example.com', method: 'bank' })).location);
	}

	it('in the sandbox: the node calls the spec\'s simulate endpoint (never a /_sandbox/ path); the page then shows the receipt and starts the workflow', async () => {
		const p = page();
		const c = await bankCheckout(p);
		expect((await request(p, 'GET', { c })).body).toContain('Simulate the customer paying');
		const simulated = await request(p, 'POST', {}, { c, step: 'simulate' });
		expect(fake.calls).toContain('POST /api/v1/fund-ngn-account');
		expect(fake.calls.some((call) => call.includes('/_sandbox/'))).toBe(false);
		expect(simulated.result.workflowData?.[0]).toHaveLength(1);
		expect(String(simulated.result.webhookResponse)).toContain('Payment received');
	});

	it('in production: no control, and the step does nothing', async () => {
		const p = page({}, { environment: 'production' });
		const c = await bankCheckout(p);
		expect((await request(p, 'GET', { c })).body).not.toContain('simulate');
		await request(p, 'POST', {}, { c, step: 'simulate' });
		expect(fake.calls).not.toContain('POST /api/v1/fund-ngn-account');
	});
});
