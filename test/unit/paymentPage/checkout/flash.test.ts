/**
 * Payment Page: post/redirect/get, errors included (checkout/flash.ts, issue
 * 38 point 4). A refused form is answered with a redirect; its message,
 * each field's error and the values typed travel sealed to the GET, which
 * shows them; the forms of that page carry the state without them.
 */
import { newCheckoutId, open } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup, KEY } from '../fakes';

describe('a refused form, then the GET it is redirected to', () => {
	it('the start form: every error and the values typed, shown once on the GET (400); its form carries no flash', async () => {
		const { checkout, fake } = checkoutSetup({ askName: 'required' });
		const tab = checkout.fresh(newCheckoutId());
		const refused = await checkout.step(tab.state, 'start', { email: 'not-an-address', name: '', method: 'bank' });
		expect(refused.status).toBe(400);
		const sealed = open(refused.sealed, KEY)!;
		expect(sealed.f).toMatchObject({ k: 'start', s: 400, e: { email: expect.stringContaining('Email'), name: 'Name: required' }, f: { email: 'not-an-address' } });
		const shown = await checkout.show(sealed);
		expect(shown).toMatchObject({ kind: 'start', status: 400, fieldErrors: { name: 'Name: required' }, values: { email: 'not-an-address' } });
		expect(open(shown.sealed, KEY)?.f).toBeUndefined();
		expect(fake.payins.size).toBe(0);
	});

	it('"I have paid" before the money lands: the notice on the GET, not in the address', async () => {
		const { checkout } = checkoutSetup({ methods: ['bank'] });
		const bank = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com' });
		const check = await checkout.step(bank.state, 'check', {});
		const shown = await checkout.show(open(check.sealed, KEY)!);
		expect(shown).toMatchObject({ kind: 'bank', message: expect.stringContaining('We have not received the payment yet') });
		// a reload of the account itself says nothing
		expect((await checkout.show(bank.state)).message).toBeUndefined();
	});

	it('a flash for another view is not shown (the payment landed in between: the receipt)', async () => {
		const { checkout, fake } = checkoutSetup({ methods: ['bank'] });
		const bank = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com' });
		const check = await checkout.step(bank.state, 'check', {});
		fake.pay(1);
		const shown = await checkout.show(open(check.sealed, KEY)!);
		expect(shown.kind).toBe('paid');
		expect(shown.message).toBeUndefined();
	});

	it('a flash is never taken for a step: a POST with it runs on the state without it', async () => {
		const { checkout } = checkoutSetup({ askName: 'required' });
		const refused = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'x' });
		const next = await checkout.step(open(refused.sealed, KEY)!, 'start', { email: 'ada@example.com', name: 'Ada', method: 'bank' });
		expect(next.kind).toBe('bank');
		expect(open(next.sealed, KEY)?.f).toBeUndefined();
	});
});
