/**
 * The payin calls both the PayOnUs node's operations and the Payment Page
 * make (nodes/shared/payins/calls.ts, and post.ts sending each money-moving
 * payin as its operation declares it): each body checked with its schema
 * before anything is sent, then sent with the money-moving safety; service
 * failures pass up as the transport threw them.
 */
import * as payins from '../../../../nodes/shared/payins';
import { cardCharge } from '../../../../nodes/PayOnUs/resources/payin/chargeCard';
import { dynamicAccount } from '../../../../nodes/PayOnUs/resources/payin/createDynamicAccount';
import { eftPayin } from '../../../../nodes/PayOnUs/resources/payin/eftPayment';
import { mobileMoneyPayin } from '../../../../nodes/PayOnUs/resources/payin/mobileMoneyCollection';
import { ENCRYPTED_CARD as CARD, FakeClient, httpError } from '../../fakes';

const customer = { name: 'Ada', email: 'ada@example.com' };

describe('payin calls: typed, each body checked before anything is sent', () => {
	it('getPayin reads the payin by its onusReference, in the record shape', async () => {
		const client = new FakeClient().respond('GET', '/api/v1/payment-requests/businesses/BUS-2001', {
			onusReference: 'ONUS-NUB-1',
			paymentStatus: 'SUCCESSFUL',
			amount: '5000.00',
		});
		const record = await payins.getPayin(client, 'BUS-2001', 'ONUS-NUB-1');
		expect(client.requests).toEqual([
			{ method: 'GET', path: '/api/v1/payment-requests/businesses/BUS-2001', qs: { onusReference: 'ONUS-NUB-1' } },
		]);
		// the record shape (amounts as numbers)
		expect(record).toEqual(expect.objectContaining({ onusReference: 'ONUS-NUB-1', amount: 5000 }));
	});

	it("refuses a body its schema refuses, naming the field and the schema's message; nothing is sent", async () => {
		const client = new FakeClient();
		const error = await payins
			.postPayin(client, cardCharge, {
				businessId: 'BUS-2001',
				cardData: CARD,
				amount: 10,
				currency: 'EUR',
				reference: 'PP-1-1',
				customer,
			})
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(payins.PayinInputError);
		expect((error as Error).message).toMatch(/^currency: must be one of the currencies PayOnUs documents/);
		expect((error as payins.PayinInputError).issues[0].path).toEqual(['currency']);
		expect(client.requests).toEqual([]);
	});

	it('names every field at fault by its path in the body (the customer object included); nothing is sent', async () => {
		const client = new FakeClient();
		const error = await payins
			.postPayin(client, dynamicAccount, { businessId: 'BUS-2001', amount: 0, reference: 'has space', customer: { name: 'Ada', email: 'not-an-email' } })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(payins.PayinInputError);
		const paths = (error as payins.PayinInputError).issues.map(payins.issuePath);
		expect(paths).toEqual(['amount', 'reference', 'customer.email']);
		expect((error as Error).message).toContain('customer.email: must be an e-mail address such as name@example.com');
		expect(client.requests).toEqual([]);
	});

	it('passes a service error as the transport threw it (a 409 keeps the record that holds the reference), sent once', async () => {
		const existing = { onusReference: 'ONUS-NUB-7', reference: 'PP-1-1' };
		const conflict = httpError(409, 'Reference already used for this business', { existingRecord: existing });
		const client = new FakeClient().respond('POST', '/api/v1/virtual-accounts/dynamic', () => {
			throw conflict;
		});
		const error = await payins
			.postPayin(client, dynamicAccount, { businessId: 'BUS-2001', amount: 5000, reference: 'PP-1-1', customer })
			.catch((e: unknown) => e);
		expect(error).toBe(conflict);
		expect(conflict.context.existingRecord).toEqual(existing);
		expect(error).not.toBeInstanceOf(payins.PayinInputError);
		// sent once: never resent blindly
		expect(client.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	it('sends every payin with the money-moving safety: its reference looked up after a lost answer, its record checked', async () => {
		const client = new FakeClient().respondAll(() => ({ onusReference: 'ONUS-X-1', amount: '25.00' }));
		const momo = await payins.postPayin(client, mobileMoneyPayin, {
			businessId: 'BUS-2001',
			momoNetwork: 'MTN-GH',
			amount: 25,
			reference: 'mm-1',
			customer: { ...customer, phone: '+233241234567' },
		});
		await payins.postPayin(client, eftPayin, { businessId: 'BUS-2001', bank: 'ABSA', amount: 25, reference: 'eft-1', customer });
		expect(momo.amount).toBe(25);
		for (const r of client.requests) {
			expect(r.moneyMoving).toEqual(expect.objectContaining({ reference: r.body && (r.body as { reference: string }).reference }));
		}
		// mobile money: the record must show the phone asked to approve
		expect(client.requests[0].moneyMoving?.expected).toEqual({ amount: 25, businessId: 'BUS-2001', customerPhone: '+233241234567' });
	});

	it('EFT carries the return address; a bad one is refused by its path, nothing sent', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/eft-payment', { onusReference: 'ONUS-EFT-1' });
		const body = { businessId: 'BUS-2001', bank: 'ABSA', amount: 50, reference: 'eft-2', customer, redirectUrl: 'https://shop.test/back?c=1' };
		await payins.postPayin(client, eftPayin, body);
		expect(client.requests[0].body).toEqual({
			amount: 50,
			reference: 'eft-2',
			narration: '',
			businessId: 'BUS-2001',
			bank: 'ABSA',
			customer,
			redirectUrl: 'https://shop.test/back?c=1',
		});
		const refused = await payins.postPayin(client, eftPayin, { ...body, redirectUrl: 'javascript:alert(1)' }).catch((e: unknown) => e);
		expect((refused as Error).message).toBe('redirectUrl: must be a web address starting with https://');
		expect(client.requests).toHaveLength(1);
	});

	it('sends only the customer values given (empty ones and an empty address left out)', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/card-payments', { onusReference: 'ONUS-CARD-1' });
		await payins.postPayin(client, cardCharge, {
			businessId: 'BUS-2001',
			cardData: CARD,
			amount: 10,
			currency: 'ngn',
			reference: 'card-1',
			customer: { ...customer, phone: '', address: { city: '' } },
		});
		expect(client.requests[0].body).toEqual({
			cardData: CARD,
			amount: 10,
			currency: 'NGN',
			reference: 'card-1',
			narration: '',
			businessId: 'BUS-2001',
			customer,
		});
	});

	it('simulatePayment is refused before sending with a production credential', async () => {
		const client = new FakeClient('production').respond('POST', '/api/v1/fund-ngn-account', null);
		const body = { onusReference: 'ONUS-NUB-1', accountNumber: '9900000001', amount: 10, paymentStatus: 'SUCCESSFUL' as const, forDynamicAccount: true };
		await expect(payins.simulatePayment(client, body)).rejects.toBeInstanceOf(payins.SandboxOnlyError);
		expect(client.requests).toEqual([]);
	});
});
