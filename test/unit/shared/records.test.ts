/** Issue 14: one shape per record, whatever the source. */
import { toPayin, toTransfer } from '../../../nodes/shared/records';

describe('records', () => {
	it('a COLLECTION webhook payload gets the record name `amount` beside `transactionAmount`', () => {
		const out = toPayin({ type: 'COLLECTION', transactionAmount: 5000, onusReference: 'ONUS-NUB-1', merchantReference: 'inv-1' });
		expect(out).toMatchObject({ amount: 5000, transactionAmount: 5000, merchantReference: 'inv-1' });
	});
	it('a payin record passes unchanged', () => {
		const record = { onusReference: 'ONUS-NUB-1', reference: 'inv-1', merchantReference: 'inv-1', amount: 10, paymentStatus: 'SUCCESSFUL' };
		expect(toPayin(record)).toEqual(record);
	});
	it('a PAYOUT payload: amount and beneficiaryAccountNumber from the webhook names', () => {
		const out = toTransfer({ type: 'PAYOUT', transactionAmount: '250.50', accountNumber: '9999991112', onusReference: 'ONUS-TRNF-1' });
		expect(out).toMatchObject({ amount: 250.5, transactionAmount: '250.50', beneficiaryAccountNumber: '9999991112', accountNumber: '9999991112' });
	});
	it('a transfer answer (direct or lookup) and a transfer record have the same names', () => {
		const direct = toTransfer({ paymentStatus: 'PENDING', currency: 'NGN', amount: 10, fee: 1, onusReference: 'T1', merchantReference: 'r1' });
		const hook = toTransfer({ paymentStatus: 'PENDING', currency: 'NGN', transactionAmount: 10, onusReference: 'T1', reference: 'r1' });
		for (const k of ['paymentStatus', 'currency', 'amount', 'onusReference', 'merchantReference']) expect(hook[k]).toEqual(direct[k]);
	});
	it('status becomes paymentStatus when only status is given; nothing is invented', () => {
		expect(toTransfer({ status: 'SUCCESSFUL' })).toEqual({ status: 'SUCCESSFUL', paymentStatus: 'SUCCESSFUL' });
		expect(toPayin(undefined)).toEqual({});
	});
});
