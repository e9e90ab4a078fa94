/**
 * Simplify of the trigger nodes (nodes/shared/triggerSimplify.ts): one
 * simplified shape per record kind for the PayOnUs Trigger, the Poll Trigger
 * and the Payment Page, on by default, and the PayOnUs
 * Trigger's outputs through its webhook.
 */
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));
import { deliver, resetNotifications, serveRecords, serviceRecord, sign } from '../fakes/notifications';

import { OUTPUT_NAMES, PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { PayOnUsPollTrigger } from '../../../nodes/PayOnUsPollTrigger/PayOnUsPollTrigger.node';
import { clock as pollClock } from '../../../nodes/PayOnUsPollTrigger/clock';
import { PayOnUsPaymentPage } from '../../../nodes/PayOnUsPaymentPage/PayOnUsPaymentPage.node';
import { resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';
import { SIMPLIFIED_MAX_FIELDS, simplifyItems, simplifyRecord } from '../../../nodes/shared/triggerSimplify';
import { simplified } from '../../../nodes/PayOnUsPaymentPage/request/outputs';
import { SAMPLE_TIMING, sampleNotification } from '../../../nodes/PayOnUsTrigger/sample';
import { paidItem } from '../../../nodes/PayOnUsPaymentPage/checkout/items';

SAMPLE_TIMING.delayMs = 0;
pollClock.now = () => Date.parse('2026-01-15T12:00:00Z');

describe('Simplify: the fields a builder maps first', () => {
	it('turns a 47-field payin into at most 10 fields, status, amount, currency and references first', () => {
		const record = serviceRecord();
		expect(Object.keys(record)).toHaveLength(47);
		const simple = simplifyRecord('payin', { ...record, resource: 'payin', change: 'new' });
		expect(Object.keys(simple)).toEqual([
			'paymentStatus', 'amount', 'currency', 'businessId', 'merchantReference', 'onusReference', 'email', 'mobileNumber',
			'resource', 'change',
		]);
		expect(simple).toMatchObject({ paymentStatus: 'SUCCESSFUL', amount: 5000, currency: 'NGN' });
	});

	it('keeps the reason of a Unconfirmed event, and never more than 10 fields', () => {
		const item = { ...serviceRecord(), event: 'COLLECTION', confirmed: false, confirmation: { confirmed: false, reason: 'x' } };
		const [simple] = simplifyItems([{ json: item }]);
		expect(simple.json.confirmation).toEqual({ confirmed: false, reason: 'x' });
		expect(Object.keys(simple.json).length).toBeLessThanOrEqual(SIMPLIFIED_MAX_FIELDS);
		expect(Object.keys(simple.json).slice(0, 3)).toEqual(['paymentStatus', 'amount', 'currency']);
	});
});

describe('Simplify is on by default', () => {
	it('each starting node has one version and shows Simplify, on by default', () => {
		for (const node of [new PayOnUsTrigger(), new PayOnUsPollTrigger(), new PayOnUsPaymentPage()]) {
			expect(node.description.version).toBe(1);
			const simplify = node.description.properties.find((p) => p.name === 'simplify');
			expect(simplify).toMatchObject({ type: 'boolean', default: true });
			expect(simplify?.displayOptions).toBeUndefined();
		}
	});

	async function pollOnce(params: IDataObject = {}) {
		fakeClient.paginate.mockImplementation(async () => [serviceRecord()]);
		const ctx = {
			getNodeParameter: (name: string, fallback: unknown) =>
				name in params ? params[name] : ({ watch: ['payins'], options: {}, merchantId: '' } as IDataObject)[name] ?? fallback,
			getMode: () => 'manual',
			getWorkflow: () => ({ id: 'wf-s' }),
			getNode: () => ({ id: 'poll-s', name: 'PayOnUs Poll Trigger', typeVersion: 1 }),
			getWorkflowStaticData: () => ({}),
		};
		const out = await new PayOnUsPollTrigger().poll.call(ctx as never);
		return out?.[0]?.[0]?.json as IDataObject;
	}

	it('Poll Trigger: simplified test event; Simplify off: every field', async () => {
		const simple = await pollOnce();
		expect(Object.keys(simple)[0]).toBe('paymentStatus');
		expect(Object.keys(simple).length).toBeLessThanOrEqual(10);
		expect(simple).toMatchObject({ resource: 'payin', change: 'test', amount: 5000 });
		const raw = await pollOnce({ simplify: false });
		expect(Object.keys(raw).length).toBeGreaterThanOrEqual(47);
	});

	it('Poll Trigger: the business and the customer contact', async () => {
		expect(Object.keys(await pollOnce())).toEqual([
			'paymentStatus', 'amount', 'currency', 'businessId', 'merchantReference', 'onusReference', 'email', 'mobileNumber', 'resource', 'change',
		]);
	});
});

beforeEach(resetNotifications);

describe('PayOnUs Trigger output', () => {
	it('emits the simplified confirmed item; Simplify off: the full one', async () => {
		const record = serviceRecord();
		serveRecords([record]);
		const body = sampleNotification('COLLECTION', record);
		const simple = await deliver(body, sign(body));
		expect(simple.confirmed).toHaveLength(1);
		expect(Object.keys(simple.confirmed[0]).slice(0, 6)).toEqual(['paymentStatus', 'amount', 'currency', 'businessId', 'merchantReference', 'onusReference']);
		expect(simple.confirmed[0]).toMatchObject({ event: 'COLLECTION', confirmed: true, amount: 5000 });
		expect(Object.keys(simple.confirmed[0]).length).toBeLessThanOrEqual(10);
		resetSeenKeys();
		const full = await deliver(body, sign(body), { params: { simplify: false } });
		expect(full.confirmed[0]).toMatchObject({ verified: true, verifiedBy: 'signature', confirmedBy: 'api' });
		expect(full.confirmed[0].verifiedFields).toEqual(['accountNumber', 'onusReference', 'paymentStatus']);
	});

	it('gives the next node what it maps (business, references, customer contact)', async () => {
		const record = serviceRecord({ mobileNumber: '+2348012345678' });
		serveRecords([record]);
		const body = sampleNotification('COLLECTION', record);
		const got = await deliver(body, sign(body), { params: { events: ['COLLECTION'], statuses: ['SUCCESSFUL'], options: {} } });
		expect(got.confirmed[0]).toEqual({
			paymentStatus: 'SUCCESSFUL',
			amount: 5000,
			currency: 'NGN',
			businessId: 'BUS-2001',
			merchantReference: 'inv-42',
			onusReference: record.onusReference,
			email: 'ada@example.com',
			mobileNumber: '+2348012345678',
			event: 'COLLECTION',
			confirmed: true,
		});
	});

	it('an Unconfirmed item keeps its reason and still names the business', async () => {
		serveRecords([]);
		const record = serviceRecord({ onusReference: 'ONUS-NUB-9999999999999-15012026-100000' }) // a reference the service does not know;
		const body = sampleNotification('COLLECTION', record);
		const out = await deliver(body, sign(body), { params: { events: ['COLLECTION'], statuses: ['SUCCESSFUL'], options: {} } });
		expect(out.notConfirmed).toHaveLength(1);
		expect(out.notConfirmed[0]).toMatchObject({ businessId: 'BUS-2001', amount: 5000, currency: 'NGN', confirmed: false });
		expect((out.notConfirmed[0].confirmation as IDataObject).reason).toEqual(expect.any(String));
		expect(Object.keys(out.notConfirmed[0]).length).toBeLessThanOrEqual(SIMPLIFIED_MAX_FIELDS);
	});

	it("Payment Page: the Paid item names the business and the customer's phone", () => {
		const state = { id: 'abc', amt: 5000, cur: 'NGN', exp: 0, em: 'ada@example.com', nm: 'Ada', ph: '+2348012345678' } as never;
		const item = paidItem(state, { n: 1, m: 'bank' } as never, serviceRecord(), Date.parse('2026-01-15T10:06:00Z'));
		const [simple] = simplified({ workflowData: [[{ json: item }]] }, () => true).workflowData![0];
		expect(simple.json).toEqual({
			paymentStatus: 'SUCCESSFUL',
			amount: 5000,
			currency: 'NGN',
			businessId: 'BUS-2001',
			merchantCheckoutReference: item.merchantCheckoutReference,
			onusReference: 'ONUS-NUB-1000000000042-15012026-100000',
			customerEmail: 'ada@example.com',
			customerName: 'Ada',
			customerPhone: '+2348012345678',
			paymentMethod: 'bank',
		});
	});

	it('canvas: output names read as a pair and the subtitle names events as the Events list does', () => {
		const d = new PayOnUsTrigger().description;
		expect(OUTPUT_NAMES).toEqual(['Confirmed', 'Unconfirmed']);
		expect(d.outputNames).toEqual(OUTPUT_NAMES);
		for (const name of OUTPUT_NAMES) expect(name.length).toBeLessThanOrEqual(11);
		expect(d.subtitle).toContain('"card_tokenization_link.completed", "Card Tokenization"');
	});
});
