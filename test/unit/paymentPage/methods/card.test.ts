/** Payment Page: the card step (methods/card.ts): card data only as RSA ciphertext. */
import { card as cardMethod, encryptedCardData } from '../../../../nodes/PayOnUsPaymentPage/methods/card';
import type { CheckoutEnv, Latest } from '../../../../nodes/PayOnUsPaymentPage/checkout/types';
import type { CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup, encryptedCard, methodStep } from '../fakes';

const card = methodStep(cardMethod, 'card');
const completeCard = async (env: CheckoutEnv, state: CheckoutState, kind: 'pin' | 'otp', form: Record<string, string>, latest?: Latest) =>
	await methodStep(cardMethod, kind)(env, state, form, latest);

const NOW = Date.UTC(2026, 0, 1, 12);
const id = 'c'.repeat(24);
const filled: CheckoutState = { v: 1, id, iat: NOW, exp: NOW + 30 * 60_000, amt: 5000, cur: 'NGN', em: 'ada@example.com', nm: 'Ada' };

describe('card', () => {
	it('forwards RSA ciphertext only', () => {
		const cipher = encryptedCard();
		expect(encryptedCardData(cipher, 256)).toBe(cipher);
		expect(() => encryptedCardData(Buffer.from('4111111111111111|12|30|123').toString('base64'), 256)).toThrow(
			/^Card: the card details were not encrypted by this page/,
		);
	});

	it('PIN: asked, then sent once; a wrong PIN is the payin read again', async () => {
		const { env, fake, emitted } = checkoutSetup();
		fake.cardAuth = 'PIN';
		const pin = await card(env, { ...filled, m: 'card' }, { cardData: encryptedCard() });
		expect(pin.kind).toBe('pin');
		const latest = { attempt: pin.attempt!, record: { paymentStatus: 'PENDING' } };
		await expect(completeCard(env, pin.state, 'pin', { authData: '12' }, latest)).rejects.toThrow('PIN: enter the 4 digits of your card PIN');
		expect((await completeCard(env, pin.state, 'pin', { authData: '0000' }, latest)).kind).toBe('pin');
		expect((await completeCard(env, pin.state, 'pin', { authData: '1234' }, latest)).kind).toBe('paid');
		expect(emitted).toHaveLength(1);
		// an OTP posted for a PIN step sends nothing
		const before = fake.calls.length;
		expect((await completeCard(env, pin.state, 'otp', { authData: '1234' }, latest)).kind).toBe('pin');
		expect(fake.calls.length).toBe(before);
	});

	it('3-D Secure: on to the bank, with a return address that resumes the checkout', async () => {
		const { env, fake } = checkoutSetup();
		fake.cardAuth = 'THREE_DS';
		const view = await card(env, { ...filled, m: 'card' }, { cardData: encryptedCard() });
		expect(view).toMatchObject({ kind: 'threeDs', redirect: 'https://bank.test/3ds/ONUS-CARD-1', attempt: { s: '3ds', u: 'https://bank.test/3ds/ONUS-CARD-1' } });
		const sent = fake.payins.get('ONUS-CARD-1')!;
		expect(sent.currency).toBe('NGN');
	});

	it('refuses when card is not offered', async () => {
		await expect(card(checkoutSetup({ methods: ['bank'] }).env, filled, {})).rejects.toThrow('Card payments are not offered on this page');
	});
});
