/** Payment Page: the bank transfer step (methods/bank.ts). */
import { bankTransfer } from '../../../../nodes/PayOnUsPaymentPage/methods/bank';
import { open, type CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup, KEY, methodStep } from '../fakes';

const bank = methodStep(bankTransfer, 'start');

const NOW = Date.UTC(2026, 0, 1, 12);
const id = 'c'.repeat(24);
const filled: CheckoutState = { v: 1, id, iat: NOW, exp: NOW + 30 * 60_000, amt: 5000, cur: 'NGN', em: 'ada@example.com', nm: 'Ada' };

describe('bank transfer', () => {
	it('one account per attempt reference; the account is kept in the sealed state', async () => {
		const { env, fake } = checkoutSetup();
		const view = await bank(env, filled);
		expect(fake.payins.get('ONUS-NUB-1')).toMatchObject({ reference: `PP-${id}-1`, amount: 5000 });
		expect(open(view.sealed, KEY)?.a).toEqual([
			{ n: 1, m: 'bank', s: 'bank', r: 'ONUS-NUB-1', acct: { no: '0123456789', bank: 'Test Bank', name: 'Shop / Ada' }, amt: 5000, cur: 'NGN', b: 'BUS-1' },
		]);
	});
});
