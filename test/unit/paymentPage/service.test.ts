/**
 * Payment Page, its calls to PayOnUs (service.ts): typed, over the payin
 * calls of nodes/shared/payins, with the buyer's words for a body a call
 * refuses.
 */
import { CheckoutInputError } from '../../../nodes/PayOnUsPaymentPage/checkout/input';
import { getPayin, inPageWords } from '../../../nodes/PayOnUsPaymentPage/service';
import { chargeCard } from '../../../nodes/PayOnUsPaymentPage/methods/card';
import { eftPayment } from '../../../nodes/PayOnUsPaymentPage/methods/eft';
import { encryptedCard, FakePayOnUs } from './fakes';
import { httpError } from '../fakes';

const caller = (client = new FakePayOnUs()) => ({ client });
const customer = { name: 'Ada', email: 'ada@example.com' };

describe("inPageWords: the one place a refused body's words become the page's", () => {
	it('an input the call refused: "<field path>: <the schema\'s message>", the words the page has always shown', async () => {
		const fake = new FakePayOnUs();
		const error = await chargeCard(caller(fake), {
			businessId: 'BUS-1',
			cardData: encryptedCard(),
			amount: 5000,
			currency: 'EUR',
			reference: `PP-${'d'.repeat(24)}-1`,
			narration: 'Ticket',
			customer,
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckoutInputError);
		expect((error as Error).message).toBe('currency: must be one of the currencies PayOnUs documents: NGN, KES, ZAR, USD, GHS');
		expect(fake.calls).toEqual([]);
	});

	it('EFT is checked like every other method: a bad value is a 400 in the page\'s words, nothing sent', async () => {
		const fake = new FakePayOnUs();
		const error = await eftPayment(caller(fake), {
			businessId: 'BUS-1',
			bank: 'ABSA',
			amount: 50,
			reference: `PP-${'d'.repeat(24)}-1`,
			redirectUrl: 'http://n8n.test/webhook/pay?c=x',
			customer: { ...customer, email: 'ada' },
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckoutInputError);
		expect((error as Error).message).toBe('customer.email: must be an e-mail address such as name@example.com');
		expect(fake.calls).toEqual([]);
	});

	it('anything else passes unchanged (a service error keeps its status and record)', () => {
		const conflict = httpError(409, 'Reference already used for this business');
		expect(inPageWords(conflict)).toBe(conflict);
		const other = new Error('PayOnUs could not be reached');
		expect(inPageWords(other)).toBe(other);
	});
});

describe('getPayin', () => {
	it("Get Payment's record, or nothing for a 404; other failures pass up", async () => {
		const fake = new FakePayOnUs();
		fake.payins.set('ONUS-1', { onusReference: 'ONUS-1', amount: '10.50', paymentStatus: 'PENDING' });
		expect(await getPayin(caller(fake), 'BUS-1', 'ONUS-1')).toMatchObject({ onusReference: 'ONUS-1', amount: 10.5 });
		expect(await getPayin(caller(fake), 'BUS-1', 'ONUS-2')).toBeUndefined();
		fake.failGets = 1;
		await expect(getPayin(caller(fake), 'BUS-1', 'ONUS-1')).rejects.toMatchObject({ status: 500 });
	});

	it('a malformed onusReference is refused in the page\'s words before anything is sent', async () => {
		const fake = new FakePayOnUs();
		const error = await getPayin(caller(fake), 'BUS-1', 'ONUS 1/../x').catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckoutInputError);
		expect((error as Error).message).toMatch(/^onusReference: must be an identifier without spaces or slashes/);
		expect(fake.calls).toEqual([]);
	});
});
