/**
 * Issue 38 point 4, TEST MODE on every method: the wait screens show the
 * payment's reference (onusReference) and a way to finish the test payment
 * ("Simulate the customer paying"): mobile money sends the prompt again to
 * a sandbox number that approves it by itself, EFT goes to the sandbox
 * bank's page, bank transfer calls the spec's simulate endpoint (views.test.ts).
 * Never in production. And the start form's notice when the price changed.
 */
import { renderView } from '../../../../nodes/PayOnUsPaymentPage/render/html';
import { mobileMoney, simulatedPrompt } from '../../../../nodes/PayOnUsPaymentPage/methods/momo';
import type { CheckoutEnv, Latest } from '../../../../nodes/PayOnUsPaymentPage/checkout/types';
import type { CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import type { View } from '../../../../nodes/PayOnUsPaymentPage/checkout';
import { checkoutSetup, methodStep, pageConfig } from '../fakes';

const simulateMomo = async (env: CheckoutEnv, s: CheckoutState, latest?: Latest) => await methodStep(mobileMoney, 'simulate')(env, s, {}, latest);

const state = { v: 1 as const, id: 'c'.repeat(24), iat: Date.UTC(2026, 0, 1, 12), exp: Date.UTC(2026, 0, 1, 12, 30), amt: 250, cur: 'KES', em: 'a@example.com', m: 'momo' as const };
const kes = pageConfig({ currency: 'KES', methods: ['momo'], networks: [{ code: 'MPESA_KE', name: 'M-Pesa Kenya' }, { code: 'AIRTEL_KE', name: 'Airtel', otpRequired: true }] });
const momoView: View = { kind: 'momoWait', state, sealed: '1.sealed', attempt: { n: 1, m: 'momo', r: 'ONUS-MMO-7', s: 'momoWait', ph: '+254722123456', net: 'MPESA_KE' } };

describe('TEST MODE on the wait screens', () => {
	it('mobile money: the reference and "Simulate the customer paying" (to the sandbox number that approves); nothing of it in production', () => {
		const html = renderView({ nonce: 'n', config: kes, testMode: true }, momoView);
		// wraps only after a hyphen, as the receipt's does
		expect(html).toContain('Payment reference: <b id="onus-reference"><span class="nowrap">ONUS</span>-<wbr><span class="nowrap">MMO</span>-<wbr><span class="nowrap">7</span></b>');
		const form = /<form[^>]*>(?:(?!<\/form>).)*id="simulate"(?:(?!<\/form>).)*<\/form>/s.exec(html)![0];
		expect(form).toContain('name="step" value="simulate"');
		expect(form).toContain('+234700000000');
		const live = renderView({ nonce: 'n', config: kes, testMode: false }, momoView);
		expect(live).not.toContain('onus-reference');
		expect(live).not.toContain('simulate');
	});

	it('EFT: the reference and the sandbox bank page as the simulate control; 3-D Secure: the reference', () => {
		const zar = pageConfig({ currency: 'ZAR', methods: ['eft'] });
		const eft: View = { kind: 'eft', state: { ...state, cur: 'ZAR', m: 'eft' }, sealed: '1.s', attempt: { n: 1, m: 'eft', r: 'ONUS-EFT-3', s: 'eft', u: 'https://bank.test/eft/3' } };
		const html = renderView({ nonce: 'n', config: zar, testMode: true }, eft);
		expect(html).toContain('<span class="nowrap">EFT</span>-<wbr><span class="nowrap">3</span></b>');
		expect(html).toContain('<a class="button secondary" id="simulate" href="https://bank.test/eft/3">Simulate the customer paying</a>');
		expect(renderView({ nonce: 'n', config: zar, testMode: false }, eft)).not.toContain('id="simulate"');
		const threeDs: View = { ...eft, kind: 'threeDs', attempt: { n: 1, m: 'card', r: 'ONUS-CARD-4', s: '3ds', u: 'https://bank.test/3ds/4' } };
		expect(renderView({ nonce: 'n', config: zar, testMode: true }, threeDs)).toContain('<span class="nowrap">CARD</span>-<wbr><span class="nowrap">4</span></b>');
	});

	it('bank transfer: the reference beside its simulate control', () => {
		const bank: View = { kind: 'bank', state: { ...state, cur: 'NGN', amt: 5000, m: 'bank' }, sealed: '1.s', attempt: { n: 1, m: 'bank', r: 'ONUS-NUB-9', s: 'bank', acct: { no: '1', bank: 'B', name: 'N' } }, record: { paymentStatus: 'PENDING' } };
		const html = renderView({ nonce: 'n', config: pageConfig(), testMode: true }, bank);
		expect(html).toContain('<span class="nowrap">NUB</span>-<wbr><span class="nowrap">9</span></b>');
		expect(html).toContain('id="simulate"');
	});
});

describe('simulatedPrompt: where a simulated mobile money payment is sent', () => {
	it.each([
		['MPESA_KE', 'KES', [{ code: 'MPESA_KE', name: 'M' }], { network: 'MPESA_KE', phone: '+234700000000' }],
		['MTN_GH', 'GHS', [{ code: 'MTN_GH', name: 'MTN' }], { network: 'MTN_GH', phone: '+233240000003' }],
		// an OTP network has no approving number: the page's network that has one
		['AIRTEL_KE', 'KES', [{ code: 'AIRTEL_KE', name: 'A', otpRequired: true }, { code: 'MPESA_KE', name: 'M' }], { network: 'MPESA_KE', phone: '+234700000000' }],
		// South Africa: any number approves, the buyer's own
		['MTN_ZA', 'ZAR', [{ code: 'MTN_ZA', name: 'MoMo' }], { network: 'MTN_ZA', phone: '+27821234567' }],
		['UNKNOWN', 'GHS', [{ code: 'OTHER', name: 'O' }], undefined],
	])('%s on a %s page', (net, currency, networks, expected) => {
		const env = { config: pageConfig({ currency, networks }) };
		expect(simulatedPrompt(env, { n: 1, m: 'momo', net, ph: '+27821234567' })).toEqual(expected);
	});
});

describe('simulateMomo, the step', () => {
	it('TEST MODE: a new prompt to the approving number (a new attempt); production: nothing sent', async () => {
		const { env, fake } = checkoutSetup({ currency: 'KES', methods: ['momo'], networks: [{ code: 'MPESA_KE', name: 'M-Pesa' }] });
		const latest = { attempt: { n: 1, m: 'momo' as const, r: 'X', s: 'momoWait', ph: '+254722123456', net: 'MPESA_KE' }, record: { paymentStatus: 'PROCESSING' } };
		const open = { ...state, a: [latest.attempt] };
		await simulateMomo(env, open, latest);
		expect(fake.payins.size).toBe(0);
		env.testMode = true;
		const wait = await simulateMomo(env, open, latest);
		expect(wait).toMatchObject({ kind: 'momoWait', attempt: { n: 2, ph: '+234700000000', net: 'MPESA_KE', amt: 250, cur: 'KES' } });
		expect([...fake.payins.values()]).toEqual([expect.objectContaining({ reference: `PP-${state.id}-2`, amount: 250 })]);
	});
});

describe('the start form', () => {
	it('the price changed: a plain notice (role status), not an error', () => {
		const html = renderView({ nonce: 'n', config: pageConfig() }, { kind: 'start', state: { v: 1, id: 'c'.repeat(24), iat: 0, exp: 1 }, sealed: '1.s', message: 'The price of this payment changed', notice: true });
		expect(html).toContain('<div class="notice" role="status" id="page-notice">The price of this payment changed</div>');
		expect(html).not.toContain('role="alert"');
	});

	it('carries its address for the history (a Back to it is this checkout, not a new one)', () => {
		const html = renderView({ nonce: 'n', config: pageConfig() }, { kind: 'start', state: { v: 1, id: 'c'.repeat(24), iat: 0, exp: 1 }, sealed: '1.s' });
		expect(html).toContain('data-resume="?c=1.s"');
		expect(html).toContain("history.replaceState(null,'',resume.getAttribute('data-resume'))");
	});
});
