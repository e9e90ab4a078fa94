/** Payment Page, the view a checkout shows once re-read (checkout/nextView.ts). */
import type { IDataObject } from 'n8n-workflow';
import { attemptView, nextView, notYet, paidView } from '../../../../nodes/PayOnUsPaymentPage/checkout/nextView';
import type { Attempt, CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup } from '../fakes';

const NOW = Date.UTC(2026, 0, 1, 12);
const base: CheckoutState = { v: 1, id: 'b'.repeat(24), iat: NOW, exp: NOW + 60_000 };
const filled: CheckoutState = { ...base, amt: 5000, cur: 'NGN', em: 'a@b.co' };
const bankAttempt: Attempt = { n: 1, m: 'bank', s: 'bank', r: 'ONUS-1' };
const pending: IDataObject = { paymentStatus: 'PENDING' };

describe('nextView', () => {
	it('expired: says so and emits Not Paid once, for a checkout the customer had filled in', () => {
		const { env, notPaid } = checkoutSetup();
		expect(nextView(env, { ...base, exp: NOW - 1 }, undefined).kind).toBe('expired');
		expect(notPaid).toHaveLength(0); // no e-mail given: not a checkout
		expect(nextView(env, { ...filled, exp: NOW - 1 }, undefined).kind).toBe('expired');
		expect(nextView(env, { ...filled, exp: NOW - 1 }, undefined).kind).toBe('expired');
		expect(notPaid).toEqual([expect.objectContaining({ outcome: 'expired', merchantCheckoutReference: `PP-${'b'.repeat(24)}` })]);
	});

	it('the start form until filled in; then the method form until an attempt', () => {
		const { env } = checkoutSetup();
		expect(nextView(env, base, undefined, 'msg', 400)).toMatchObject({ kind: 'start', message: 'msg', status: 400 });
		expect(nextView(env, filled, undefined).kind).toBe('details');
	});

	it("the open attempt's step; another method's form once the customer chose it", () => {
		const { env } = checkoutSetup();
		expect(nextView(env, filled, { attempt: bankAttempt, record: pending })).toMatchObject({ kind: 'bank', attempt: bankAttempt });
		expect(nextView(env, { ...filled, m: 'card' }, { attempt: bankAttempt, record: pending }).kind).toBe('details');
		expect(nextView(env, filled, { attempt: bankAttempt, record: { paymentStatus: 'REVERSED' } }).kind).toBe('processing');
	});

	it('a failed attempt: full sentences that do not blame the buyer, the try-again; after the most attempts, closed (issue 31 point 7)', () => {
		const { env } = checkoutSetup();
		const failed = { attempt: { n: 1, m: 'card' as const, r: 'ONUS-1' }, record: { paymentStatus: 'FAILED', providerResponse: 'Insufficient funds' } };
		expect(nextView(env, filled, failed)).toMatchObject({
			kind: 'details',
			message: 'The card payment was not approved. Reason given: Insufficient funds. No money was taken. You can try again, or choose another way to pay.',
			state: { m: 'card' },
		});
		const declined = { attempt: { n: 1, m: 'momo' as const, r: 'ONUS-2' }, record: { paymentStatus: 'FAILED', providerResponse: 'Declined by customer' } };
		const message = nextView(env, filled, declined).message!;
		expect(message).toBe('The payment request was not approved on the phone. No money was taken. You can try again, or choose another way to pay.');
		expect(message).not.toMatch(/customer/i);
		// Every sentence ends with a full stop.
		expect(message.split(/(?<=\.) /).every((sentence) => /^[A-Z].*\.$/.test(sentence))).toBe(true);
		expect(nextView(env, filled, { attempt: failed.attempt })).toMatchObject({
			kind: 'details',
			message: 'The card payment was not approved. No money was taken. You can try again, or choose another way to pay.',
		});
		const five = { ...filled, a: [1, 2, 3, 4, 5].map((n) => ({ n, m: 'card' as const })) };
		expect(nextView(env, five, failed)).toMatchObject({ kind: 'closed', message: 'The card payment was not approved. Reason given: Insufficient funds. No money was taken.' });
	});
});

describe('attemptView, paidView, notYet', () => {
	it("each attempt step has its view; an unknown one is 'processing'", () => {
		const { env } = checkoutSetup();
		const kinds = ['bank', 'pin', 'otp', '3ds', 'momoOtp', 'momoWait', 'eft', 'paid', undefined].map(
			(s) => attemptView(env, filled, { n: 1, m: 'card', s }, pending).kind,
		);
		expect(kinds).toEqual(['bank', 'pin', 'otp', 'threeDs', 'momoOtp', 'momoWait', 'eft', 'processing', 'processing']);
	});

	it("the receipt marks the paid attempt; with Redirect set, on to it with the checkout's reference", () => {
		const paid = { attempt: bankAttempt, record: { paymentStatus: 'SUCCESSFUL' } };
		const state = { ...filled, a: [bankAttempt] };
		expect(paidView(checkoutSetup().env, state, paid)).toMatchObject({ kind: 'paid', state: { a: [{ n: 1, s: 'paid' }] } });
		const away = paidView(checkoutSetup({ onSuccess: 'redirect', redirectUrl: 'https://shop.test/ok?x=1' }).env, state, paid);
		expect(away.redirect).toBe(`https://shop.test/ok?x=1&merchantCheckoutReference=PP-${'b'.repeat(24)}`);
	});

	it('"I have paid" while the payin waits: not received yet', () => {
		expect(notYet({ attempt: bankAttempt, record: pending })).toMatch(/^We have not received the payment yet/);
		expect(notYet({ attempt: bankAttempt, record: { paymentStatus: 'FAILED' } })).toBeUndefined();
		expect(notYet(undefined)).toBeUndefined();
	});
});
