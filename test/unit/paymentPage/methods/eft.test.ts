/** Payment Page: the EFT step (methods/eft.ts). */
import { eft as eftMethod } from '../../../../nodes/PayOnUsPaymentPage/methods/eft';
import type { CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup, methodStep } from '../fakes';

const eft = methodStep(eftMethod, 'eft');

const NOW = Date.UTC(2026, 0, 1, 12);
const id = 'c'.repeat(24);
const filled: CheckoutState = { v: 1, id, iat: NOW, exp: NOW + 30 * 60_000, amt: 5000, cur: 'NGN', em: 'ada@example.com', nm: 'Ada' };

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
