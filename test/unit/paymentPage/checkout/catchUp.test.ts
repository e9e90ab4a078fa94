/**
 * Payment Page: an address saved at an earlier step (Back, a bookmark, an
 * old tab) shows the last real step, and the receipt once the payment was
 * made (checkout/catchUp.ts, issue 38 point 4).
 */
import { newCheckoutId, open } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup, encryptedCard, KEY } from '../fakes';

describe('an address from an earlier step', () => {
	it('the start form after the account was made (Back from the account page): the account, not a blank form', async () => {
		const { checkout } = checkoutSetup({ methods: ['bank'] });
		const start = checkout.fresh(newCheckoutId());
		const bank = await checkout.step(start.state, 'start', { email: 'ada@example.com', name: 'Ada Obi' });
		const back = await checkout.show(start.state);
		expect(back).toMatchObject({ kind: 'bank', attempt: { n: 1, r: bank.attempt?.r, acct: { no: '0123456789' } } });
		expect(back.state).toMatchObject({ amt: 5000, cur: 'NGN' });
	});

	it('the start form after the payment was made: the receipt (and the Paid item once, with the e-mail the payin holds)', async () => {
		const { checkout, fake, emitted } = checkoutSetup({ methods: ['bank'] });
		const start = checkout.fresh(newCheckoutId());
		await checkout.step(start.state, 'start', { email: 'ada@example.com' });
		const payin = fake.pay(1);
		payin.email = 'ada@example.com';
		const old = await checkout.show(start.state);
		expect(old.kind).toBe('paid');
		expect(emitted).toEqual([expect.objectContaining({ customerEmail: 'ada@example.com', amount: 5000 })]);
	});

	it('the account page after the buyer paid by card instead: the receipt', async () => {
		const { checkout, fake } = checkoutSetup({ methods: ['bank', 'card'] });
		const bank = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com', method: 'bank' });
		const card = await checkout.step(bank.state, 'method', { method: 'card' });
		await checkout.step(card.state, 'card', { cardData: encryptedCard() });
		fake.pay(2);
		expect((await checkout.show(bank.state)).kind).toBe('paid');
	});

	it('an address that knows every attempt looks once, and finds nothing', async () => {
		const { checkout, fake } = checkoutSetup({ methods: ['bank'] });
		const bank = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com' });
		fake.calls.length = 0;
		expect((await checkout.show(bank.state)).kind).toBe('bank');
		expect(fake.calls.filter((c) => c === 'GET /api/v1/payment-requests')).toHaveLength(1);
	});

	it('a chosen amount, from before the buyer chose it: its form (the amount is not known, nothing is proven from the payin)', async () => {
		const { checkout, fake, emitted } = checkoutSetup({ amountMode: 'customer', minAmount: 100, maxAmount: 1000, methods: ['bank'] });
		const start = checkout.fresh(newCheckoutId());
		await checkout.step(start.state, 'start', { email: 'ada@example.com', amount: '500' });
		fake.pay(1);
		expect((await checkout.show(start.state)).kind).toBe('start');
		expect(emitted).toEqual([]);
		expect(open((await checkout.show(start.state)).sealed, KEY)?.a ?? []).toEqual([]);
	});
});
