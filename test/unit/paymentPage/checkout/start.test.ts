/** Payment Page: the start form read and the method chosen (checkout/start.ts). */
import type { CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { chooseMethod, start } from '../../../../nodes/PayOnUsPaymentPage/checkout/start';
import { checkoutSetup } from '../fakes';

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
