/**
 * PayOnUs Payment Page, without n8n: the checkout state machine (checkout/)
 * against a fake PayOnUs (reference uniqueness, Get Payment), so the rules
 * are pinned: paid only on the service's word, one emission per checkout, a
 * double submit never creates a second payin, card data only as RSA
 * ciphertext. Each step alone: checkout/<step>.test.ts.
 */
import { renderView } from '../../../nodes/PayOnUsPaymentPage/render/html';
import { newCheckoutId } from '../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { checkoutSetup as setup, encryptedCard, pageConfig as config } from './fakes';

describe('checkout: bank transfer', () => {
	it('creates one account per checkout, emits once and only on the service word', async () => {
		const { fake, emitted, checkout } = setup();
		const start = checkout.fresh(newCheckoutId());
		const form = { email: 'ada@example.com', name: 'Ada Obi', method: 'bank' };
		const first = await checkout.step(start.state, 'start', form);
		// a double submit of the same form: same reference, the same account back
		const second = await checkout.step(start.state, 'start', form);
		expect(first.kind).toBe('bank');
		expect(second.kind).toBe('bank');
		expect(fake.payins.size).toBe(1);
		expect(second.attempt?.r).toBe(first.attempt?.r);
		const [payin] = [...fake.payins.values()];
		expect(payin.reference).toBe(`PP-${start.state.id}-1`);

		// "I have paid" before the money lands: still waiting, nothing emitted
		const check = await checkout.step(first.state, 'check', {});
		expect(check.kind).toBe('bank');
		expect(check.message).toMatch(/not received/);
		expect(await checkout.poll(first.state)).toEqual({ state: 'pending' });
		expect(emitted).toHaveLength(0);

		payin.paymentStatus = 'SUCCESSFUL';
		payin.amountPaid = payin.amount;
		expect(await checkout.poll(first.state)).toEqual({ state: 'paid' });
		const again = await checkout.show(second.state);
		expect(again.kind).toBe('paid');
		expect(emitted).toHaveLength(1);
		expect(emitted[0]).toMatchObject({
			merchantCheckoutReference: `PP-${start.state.id}`,
			merchantReference: `PP-${start.state.id}-1`,
			paymentStatus: 'SUCCESSFUL',
			amount: 5000,
			customerEmail: 'ada@example.com',
			customerName: 'Ada Obi',
			paymentMethod: 'bank',
		});
		// a stale tab posting the start form again creates nothing
		await checkout.step(start.state, 'start', form);
		expect(fake.payins.size).toBe(1);
	});

	it('switching to card from an open account and back shows the same account; paying it still counts', async () => {
		const { fake, emitted, checkout } = setup();
		const start = checkout.fresh(newCheckoutId());
		const bank = await checkout.step(start.state, 'start', { email: 'a@b.co', method: 'bank' });
		const card = await checkout.step(bank.state, 'method', { method: 'card' });
		expect(card.kind).toBe('details');
		expect((await checkout.show(card.state)).kind).toBe('details');
		const back = await checkout.step(card.state, 'method', { method: 'bank' });
		expect(back.kind).toBe('bank');
		expect((await checkout.show(back.state)).kind).toBe('bank');
		expect(fake.payins.size).toBe(1);
		Object.assign([...fake.payins.values()][0], { paymentStatus: 'SUCCESSFUL', amountPaid: 5000 });
		expect((await checkout.show(card.state)).kind).toBe('paid');
		expect(emitted).toHaveLength(1);
	});

	it('does not take a SUCCESSFUL payin of another amount as paid', async () => {
		const { fake, emitted, checkout } = setup();
		const start = checkout.fresh(newCheckoutId());
		const view = await checkout.step(start.state, 'start', { email: 'a@b.co', method: 'bank' });
		const [payin] = [...fake.payins.values()];
		payin.paymentStatus = 'SUCCESSFUL';
		payin.amount = 1;
		expect((await checkout.show(view.state)).kind).toBe('bank');
		expect(emitted).toHaveLength(0);
	});

	it('does not take a SUCCESSFUL payin whose amountPaid is below the amount as paid (issue 22, point 3)', async () => {
		const { fake, emitted, checkout, warnings } = setup();
		const start = checkout.fresh(newCheckoutId());
		const view = await checkout.step(start.state, 'start', { email: 'a@b.co', method: 'bank' });
		const [payin] = [...fake.payins.values()];
		Object.assign(payin, { paymentStatus: 'SUCCESSFUL', amountPaid: 1000 });
		expect((await checkout.show(view.state)).kind).not.toBe('paid');
		expect(await checkout.poll(view.state)).not.toEqual({ state: 'paid' });
		expect(emitted).toHaveLength(0);
		expect(warnings.join(' ')).toContain('amountPaid 1000 of 5000');
		// Without amountPaid the service has not said the full amount was paid: not paid either.
		delete payin.amountPaid;
		expect((await checkout.show(view.state)).kind).not.toBe('paid');
		expect(emitted).toHaveLength(0);
		// The rest arrives: paid, once.
		payin.amountPaid = 5000;
		expect((await checkout.show(view.state)).kind).toBe('paid');
		expect(emitted).toHaveLength(1);
	});

	it('expires, and the customer chooses the amount within the bounds', async () => {
		const { checkout, advance, fake, notPaid } = setup({ amountMode: 'customer', minAmount: 100, maxAmount: 1000 });
		const start = checkout.fresh(newCheckoutId());
		const low = await checkout.step(start.state, 'start', { email: 'a@b.co', amount: '50', method: 'bank' });
		expect(low.status).toBe(400);
		expect(low.message).toMatch(/between 100 and 1000/);
		const ok = await checkout.step(start.state, 'start', { email: 'a@b.co', amount: '250.50', method: 'bank' });
		expect(ok.state.amt).toBe(250.5);
		advance(31 * 60_000);
		expect((await checkout.show(ok.state)).kind).toBe('expired');
		expect(await checkout.poll(ok.state)).toEqual({ state: 'expired' });
		expect(fake.payins.size).toBe(1);
		// the Not Paid output, once
		expect(notPaid).toHaveLength(1);
		expect(notPaid[0]).toMatchObject({ outcome: 'expired', amount: 250.5, customerEmail: 'a@b.co' });
		expect(notPaid[0].attempts).toEqual([expect.objectContaining({ checkoutAttempt: 1, paymentMethod: 'bank' })]);
	});
});

describe('checkout: card', () => {
	it('forwards only RSA ciphertext, never card details in clear', async () => {
		const { fake, checkout } = setup();
		const start = checkout.fresh(newCheckoutId());
		const details = await checkout.step(start.state, 'start', { email: 'a@b.co', method: 'card' });
		expect(details.kind).toBe('details');
		const plain = Buffer.from('4111111111111111|12|30|123').toString('base64');
		const refused = await checkout.step(details.state, 'card', { cardData: plain });
		expect(refused.status).toBe(400);
		expect(fake.calls.some((c) => c.includes('card-payments'))).toBe(false);
		const cipher = encryptedCard('4111111111111111|12|30|123');
		await checkout.step(details.state, 'card', { cardData: cipher });
		expect(fake.calls.filter((c) => c === 'POST /api/v1/card-payments')).toHaveLength(1);
		const html = renderView({ nonce: 'n', config: config() }, details);
		// the card inputs have no name: a browser never submits them
		expect(html).toMatch(/<input id="cc-number"(?![^>]*name=)/);
	});
});
