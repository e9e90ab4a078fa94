import { chargeCard as op } from '../../../../nodes/PayOnUs/resources/payin/chargeCard';
import { context, ENCRYPTED_CARD, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

const good = {
	businessId: 'BUS-2001',
	cardData: ENCRYPTED_CARD,
	amount: 150,
	currency: 'ngn',
	reference: 'card-1',
	customerName: 'Ada Obi',
	customerEmail: 'ada@example.com',
	additionalFields: { narration: 'Order 1', redirectUrl: 'https://shop.example.com/back', addressCountryCode: 'NG' },
};

function answer(data: Record<string, unknown>) {
	return new FakeClient().respond('POST', '/api/v1/card-payments', data);
}

describe('payin: charge card', () => {
	it('the record must show the amount and currency, not the customer\'s phone (only mobile money declares it)', async () => {
		const client = answer({ paymentStatus: 'SUCCESSFUL', onusReference: 'ONUS-CARD-2' });
		const withPhone = { ...good, additionalFields: { ...good.additionalFields, customerPhone: '+2348000000001' } };
		await op.execute(context(client), parsed(op.schema, withPhone));
		expect((client.requests[0].body as { customer: { phone?: string } }).customer.phone).toBe('+2348000000001');
		expect(client.requests[0].moneyMoving?.expected).toEqual({ amount: 150, currency: 'NGN', businessId: 'BUS-2001' });
	});

	it('sends the encrypted card data and the documented body', async () => {
		const client = answer({ authTypeRequired: null, paymentStatus: 'SUCCESSFUL', onusReference: 'ONUS-CARD-1', redirectUrl: null });
		const out = (await op.execute(context(client), parsed(op.schema, good))) as Record<string, unknown>;
		expect(client.requests[0].body).toEqual({
			cardData: ENCRYPTED_CARD,
			amount: 150,
			currency: 'NGN',
			reference: 'card-1',
			narration: 'Order 1',
			businessId: 'BUS-2001',
			redirectUrl: 'https://shop.example.com/back',
			customer: { name: 'Ada Obi', email: 'ada@example.com', address: { countryCode: 'NG' } },
		});
		expect(client.requests[0].moneyMoving?.reference).toBe('card-1');
		expect(out.nextStep).toBe('Nothing more to do: the card was charged.');
		expect(JSON.stringify(out)).not.toContain(ENCRYPTED_CARD);
	});

	it.each([
		['PIN', /collect the PIN/],
		['OTP', /OTP was sent to the customer's phone/],
		['THREE_DS', /Send the customer to https:\/\/3ds\.example\/x/],
	])('explains the %s step', async (auth, text) => {
		const client = answer({ authTypeRequired: auth, paymentStatus: 'PENDING', onusReference: 'ONUS-CARD-2', redirectUrl: auth === 'THREE_DS' ? 'https://3ds.example/x' : null });
		const out = (await op.execute(context(client), parsed(op.schema, good))) as Record<string, unknown>;
		expect(out.nextStep).toMatch(text);
		expect(out.authTypeRequired).toBe(auth);
	});

	it.each([
		[{ cardData: '' }, '"cardData" is required'],
		[{ cardData: '4111 1111 1111 1111' }, '"cardData" looks like a raw card number'],
		[{ cardData: '4111111111111111' }, '"cardData" looks like a raw card number'],
		[{ cardData: 'NDExMTExMTExMTExMTExMXwxMnwzMHwxMjM=' }, '"cardData" must be the card details RSA-encrypted'],
		[{ cardData: 'not base64 at all!'.repeat(8) }, '"cardData" must be the card details RSA-encrypted'],
		[{ currency: 'NAIRA' }, '"currency" must be a 3-letter currency code'],
		[{ currency: '' }, '"currency" is required'],
		[{ amount: 0 }, '"amount" must be greater than 0'],
		[{ additionalFields: { redirectUrl: 'ftp://x' } }, '"additionalFields.redirectUrl" must be a web address'],
		[{ additionalFields: { addressCountryCode: 'Nigeria' } }, '"additionalFields.addressCountryCode" must be a 2-letter country code'],
		[{ additionalFields: { customerPhone: '+0123' } }, '"additionalFields.customerPhone" must be in international format'],
	])('refuses %j without repeating the card data', (patch: Record<string, unknown>, message) => {
		const text = problem(op.schema, { ...good, ...patch });
		expect(text).toContain(message);
		if (typeof patch.cardData === 'string' && patch.cardData) expect(text).not.toContain(patch.cardData);
	});
});
