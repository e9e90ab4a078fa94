/**
 * Issue 14, point 6: the webhook trigger dedupes on signed fields only, marks
 * unsigned fields, confirms COLLECTION/PAYOUT with the service (and filters
 * on the confirmed business), and never drops a tokenization event silently.
 * Each case failed on f732b35.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
import { httpError } from '../fakes/errors';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));

import { PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { CONFIRM_TIMING } from '../../../nodes/PayOnUsTrigger/confirm';
import { resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';

const KEY = 'whk-confirm-key';
const REF = 'ONUS-NUB-1000000000077-01012025-101010';
const TRNF = 'ONUS-TRNF-1000000000078-01012025-101010';
const hashOf = (a: string, r: string, s: string) => createHash('sha256').update(a + r + s + KEY).digest('hex');

const notification = (over: IDataObject = {}): IDataObject => ({
	id: 'evt-7',
	type: 'COLLECTION',
	currency: 'NGN',
	businessId: 'BUS-2001',
	accountNumber: '0123456789',
	onusReference: REF,
	paymentStatus: 'SUCCESSFUL',
	transactionAmount: 5000,
	merchantReference: 'inv-7',
	...over,
});

async function deliver(body: IDataObject, params: IDataObject = {}, opts: { signed?: boolean; mode?: string } = {}) {
	const raw = JSON.stringify(body);
	const response = { status: 0, body: undefined as unknown, answers: 0 };
	const res = {
		status(code: number) {
			response.status = code;
			return res;
		},
		json(b: unknown) {
			response.body = b;
			response.answers++;
			return res;
		},
	};
	const all: IDataObject = { events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'], options: {}, ...params };
	const warnings: string[] = [];
	const hash = opts.signed === false ? undefined : hashOf(String(body.accountNumber), String(body.onusReference), String(body.paymentStatus));
	const ctx = {
		getRequestObject: () => ({ headers: { 'content-type': 'text/plain', ...(hash ? { hash } : {}) }, rawBody: Buffer.from(raw, 'utf8') }),
		getResponseObject: () => res,
		getBodyData: () => raw,
		getCredentials: async () => ({ webhookVerificationKey: KEY }),
		getNodeParameter: (name: string, fallback: unknown) => (name in all ? all[name] : fallback),
		getMode: () => opts.mode ?? 'webhook',
		getWorkflow: () => ({ id: 'wf-confirm' }),
		getNode: () => ({ id: 'node-c', name: 'PayOnUs Trigger', typeVersion: 1 }),
		getWorkflowStaticData: () => ({}),
		logger: { warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined, debug: () => undefined },
	};
	const result = await new PayOnUsTrigger().webhook.call(ctx as never);
	const verified = result.workflowData?.[0]?.map((i) => i.json) ?? [];
	const notConfirmed = result.workflowData?.[1]?.map((i) => i.json) ?? [];
	return { result, response, verified, notConfirmed, warnings };
}

/** The service's records, by onusReference (what GET answers). */
const records = new Map<string, IDataObject>();
const calls: Array<{ path: string; qs?: IDataObject }> = [];
async function service(opts: { path: string; qs?: IDataObject }): Promise<unknown> {
	calls.push(opts);
	const record = records.get(String(opts.qs?.onusReference ?? ''));
	if (opts.path === '/api/v1/payment-requests' || opts.path === '/api/v1/transfer-requests') {
		return { content: record ? [{ ...record }] : [], lastPage: 1, totalNumberOfItems: record ? 1 : 0 };
	}
	if (opts.path.startsWith('/api/v1/payment-requests/businesses/')) {
		throw httpError(404, 'Payment request not found');
	}
	throw new Error(`unexpected ${opts.path}`);
}

beforeAll(() => {
	CONFIRM_TIMING.pauseMs = 0;
});
beforeEach(() => {
	resetSeenKeys();
	records.clear();
	calls.length = 0;
	fakeClient.request.mockReset();
	fakeClient.request.mockImplementation(service);
	fakeClient.defaults = { merchantId: 'MER-1001' };
	records.set(REF, { onusReference: REF, merchantReference: 'inv-7', reference: 'inv-7', amount: 5000, amountPaid: 5000, currency: 'NGN', businessId: 'BUS-2001', paymentStatus: 'SUCCESSFUL', accountNumber: '0123456789' });
	records.set(TRNF, { onusReference: TRNF, merchantReference: 'po-8', amount: 250, fee: 10, currency: 'NGN', businessId: 'BUS-2001', paymentStatus: 'FAILED', beneficiaryAccountNumber: '9999991113' });
});

describe('dedupe on signed fields only', () => {
	it('a captured COLLECTION resent as PAYOUT (or with another amount/business) starts nothing new', async () => {
		expect((await deliver(notification())).verified).toHaveLength(1);
		for (const over of [{ type: 'PAYOUT' }, { transactionAmount: 1 }, { businessId: 'BUS-2002' }, { type: 'PAYOUT', currency: 'USD', id: 'evt-8' }]) {
			const again = await deliver(notification(over));
			expect(again.response).toMatchObject({ status: 200, body: { duplicate: true } });
			expect(again.verified).toHaveLength(0);
			expect(again.notConfirmed).toHaveLength(0);
		}
	});

	it('also with confirmation off', async () => {
		const params = { confirmWithService: false };
		expect((await deliver(notification(), params)).verified).toHaveLength(1);
		const replay = await deliver(notification({ type: 'PAYOUT' }), params);
		expect(replay.verified).toHaveLength(0);
		expect(replay.response.body).toMatchObject({ duplicate: true });
	});
});

describe('unsigned fields are marked', () => {
	it('with confirmation off, every field outside the signature is listed in unsignedFields', async () => {
		const [item] = (await deliver(notification(), { confirmWithService: false })).verified;
		expect(item.verifiedFields).toEqual(['accountNumber', 'onusReference', 'paymentStatus']);
		expect(item.unsignedFields).toEqual(expect.arrayContaining(['type', 'currency', 'businessId', 'transactionAmount', 'amount', 'merchantReference', 'id']));
		expect(item.unsignedFields).not.toContain('onusReference');
		expect(item.amount).toBe(5000); // the record shape
	});
});

describe('Confirm with the service (on by default for COLLECTION and PAYOUT)', () => {
	it("a signed COLLECTION whose unsigned amount was tampered with emits the service's amount", async () => {
		const { verified, notConfirmed, response } = await deliver(notification({ transactionAmount: 5_000_000, currency: 'USD' }));
		expect(response).toEqual({ status: 200, body: { received: true }, answers: 1 });
		expect(notConfirmed).toEqual([]);
		expect(verified).toHaveLength(1);
		expect(verified[0]).toMatchObject({
			event: 'COLLECTION',
			confirmed: true,
			confirmedBy: 'api',
			transactionAmount: 5000,
			amount: 5000,
			currency: 'NGN',
			businessId: 'BUS-2001',
			paymentStatus: 'SUCCESSFUL',
			notificationDiffers: { transactionAmount: { notification: 5_000_000, service: 5000 }, currency: { notification: 'USD', service: 'NGN' } },
		});
		expect(verified[0].unsignedFields).not.toContain('transactionAmount');
		expect(verified[0].unsignedFields).toContain('type');
		expect(calls[0]).toMatchObject({ path: '/api/v1/payment-requests', qs: { onusReference: REF } });
	});

	it("a PAYOUT is read from the transfers with the Merchant ID and emits the service's values", async () => {
		const body = notification({ type: 'PAYOUT', onusReference: TRNF, accountNumber: '9999991113', paymentStatus: 'FAILED', transactionAmount: 1 });
		const { verified } = await deliver(body);
		expect(verified[0]).toMatchObject({ event: 'PAYOUT', amount: 250, transactionAmount: 250, fee: 10, paymentStatus: 'FAILED', confirmed: true });
		expect(calls[0]).toEqual({ method: 'GET', path: '/api/v1/transfer-requests', qs: { merchantId: 'MER-1001', onusReference: TRNF, pageNo: 1, pageSize: 30 } });
	});

	it('a status the service does not agree with goes to the Unconfirmed output (after re-reading), never to Confirmed', async () => {
		records.set(REF, { ...records.get(REF), paymentStatus: 'PENDING' });
		const { verified, notConfirmed, warnings, response } = await deliver(notification());
		expect(response.status).toBe(200);
		expect(verified).toEqual([]);
		expect(notConfirmed).toHaveLength(1);
		expect(notConfirmed[0]).toMatchObject({ confirmed: false, confirmation: { confirmed: false } });
		expect(String((notConfirmed[0].confirmation as IDataObject).reason)).toContain('the service says');
		expect(warnings.join(' ')).toContain('was not confirmed');
		expect(calls.filter((c) => c.path === '/api/v1/payment-requests')).toHaveLength(3);
		// Once the service agrees, a repeat of the notification is confirmed.
		records.set(REF, { ...records.get(REF), paymentStatus: 'SUCCESSFUL' });
		expect((await deliver(notification())).verified).toHaveLength(1);
	});

	it('a record the service does not have goes to Unconfirmed', async () => {
		records.delete(REF);
		const { verified, notConfirmed } = await deliver(notification());
		expect(verified).toEqual([]);
		expect(String((notConfirmed[0].confirmation as IDataObject).reason)).toContain('has no payin');
	});

	it('an unreachable service goes to Unconfirmed', async () => {
		fakeClient.request.mockRejectedValue(new Error('connect ECONNREFUSED'));
		const { verified, notConfirmed } = await deliver(notification());
		expect(verified).toEqual([]);
		expect(String((notConfirmed[0].confirmation as IDataObject).reason)).toContain('could not be read');
	});

	it('a PAYOUT without any Merchant ID goes to Unconfirmed, saying why', async () => {
		fakeClient.defaults = {};
		const { notConfirmed } = await deliver(notification({ type: 'PAYOUT', onusReference: TRNF, accountNumber: '9999991113', paymentStatus: 'FAILED' }));
		expect(String((notConfirmed[0].confirmation as IDataObject).reason)).toContain('no Merchant ID');
	});

	it('the business filter uses the confirmed business, not the unsigned one', async () => {
		const params = { options: { businessIds: 'BUS-2001' } };
		records.set(REF, { ...records.get(REF), businessId: 'BUS-2002' });
		expect((await deliver(notification({ businessId: 'BUS-2001' }), params)).verified).toEqual([]);
		records.set(REF, { ...records.get(REF), businessId: 'BUS-2001' });
		const ok = await deliver(notification({ businessId: 'BUS-9999' }), params);
		expect(ok.verified).toHaveLength(1);
		expect(ok.verified[0].businessId).toBe('BUS-2001');
	});
});

describe('a transfer record without businessId (spec-bare records)', () => {
	const payout = () => notification({ type: 'PAYOUT', onusReference: TRNF, accountNumber: '9999991113', paymentStatus: 'FAILED', businessId: 'BUS-2001' });
	beforeEach(() => {
		const { businessId: _b, ...bare } = records.get(TRNF)!;
		records.set(TRNF, bare);
	});

	it('the unsigned business is not passed on as confirmed', async () => {
		const [item] = (await deliver(payout())).verified;
		expect(item.confirmed).toBe(true);
		expect(item.businessId).toBeUndefined();
		expect(item.notification).toEqual({ businessId: 'BUS-2001' });
		expect(item.unsignedFields).toContain('businessId');
	});

	it('with a business filter it goes to Unconfirmed (the filter cannot be checked)', async () => {
		const { verified, notConfirmed } = await deliver(payout(), { options: { businessIds: 'BUS-2001' } });
		expect(verified).toEqual([]);
		expect(String((notConfirmed[0].confirmation as IDataObject).reason)).toContain('carries no businessId');
	});
});

describe('card tokenization confirmation', () => {
	const tokenization = (over: IDataObject = {}): IDataObject => ({
		event: 'card_tokenization_link.completed',
		cardTokenizationLinkId: 'ctl_9',
		cardTokenId: 'tok_9',
		businessId: 'BUS-2001',
		status: 'COMPLETED',
		...over,
	});

	it('works without a Merchant ID: the link read by id confirms it; the card token is marked unchecked', async () => {
		fakeClient.defaults = {};
		fakeClient.request.mockReset();
		fakeClient.request.mockResolvedValueOnce({ id: 'ctl_9', status: 'COMPLETED', businessId: 'BUS-2001', merchantReference: 'm-9' });
		const { verified, notConfirmed } = await deliver(tokenization(), {}, { signed: false });
		expect(notConfirmed).toEqual([]);
		expect(verified).toHaveLength(1);
		expect(verified[0]).toMatchObject({ verified: true, verifiedBy: 'api', cardTokenIdChecked: false, unsignedFields: ['cardTokenId'] });
		expect(fakeClient.request).toHaveBeenCalledTimes(1);
		expect(fakeClient.request).toHaveBeenCalledWith(expect.objectContaining({ path: '/api/v1/card-tokenization-links/ctl_9', qs: { businessId: 'BUS-2001' } }));
	});

	it('a link that does not confirm goes to Unconfirmed (not dropped with a log line only)', async () => {
		fakeClient.request.mockReset();
		fakeClient.request.mockResolvedValueOnce({ id: 'ctl_9', status: 'PENDING', businessId: 'BUS-2001', cardTokenId: null });
		const { verified, notConfirmed } = await deliver(tokenization(), {}, { signed: false });
		expect(verified).toEqual([]);
		expect(notConfirmed).toHaveLength(1);
		expect(notConfirmed[0]).toMatchObject({ cardTokenizationLinkId: 'ctl_9', confirmed: false, confirmation: { reason: 'link status is PENDING' } });
	});

	it('an API failure goes to Unconfirmed too', async () => {
		fakeClient.request.mockReset();
		fakeClient.request.mockRejectedValueOnce(new Error('503'));
		const { notConfirmed } = await deliver(tokenization(), {}, { signed: false });
		expect(notConfirmed).toHaveLength(1);
	});
});
