/** Payment Page, step "decide paid" (checkout/paid.ts): only Get Payment's SUCCESSFUL, for the checkout's own terms. */
import type { IDataObject } from 'n8n-workflow';
import { decidePaid } from '../../../../nodes/PayOnUsPaymentPage/checkout/paid';
import type { Attempt, CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';

const state: CheckoutState = { v: 1, id: 'a'.repeat(24), iat: 0, exp: 1, amt: 5000, cur: 'NGN', em: 'a@b.co' };
const attempt: Attempt = { n: 2, m: 'bank', r: 'ONUS-NUB-1' };
const record = {
	onusReference: 'ONUS-NUB-1',
	merchantReference: `PP-${'a'.repeat(24)}-2`,
	businessId: 'BUS-1',
	amount: 5000,
	amountPaid: 5000,
	currency: 'NGN',
	paymentStatus: 'SUCCESSFUL',
};

describe('decidePaid', () => {
	it('paid: SUCCESSFUL, the full amount, the currency, the business and the attempt reference', () => {
		expect(decidePaid(state, attempt, record, 'BUS-1')).toEqual({ paid: true });
	});

	// Rule 1 (docs/reliability.md): a success is proven; an absent field is never agreement.
	it.each([
		['businessId', 'business not shown'],
		['currency', 'currency not shown'],
		['amount', 'amount not shown'],
		['merchantReference', 'merchant reference not shown'],
		['onusReference', 'no ONUS-NUB-... service reference'],
	])('a SUCCESSFUL payin that does not show its %s is not paid', (field, why) => {
		const { [field]: _gone, ...rest } = record as IDataObject;
		const decision = decidePaid(state, attempt, rest, 'BUS-1');
		expect(decision).toEqual({ paid: false, warning: expect.stringContaining(why) });
	});

	it("a SUCCESSFUL payin whose service reference is of another method's kind is not paid", () => {
		expect(decidePaid(state, attempt, { ...record, onusReference: 'ONUS-TRNF-1' }, 'BUS-1')).toEqual({
			paid: false,
			warning: expect.stringContaining('service reference ONUS-TRNF-1 is not a ONUS-NUB-... reference'),
		});
	});

	it('not paid, without a word, while the payin is not SUCCESSFUL', () => {
		for (const paymentStatus of ['PENDING', 'PROCESSING', 'FAILED', undefined]) {
			expect(decidePaid(state, attempt, { ...record, paymentStatus }, 'BUS-1')).toEqual({ paid: false });
		}
	});

	it.each([
		[{ amountPaid: 4000 }, 'amountPaid 4000 of 5000'],
		[{ amountPaid: undefined }, 'amountPaid missing'],
		[{ amount: 50 }, 'amount 50'],
		[{ currency: 'KES' }, 'currency KES'],
		[{ businessId: 'BUS-2' }, 'business BUS-2'],
		[{ merchantReference: 'PP-other-2' }, 'reference PP-other-2'],
	])('a SUCCESSFUL payin with %j is not paid, and the warning says why', (over, why) => {
		const decision = decidePaid(state, attempt, { ...record, ...over }, 'BUS-1');
		expect(decision).toEqual({
			paid: false,
			warning: expect.stringContaining(`payin ONUS-NUB-1 of checkout PP-${'a'.repeat(24)} is SUCCESSFUL but does not match the checkout (${why}`),
		});
	});
});
