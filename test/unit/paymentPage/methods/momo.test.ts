/** Payment Page: the mobile money step and its OTP (methods/momo.ts). */
import { mobileMoney } from '../../../../nodes/PayOnUsPaymentPage/methods/momo';
import type { CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup, methodStep } from '../fakes';

const momo = methodStep(mobileMoney, 'momo');
const momoOtp = methodStep(mobileMoney, 'momoOtp');

const NOW = Date.UTC(2026, 0, 1, 12);
const id = 'c'.repeat(24);
const filled: CheckoutState = { v: 1, id, iat: NOW, exp: NOW + 30 * 60_000, amt: 5000, cur: 'NGN', em: 'ada@example.com', nm: 'Ada' };

describe('mobile money', () => {
	const ghs = { currency: 'GHS', methods: ['momo' as const], networks: [{ code: 'MTN', name: 'MTN', otpRequired: true }, { code: 'VOD', name: 'Vodafone' }] };
	const gh: CheckoutState = { ...filled, cur: 'GHS', m: 'momo' };

	it('the network and an international number, then the OTP (a wrong one: try again, 400), then the prompt', async () => {
		const { env } = checkoutSetup(ghs);
		await expect(momo(env, gh, { network: 'XX' })).rejects.toThrow('Network: choose your mobile money network');
		await expect(momo(env, gh, { network: 'MTN', phone: '024123456' })).rejects.toThrow(
			'Mobile money number: enter a Ghanaian number as in the example below, or another country\'s with its + code',
		);
		const otp = await momo(env, gh, { network: 'MTN', phone: '+233 24 123 4567' });
		expect(otp).toMatchObject({ kind: 'momoOtp', attempt: { m: 'momo', s: 'momoOtp', ph: '+233241234567', net: 'MTN' } });
		const latest = { attempt: otp.attempt!, record: { paymentStatus: 'PENDING' } };
		expect(await momoOtp(env, otp.state, { authData: '0000' }, latest)).toMatchObject({
			kind: 'momoOtp',
			status: 400,
			message: 'That code was not accepted. Check it and try again.',
		});
		expect((await momoOtp(env, otp.state, { authData: '123456' }, latest)).kind).toBe('momoWait');
	});

	it('a local number (0241 234 567 on a GHS page) is taken in international format (issue 31 point 7)', async () => {
		const { env, fake } = checkoutSetup(ghs);
		const wait = await momo(env, gh, { network: 'VOD', phone: '024 123 4567' });
		expect(wait).toMatchObject({ kind: 'momoWait', attempt: { ph: '+233241234567', net: 'VOD' } });
		expect([...fake.payins.values()][0]).toBeDefined();
	});

	it('a network without OTP: straight to the prompt', async () => {
		const { env } = checkoutSetup(ghs);
		expect((await momo(env, gh, { network: 'VOD', phone: '+233241234567' })).kind).toBe('momoWait');
	});
});
