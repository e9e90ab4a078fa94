/**
 * Payment Page: a sealed state never outlives the page it was sealed for
 * (checkout/terms.ts, issue 36 point 2). A tab opened before the merchant
 * changed the price creates nothing at the old price and starts again with
 * a plain notice; money already paid at the old price is recognised.
 */
import { newCheckoutId, open } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { priceChanged, priceTerms } from '../../../../nodes/PayOnUsPaymentPage/checkout/terms';
import { checkoutSetup, encryptedCard, KEY, pageConfig } from '../fakes';

const posts = (calls: string[]) => calls.filter((c) => c.startsWith('POST'));

describe('a tab opened before the merchant changed a fixed price', () => {
	it('the start form sent after the change creates nothing and starts again with the new price; sent again, the payin is at the new price', async () => {
		const { fake, env, checkout } = checkoutSetup({ methods: ['bank'] });
		const tab = checkout.fresh(newCheckoutId());
		env.config.amount = 6000;
		const form = { email: 'ada@example.com', name: 'Ada Obi', method: 'bank' };
		const again = await checkout.step(tab.state, 'start', form);
		expect(fake.payins.size).toBe(0);
		expect(posts(fake.calls)).toEqual([]);
		expect(again).toMatchObject({ kind: 'start', notice: true, values: { email: 'ada@example.com', name: 'Ada Obi' } });
		expect(again.message).toBe(
			'The price of this payment changed while this page was open: it is now NGN 6,000.00 (it was NGN 5,000.00). Nothing was charged at the earlier price. Check your details and continue.',
		);
		// the same checkout, under the page's terms now
		const restarted = open(again.sealed, KEY)!;
		expect(restarted).toMatchObject({ id: tab.state.id, p: 'fixed|NGN|6000|BUS-1' });
		const bank = await checkout.step(restarted, 'start', form);
		expect(bank.kind).toBe('bank');
		expect([...fake.payins.values()].map((p) => p.amount)).toEqual([6000]);
	});

	it('an open bank transfer at the old price: no new payin at the old price (another method, "I have paid"); the notice says an amount already sent still counts', async () => {
		const { fake, env, checkout } = checkoutSetup({ methods: ['bank', 'card'] });
		const tab = checkout.fresh(newCheckoutId());
		const bank = await checkout.step(tab.state, 'start', { email: 'ada@example.com', method: 'bank' });
		env.config.amount = 6000;
		const before = posts(fake.calls).length;
		const card = await checkout.step(bank.state, 'method', { method: 'card' });
		expect(card.kind).toBe('start');
		expect(card.message).toContain('If you already sent NGN 5,000.00, do not pay again: it still counts.');
		const charged = await checkout.step(bank.state, 'card', { cardData: encryptedCard() });
		expect(charged.kind).toBe('start');
		expect(posts(fake.calls).length).toBe(before);
		// the old attempt is kept (read on every request), marked, with the amount its payin was made for
		expect(open(card.sealed, KEY)?.a).toEqual([expect.objectContaining({ n: 1, m: 'bank', amt: 5000, cur: 'NGN', x: 1 })]);
		// the page's own poll says so, and the GET of the old address starts again too
		expect(await checkout.poll(bank.state)).toEqual({ state: 'changed' });
		expect((await checkout.show(bank.state)).kind).toBe('start');
	});

	it('a card waiting for its PIN at the old price: the PIN is not sent', async () => {
		const { fake, env, checkout } = checkoutSetup({ methods: ['card'] });
		fake.cardAuth = 'PIN';
		const tab = checkout.fresh(newCheckoutId());
		const details = await checkout.step(tab.state, 'start', { email: 'ada@example.com', method: 'card' });
		const pin = await checkout.step(details.state, 'card', { cardData: encryptedCard() });
		expect(pin.kind).toBe('pin');
		env.config.amount = 6000;
		expect((await checkout.step(pin.state, 'pin', { authData: '1234' })).kind).toBe('start');
		expect(fake.calls.filter((c) => c.includes('complete-payment'))).toEqual([]);
	});

	it('money paid at the old price is recognised: Paid, with pagePriceChanged and the amount paid; the receipt shows what was paid', async () => {
		const { fake, env, checkout, emitted } = checkoutSetup({ methods: ['bank'] });
		const tab = checkout.fresh(newCheckoutId());
		const bank = await checkout.step(tab.state, 'start', { email: 'ada@example.com', method: 'bank' });
		env.config.amount = 6000;
		const restarted = await checkout.step(bank.state, 'check', {});
		expect(restarted.kind).toBe('start');
		fake.pay(1);
		// from the old address and from the restarted one alike
		const receipt = await checkout.show(open(restarted.sealed, KEY)!);
		expect(receipt.kind).toBe('paid');
		expect(receipt.state).toMatchObject({ amt: 5000, cur: 'NGN' });
		expect(emitted).toEqual([expect.objectContaining({ amount: 5000, paymentStatus: 'SUCCESSFUL', pagePriceChanged: true })]);
		expect((await checkout.show(bank.state)).kind).toBe('paid');
		expect(emitted).toHaveLength(1);
	});

	it('a payment at the price the page asks has no pagePriceChanged', async () => {
		const { fake, checkout, emitted } = checkoutSetup({ methods: ['bank'] });
		const bank = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com', method: 'bank' });
		fake.pay(1);
		await checkout.show(bank.state);
		expect(emitted).toHaveLength(1);
		expect(emitted[0]).not.toHaveProperty('pagePriceChanged');
	});
});

describe('other changes of what the page asks', () => {
	it('the currency: the tab starts again, nothing created', async () => {
		const { fake, env, checkout } = checkoutSetup({ methods: ['bank', 'card'] });
		const details = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com', method: 'card' });
		env.config.currency = 'USD';
		const after = await checkout.step(details.state, 'card', { cardData: encryptedCard() });
		expect(after.kind).toBe('start');
		expect(after.message).toContain('it is now USD 5,000.00 (it was NGN 5,000.00)');
		expect(fake.payins.size).toBe(0);
	});

	it("a chosen amount: bounds that still hold the buyer's amount change nothing; bounds that no longer hold it start again", async () => {
		const { fake, env, checkout } = checkoutSetup({ amountMode: 'customer', minAmount: 100, maxAmount: 1000, methods: ['bank', 'card'] });
		const details = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com', amount: '500', method: 'card' });
		env.config.maxAmount = 2000;
		expect((await checkout.step(details.state, 'method', { method: 'bank' })).kind).toBe('bank');
		expect([...fake.payins.values()].map((p) => p.amount)).toEqual([500]);
		env.config.minAmount = 600;
		const after = await checkout.step(details.state, 'card', { cardData: encryptedCard() });
		expect(after.kind).toBe('start');
		expect(after.message).toContain('it is now an amount between NGN 600.00 and NGN 2,000.00 (it was NGN 500.00)');
		expect(fake.payins.size).toBe(1);
	});

	it('the business: the tab starts again; its payin is still read, and recognised, in the business it was made in', async () => {
		const { fake, env, checkout, emitted } = checkoutSetup({ methods: ['bank'] });
		const bank = await checkout.step(checkout.fresh(newCheckoutId()).state, 'start', { email: 'ada@example.com' });
		env.config.businessId = 'BUS-2';
		fake.calls.length = 0;
		const after = await checkout.show(bank.state);
		expect(after.kind).toBe('start');
		expect(fake.calls.some((c) => c.includes('/businesses/BUS-1'))).toBe(true);
		fake.pay(1);
		expect((await checkout.show(open(after.sealed, KEY)!)).kind).toBe('paid');
		expect(emitted).toEqual([expect.objectContaining({ businessId: 'BUS-1', pagePriceChanged: true })]);
	});

	it('priceChanged: a state sealed before terms existed is judged by its amount alone', () => {
		const cfg = pageConfig();
		const old = { v: 1 as const, id: 'a'.repeat(24), iat: 0, exp: 1 };
		expect(priceTerms(cfg)).toBe('fixed|NGN|5000|BUS-1');
		expect(priceChanged(cfg, old)).toBe(false);
		expect(priceChanged(cfg, { ...old, amt: 5000, cur: 'NGN' })).toBe(false);
		expect(priceChanged(cfg, { ...old, amt: 4000, cur: 'NGN' })).toBe(true);
		expect(priceChanged(cfg, { ...old, p: 'fixed|NGN|4000|BUS-1' })).toBe(true);
		expect(priceChanged(cfg, { ...old, p: 'fixed|NGN|5000|BUS-0' })).toBe(true);
		expect(priceChanged(pageConfig({ description: 'new words', methods: ['card'] }), { ...old, p: 'fixed|NGN|5000|BUS-1' })).toBe(false);
	});
});
