/** Payment Page: a payin created once; a 409 adopts the payin that holds the reference (checkout/adopt.ts). */
import { adoptedAttempt, createOnce } from '../../../../nodes/PayOnUsPaymentPage/checkout/adopt';
import { bankTransfer } from '../../../../nodes/PayOnUsPaymentPage/methods/bank';
import type { CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup, methodStep } from '../fakes';

const bank = methodStep(bankTransfer, 'start');

const NOW = Date.UTC(2026, 0, 1, 12);
const id = 'c'.repeat(24);
const filled: CheckoutState = { v: 1, id, iat: NOW, exp: NOW + 30 * 60_000, amt: 5000, cur: 'NGN', em: 'ada@example.com', nm: 'Ada' };

describe('created once (a 409 adopts the payin that holds the reference)', () => {
	it('a second tab sending the same attempt gets the same payin back, never a second one', async () => {
		const { env, fake } = checkoutSetup();
		const first = await bank(env, filled);
		// the second tab still holds the state without the attempt
		const second = await bank(env, filled);
		expect(second.attempt?.r).toBe(first.attempt?.r);
		expect(fake.payins.size).toBe(1);
		expect(fake.calls.filter((c) => c.startsWith('POST'))).toHaveLength(2);
	});

	it('any other failure passes up', async () => {
		const { env } = checkoutSetup();
		const boom = new Error('boom');
		await expect(createOnce(env, filled, { n: 1, m: 'bank' }, async () => await Promise.reject(boom))).rejects.toBe(boom);
	});

	it("the adopted attempt takes its step from the payin's channel", () => {
		expect(adoptedAttempt(1, 'card', { onusReference: 'O', authTypeRequired: 'OTP' })).toEqual({ n: 1, m: 'card', r: 'O', s: 'otp' });
		expect(adoptedAttempt(2, 'momo', { onusReference: 'O' })).toEqual({ n: 2, m: 'momo', r: 'O', s: 'momoWait' });
		expect(adoptedAttempt(3, 'eft', { onusReference: 'O' })).toEqual({ n: 3, m: 'eft', r: 'O', s: 'eft' });
	});
});
