/** Payment Page, the step of each method (checkout/start.ts, bank.ts, card.ts, momo.ts, eft.ts, adopt.ts). */
import { adoptedAttempt, createOnce } from '../../../nodes/PayOnUsPaymentPage/checkout/adopt';
import { bank } from '../../../nodes/PayOnUsPaymentPage/checkout/bank';
import { card, completeCard, encryptedCardData } from '../../../nodes/PayOnUsPaymentPage/checkout/card';
import { eft } from '../../../nodes/PayOnUsPaymentPage/checkout/eft';
import { momo, momoOtp } from '../../../nodes/PayOnUsPaymentPage/checkout/momo';
import { open, type CheckoutState } from '../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { chooseMethod, start } from '../../../nodes/PayOnUsPaymentPage/checkout/start';
import { checkoutSetup, encryptedCard, KEY } from './fakes';

const NOW = Date.UTC(2026, 0, 1, 12);
const id = 'c'.repeat(24);
const filled: CheckoutState = { v: 1, id, iat: NOW, exp: NOW + 30 * 60_000, amt: 5000, cur: 'NGN', em: 'ada@example.com', nm: 'Ada' };

describe('start and the method', () => {
	it('the start form read, then the only method (or the one chosen); a filled form sent again creates nothing', async () => {
		const { env, fake } = checkoutSetup({ methods: ['bank'] });
		const first = await start(env, { v: 1, id, iat: NOW, exp: NOW + 60_000 }, { email: 'ada@example.com' });
		expect(first).toMatchObject({ kind: 'bank', state: { amt: 5000, em: 'ada@example.com', m: 'bank' } });
		const again = await start(env, first.state, { email: 'other@example.com' });
		expect(again.attempt?.r).toBe(first.attempt?.r);
		expect(fake.payins.size).toBe(1);
		expect(fake.calls.filter((c) => c.startsWith('POST'))).toEqual(['POST /api/v1/virtual-accounts/dynamic']);
	});

	it('refuses a method the page does not offer; an open bank transfer chosen again is shown, not replaced', async () => {
		const { env, fake } = checkoutSetup();
		await expect(chooseMethod(env, filled, 'momo', undefined)).rejects.toThrow('Payment method: choose one of the methods offered');
		await expect(chooseMethod(env, { ...filled, amt: undefined }, 'bank', undefined)).rejects.toThrow('Fill in the form first');
		const attempt = { n: 1, m: 'bank' as const, s: 'bank', r: 'ONUS-9' };
		const shown = await chooseMethod(env, filled, 'bank', { attempt, record: { paymentStatus: 'PENDING' } });
		expect(shown).toMatchObject({ kind: 'bank', attempt });
		expect(fake.calls).toEqual([]);
		expect((await chooseMethod(env, filled, 'card', undefined)).kind).toBe('details');
	});
});

describe('bank transfer', () => {
	it('one account per attempt reference; the account is kept in the sealed state', async () => {
		const { env, fake } = checkoutSetup();
		const view = await bank(env, filled);
		expect(fake.payins.get('ONUS-NUB-1')).toMatchObject({ reference: `PP-${id}-1`, amount: 5000 });
		expect(open(view.sealed, KEY)?.a).toEqual([
			{ n: 1, m: 'bank', s: 'bank', r: 'ONUS-NUB-1', acct: { no: '0123456789', bank: 'Test Bank', name: 'Shop / Ada' } },
		]);
	});
});

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

describe('EFT', () => {
	it("the bank chosen, then on to its page, with the page's return address", async () => {
		const { env, fake } = checkoutSetup({ currency: 'ZAR', methods: ['eft'], eftBanks: [{ code: 'ABSA', name: 'Absa' }] });
		const za: CheckoutState = { ...filled, cur: 'ZAR', m: 'eft' };
		await expect(eft(env, za, { bank: 'NOPE' })).rejects.toThrow('Bank: choose your bank');
		const view = await eft(env, za, { bank: 'ABSA' });
		expect(view).toMatchObject({ kind: 'eft', redirect: 'https://bank.test/eft/ONUS-EFT-1', attempt: { n: 1, m: 'eft', s: 'eft' } });
		expect(fake.calls).toContain('POST /api/v1/eft-payment');
	});
});

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
