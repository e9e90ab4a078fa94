/**
 * Payment Page, its calls to PayOnUs (service.ts): through the PayOnUs
 * node's runner (runOnce), with the buyer's words for an input an
 * operation refuses.
 */
import { NodeOperationError } from 'n8n-workflow';
import { CheckoutInputError } from '../../../nodes/PayOnUsPaymentPage/checkout/input';
import { createCardPayin, getPayin, inPageWords } from '../../../nodes/PayOnUsPaymentPage/service';
import { encryptedCard, FakePayOnUs } from './fakes';
import { FAKE_NODE, httpError } from '../fakes';

const caller = (client = new FakePayOnUs()) => ({ client, node: FAKE_NODE });

describe('inPageWords: the one place the runner\'s words become the page\'s', () => {
	it('an input the operation refused: "<field path>: <the schema\'s message>", the words the page has always shown', async () => {
		const fake = new FakePayOnUs();
		const error = await createCardPayin(caller(fake), {
			businessId: 'BUS-1',
			cardData: encryptedCard(),
			amount: 5000,
			currency: 'EUR',
			reference: `PP-${'d'.repeat(24)}-1`,
			customerName: 'Ada',
			customerEmail: 'ada@example.com',
			additionalFields: { narration: 'Ticket' },
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CheckoutInputError);
		expect((error as Error).message).toBe('currency: must be one of the currencies PayOnUs documents: NGN, KES, ZAR, USD, GHS');
		expect(fake.calls).toEqual([]);
	});

	it('anything else passes unchanged (a service error keeps its status and record)', () => {
		const conflict = httpError(409, 'Reference already used for this business');
		expect(inPageWords(conflict)).toBe(conflict);
		const other = new NodeOperationError(FAKE_NODE, 'Unknown operation "x" for resource "payin"');
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
});
