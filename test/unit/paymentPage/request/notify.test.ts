/**
 * The page's notification door (request/notify.ts) through the node's
 * webhook(), with a fake n8n and a fake PayOnUs: a checkout paid with the
 * tab closed starts the workflow from the receiving workflow's forward; the
 * browser and the forward start it once between them; a forged or foreign
 * forward starts nothing and costs no call; the door is bounded.
 */
import type { IDataObject } from 'n8n-workflow';
import { FakePayOnUs } from '../fakes';
import { page, request, sealedAt, sealedIn, type Page } from '../requests';
import { deriveKey, open } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { newPageCheckoutId } from '../../../../nodes/PayOnUsPaymentPage/checkout/pageBound';

let fake = new FakePayOnUs();
jest.mock('../../../../nodes/shared/transport', () => ({ createClient: jest.fn(async () => fake), reusable: () => true }));

beforeEach(() => {
	fake = new FakePayOnUs();
});

/** A bank transfer checkout started on `p`: its sealed state and its first attempt's payin. */
async function bankCheckout(p: Page, email = 'ada@example.com', ip?: string): Promise<{ c: string; payin: IDataObject }> {
	const c0 = sealedIn((await request(p, 'GET', {}, {}, { ip })).body);
	const c = sealedAt((await request(p, 'POST', {}, { c: c0, step: 'start', email, method: 'bank' }, { ip })).location);
	const payin = [...fake.payins.values()].at(-1)!;
	return { c, payin };
}

const forward = (p: Page, payin: IDataObject, ip = '10.0.0.5') =>
	request(p, 'POST', {}, { onusReference: payin.onusReference, merchantReference: payin.merchantReference }, { webhook: 'notify', ip });

describe('a checkout paid with the tab closed', () => {
	it("starts the workflow from the forward: the same Paid item as the browser's, customer fields from the service's record", async () => {
		const p = page({ simplify: false });
		const { c, payin } = await bankCheckout(p);
		fake.pay(1);
		fake.calls = [];
		const a = await forward(p, payin);
		expect(a.result.webhookResponse).toEqual({ started: true, merchantCheckoutReference: `PP-${String(payin.merchantReference).split('-')[1]}` });
		const item = a.result.workflowData![0][0].json;
		expect(item).toMatchObject({
			onusReference: payin.onusReference,
			merchantReference: payin.merchantReference,
			merchantCheckoutReference: a.result.webhookResponse && (a.result.webhookResponse as { merchantCheckoutReference: string }).merchantCheckoutReference,
			paymentStatus: 'SUCCESSFUL',
			amount: 5000,
			paymentMethod: 'bank',
			customerEmail: 'ada@example.com',
			checkoutAttempt: 1,
			confirmedWith: 'Get Payment',
		});
		// Read back from the service, once, by its onusReference.
		expect(fake.calls).toEqual(['GET /api/v1/payment-requests/businesses/BUS-1']);

		// The buyer comes back later: the receipt, and nothing started again.
		const later = await request(p, 'GET', { c, poll: '1' });
		expect(later.json).toEqual({ state: 'paid' });
		expect(later.result.workflowData).toBeUndefined();
	});

	it('the same item as the browser would have emitted, field for field, but for the time of confirmation', async () => {
		const viaBrowser = page({ simplify: false });
		const b = await bankCheckout(viaBrowser);
		fake.pay(1);
		const browserItem = (await request(viaBrowser, 'GET', { c: b.c, poll: '1' })).result.workflowData![0][0].json;
		const viaNotify = page({ simplify: false });
		const n = await bankCheckout(viaNotify);
		fake.pay(2);
		const notifyItem = (await forward(viaNotify, n.payin)).result.workflowData![0][0].json;
		expect(Object.keys(notifyItem).sort()).toEqual(Object.keys(browserItem).sort());
	});

	it('simplified (Simplify on) like the browser path', async () => {
		const p = page();
		const { payin } = await bankCheckout(p);
		fake.pay(1);
		const item = (await forward(p, payin)).result.workflowData![0][0].json;
		expect(item).toMatchObject({ merchantCheckoutReference: expect.stringMatching(/^PP-[0-9a-f]{32}$/), customerEmail: 'ada@example.com' });
		expect(item.verifiedFields).toBeUndefined();
	});
});

describe('a payment at a price the page no longer asks (issue 36 point 2)', () => {
	it('paid at 5,000, forwarded after the merchant set 6,000: started once, marked pagePriceChanged like the browser path', async () => {
		const p = page({ simplify: false });
		const { payin } = await bankCheckout(p);
		fake.pay(1);
		p.params.amount = 6000;
		const a = await forward(p, payin);
		expect(a.result.webhookResponse).toMatchObject({ started: true });
		const item = a.result.workflowData![0][0].json;
		expect(item).toMatchObject({ amount: 5000, paymentStatus: 'SUCCESSFUL', pagePriceChanged: true });
	});

	it('paid at the price the page asks: no pagePriceChanged field', async () => {
		const p = page({ simplify: false });
		const { payin } = await bankCheckout(p);
		fake.pay(1);
		const item = (await forward(p, payin)).result.workflowData![0][0].json;
		expect(item).not.toHaveProperty('pagePriceChanged');
	});
});

describe('exactly once, whichever path comes first', () => {
	it('the browser first: the forward starts nothing and reads nothing', async () => {
		const p = page();
		const { c, payin } = await bankCheckout(p);
		fake.pay(1);
		expect((await request(p, 'GET', { c, poll: '1' })).result.workflowData).toHaveLength(1);
		fake.calls = [];
		const a = await forward(p, payin);
		expect(a.json).toMatchObject({ started: false, reason: 'already-started' });
		expect(a.result).toEqual({ noWebhookResponse: true });
		expect(fake.calls).toEqual([]);
	});

	it('a notification delivered again (forwarded twice) starts nothing the second time', async () => {
		const p = page();
		const { payin } = await bankCheckout(p);
		fake.pay(1);
		expect((await forward(p, payin)).result.workflowData).toHaveLength(1);
		const again = await forward(p, payin, '10.0.0.6');
		expect(again.json).toMatchObject({ started: false, reason: 'already-started' });
		expect(again.result.workflowData).toBeUndefined();
	});

	it('n8n could not store the run (5xx): the claim is given back, and the next forward starts it', async () => {
		const p = page();
		const { payin } = await bankCheckout(p);
		fake.pay(1);
		const first = await forward(p, payin);
		first.finish(500);
		expect((await forward(p, payin)).result.workflowData).toHaveLength(1);
	});

	it('a restart (memory gone, static data kept) does not start it again', async () => {
		const p = page();
		const { payin } = await bankCheckout(p);
		fake.pay(1);
		expect((await forward(p, payin)).result.workflowData).toHaveLength(1);
		// Another process (fresh modules: no memory of this one) with the workflow's static data.
		let again: Awaited<ReturnType<typeof forward>> | undefined;
		await jest.isolateModulesAsync(async () => {
			again = await forward(p, payin);
		});
		expect(again?.json).toMatchObject({ started: false, reason: 'already-started' });
		expect(again?.result.workflowData).toBeUndefined();
	});
});

describe('a forward is only a hint', () => {
	it('not paid at the service: nothing starts', async () => {
		const p = page();
		const { payin } = await bankCheckout(p);
		const a = await forward(p, payin);
		expect(a.json).toMatchObject({ started: false, reason: 'payin is PENDING, not SUCCESSFUL' });
		expect(a.result.workflowData).toBeUndefined();
	});

	it('paid short of the amount (amountPaid below amount): nothing starts, the log says why', async () => {
		const p = page();
		const { payin } = await bankCheckout(p);
		fake.pay(1, { amountPaid: 4000 });
		const a = await forward(p, payin);
		expect(a.result.workflowData).toBeUndefined();
		expect(a.logs.join('\n')).toContain('amountPaid 4000 of 5000');
	});

	it("another checkout's onusReference under this checkout's reference: the record's reference decides, nothing starts", async () => {
		const p = page();
		const one = await bankCheckout(p, 'one@example.com');
		const two = await bankCheckout(p, 'two@example.com');
		fake.pay(2);
		const a = await request(p, 'POST', {}, { onusReference: two.payin.onusReference, merchantReference: one.payin.merchantReference }, { webhook: 'notify' });
		expect(a.result.workflowData).toBeUndefined();
		expect(a.logs.join('\n')).toMatch(/not treated as paid: payin does not match the checkout \(.*reference/);
	});

	it("another page's checkout (same business, same credential): not this page's, no call", async () => {
		const mine = page();
		const other = page();
		const { payin } = await bankCheckout(other);
		fake.pay(1);
		fake.calls = [];
		const a = await forward(mine, payin);
		expect(a.status).toBe(200);
		expect(a.json).toEqual({ started: false, reason: 'not-this-page' });
		expect(fake.calls).toEqual([]);
	});

	it('a forged checkout id, an id from before bound ids, a reference that is no checkout: not this page\'s, no call', async () => {
		const p = page();
		for (const merchantReference of [`PP-${'ab'.repeat(16)}-1`, `PP-${'ab'.repeat(12)}-1`, `PP-${newPageCheckoutId(Buffer.alloc(32, 7))}-1`, 'ORDER-77']) {
			const a = await request(p, 'POST', {}, { onusReference: 'ONUS-NUB-1', merchantReference }, { webhook: 'notify' });
			expect(a.json).toEqual({ started: false, reason: 'not-this-page' });
		}
		expect(fake.calls).toEqual([]);
	});

	it('a body without the references is refused (400), naming the field', async () => {
		const p = page();
		expect((await request(p, 'POST', {}, { merchantReference: 'PP-x-1' }, { webhook: 'notify' })).json).toEqual({
			started: false,
			reason: expect.stringMatching(/^onusReference: /),
		});
		const a = await request(p, 'POST', {}, { onusReference: 'ONUS-NUB-1', merchantReference: 7 }, { webhook: 'notify' });
		expect(a.status).toBe(400);
		expect(a.json).toMatchObject({ reason: expect.stringMatching(/^merchantReference: /) });
		expect(fake.calls).toEqual([]);
	});

	it('a payin PayOnUs does not know: nothing starts', async () => {
		const p = page();
		const { payin } = await bankCheckout(p);
		const a = await request(p, 'POST', {}, { onusReference: 'ONUS-NUB-999', merchantReference: payin.merchantReference }, { webhook: 'notify' });
		expect(a.json).toMatchObject({ started: false, reason: 'no-such-payin' });
	});
});

describe('rule 4: the door is bounded', () => {
	it("a forward over the page's call bound is not sent: 429 with Retry-After; the checkout is started by a later forward", async () => {
		// Each buyer's checkout takes 2 calls (the account, then its read); each forward 1.
		const p = page({ options: { callsPerVisitor: 2 } });
		const [one, two, three] = [await bankCheckout(p, 'a@example.com', '10.0.1.1'), await bankCheckout(p, 'b@example.com', '10.0.1.2'), await bankCheckout(p, 'c@example.com', '10.0.1.3')];
		fake.pay(1);
		fake.pay(2);
		fake.pay(3);
		const ip = '10.9.9.9';
		expect((await forward(p, one.payin, ip)).result.workflowData).toHaveLength(1);
		expect((await forward(p, two.payin, ip)).result.workflowData).toHaveLength(1);
		fake.calls = [];
		const refused = await forward(p, three.payin, ip);
		expect(refused.status).toBe(429);
		expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
		expect(refused.json).toMatchObject({ started: false });
		expect(fake.calls).toEqual([]);
		expect((await forward(p, three.payin, '10.9.9.10')).result.workflowData).toHaveLength(1);
	});
});

describe('the checkout id names its page', () => {
	it("a new checkout's id is bound to the page (32 hex digits) and its state opens", async () => {
		const p = page();
		const c = sealedIn((await request(p, 'GET')).body);
		const state = open(c, deriveKey(p.secret, `wf-1|${p.nodeId}`));
		expect(state?.id).toMatch(/^[0-9a-f]{32}$/);
	});
});
