/**
 * Step 5 of the PayOnUs Trigger (confirm.ts): the service's answer judged
 * (pure), the reads it takes (a scripted client), and the whole node
 * confirming with the service (a fake transport): issue 14, point 6.
 * The judgement of a tokenization link (tokenization.ts) is in
 * tokenization.test.ts.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
import { httpError } from '../fakes/errors';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));
import { webhookRequest } from '../fakes/notifications';

import { resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';
import { CONFIRM_TIMING, confirmEvent, judgeRecord, type ConfirmContext } from '../../../nodes/PayOnUsTrigger/confirm';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';

const REF = 'ONUS-NUB-1-01012025-101010';
const body = {
	type: 'COLLECTION',
	accountNumber: '0123456789',
	onusReference: REF,
	paymentStatus: 'SUCCESSFUL',
	transactionAmount: 9_999,
	businessId: 'BUS-1',
};
const collection: Notification = { event: 'COLLECTION', body, receivedAt: new Date('2026-01-15T10:00:00Z') };
const record: IDataObject = {
	onusReference: REF,
	amount: 5000,
	currency: 'NGN',
	businessId: 'BUS-1',
	paymentStatus: 'SUCCESSFUL',
	createdDate: '2026-01-15 09:59:00',
};
const never = () => ({ known: false }) as const;

describe('judgeRecord (pure)', () => {
	it("confirmed: the service's values, confirmedBy api, with the record (it dates the claim)", () => {
		const verdict = judgeRecord(collection, { confirmed: true, record }, never, []);
		expect(verdict).toMatchObject({ kind: 'confirmed', record: { createdDate: '2026-01-15 09:59:00' } });
		const item = verdict.kind === 'confirmed' ? verdict.item : {};
		expect(item).toMatchObject({ confirmed: true, confirmedBy: 'api', verifiedBy: 'signature', transactionAmount: 5000, amount: 5000 });
		expect(item.notificationDiffers).toEqual({
			transactionAmount: { notification: 9_999, service: 5000 },
			amount: { notification: 9_999, service: 5000 },
		});
		expect(item.unsignedFields).not.toContain('transactionAmount');
	});

	it('not confirmed: the reason, and the record when there is one', () => {
		expect(judgeRecord(collection, { confirmed: false, reason: 'the service has no payin X' }, never, [])).toMatchObject({
			kind: 'notConfirmed',
			reason: 'the service has no payin X',
			item: { event: 'COLLECTION', verifiedBy: 'signature' },
		});
		const other = { ...record, paymentStatus: 'PENDING' };
		const verdict = judgeRecord(collection, { confirmed: false, reason: 'differs', record: other }, never, []);
		expect(verdict).toMatchObject({ kind: 'notConfirmed', item: { serviceRecord: other } });
		expect(judgeRecord(collection, { confirmed: false }, never, [])).toMatchObject({ reason: 'not confirmed' });
	});

	it("last changed on or before the memory's horizon: not started again, with why", () => {
		const judge = jest.fn(() => ({ known: true, reason: 'it may have been handled already' }) as const);
		const verdict = judgeRecord(collection, { confirmed: true, record }, judge, ['BUS-9']);
		expect(judge).toHaveBeenCalledWith(expect.objectContaining({ onusReference: REF, createdDate: '2026-01-15 09:59:00' }));
		expect(verdict).toMatchObject({
			kind: 'notConfirmed',
			item: { serviceRecord: record },
			reason: `not started again: it may have been handled already. Check your records for ${REF}`,
		});
	});

	it("Only Business IDs against the service's business", () => {
		expect(judgeRecord(collection, { confirmed: true, record }, never, ['BUS-1'])).toMatchObject({ kind: 'confirmed' });
		expect(judgeRecord(collection, { confirmed: true, record }, never, ['BUS-2'])).toEqual({ kind: 'otherBusiness', businessId: 'BUS-1' });
		const noBusiness = { ...record, businessId: null };
		const verdict = judgeRecord(collection, { confirmed: true, record: noBusiness }, never, ['BUS-1']);
		expect(verdict).toMatchObject({ kind: 'notConfirmed', reason: expect.stringContaining('carries no businessId') });
		// The item as received: the record did not confirm the business.
		expect(verdict.kind === 'notConfirmed' ? verdict.item.serviceRecord : 'other').toBeUndefined();
	});
});

describe('confirmEvent (reads)', () => {
	const request = jest.fn();
	const client = { request, paginate: jest.fn(), environment: 'custom', defaults: {} };
	const context = (over: Partial<ConfirmContext> = {}): ConfirmContext => ({
		client: async () => client as never,
		merchantId: () => 'MER-1',
		judge: never,
		recheck: false,
		...over,
	});
	const page = (content: IDataObject[]) => ({ content, lastPage: 1, totalNumberOfItems: content.length });
	beforeAll(() => {
		CONFIRM_TIMING.pauseMs = 0;
	});
	beforeEach(() => request.mockReset());

	it('re-reads a record in another status CONFIRM_TIMING.attempts times; a held copy once', async () => {
		request.mockResolvedValue(page([{ ...record, paymentStatus: 'PENDING' }]));
		const route = { check: 'record' as const, businessIds: [] };
		expect(await confirmEvent(collection, route, context())).toMatchObject({ kind: 'notConfirmed' });
		expect(request).toHaveBeenCalledTimes(CONFIRM_TIMING.attempts);
		request.mockClear();
		await confirmEvent(collection, route, context({ recheck: true }));
		expect(request).toHaveBeenCalledTimes(1);
	});

	it('a client that cannot be had is "could not be read"', async () => {
		const verdict = await confirmEvent(collection, { check: 'record', businessIds: [] }, context({
			client: async () => Promise.reject(new Error('no credential')),
		}));
		expect(verdict).toMatchObject({ kind: 'notConfirmed', reason: 'the service could not be read (no credential)' });
	});

	it('a tokenization event is confirmed by its link; a link PayOnUs does not have is forged', async () => {
		const link: Notification = {
			event: 'card_tokenization_link.completed',
			body: { event: 'card_tokenization_link.completed', cardTokenizationLinkId: 'ctl_1', businessId: 'BUS-1', status: 'COMPLETED', cardTokenId: 'tok' },
			receivedAt: new Date(0),
		};
		request.mockResolvedValue({ id: 'ctl_1', businessId: 'BUS-1', status: 'COMPLETED', cardTokenId: 'tok' });
		expect(await confirmEvent(link, { check: 'link', businessIds: [] }, context())).toMatchObject({
			kind: 'confirmed',
			item: { verifiedBy: 'api' },
		});
		request.mockRejectedValue(httpError(404, '404 Not Found'));
		expect(await confirmEvent(link, { check: 'link', businessIds: [] }, context())).toEqual({ kind: 'forged' });
	});
});

describe('the node confirming with the service (issue 14, point 6)', () => {
	/**
	 * Issue 14, point 6: the webhook trigger dedupes on signed fields only, marks
	 * unsigned fields, confirms COLLECTION/PAYOUT with the service (and filters
	 * on the confirmed business), and never drops a tokenization event silently.
	 * Each case failed on f732b35.
	 */
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
		const out = await webhookRequest({
			body,
			hash: opts.signed === false ? undefined : hashOf(String(body.accountNumber), String(body.onusReference), String(body.paymentStatus)),
			params: { events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'], options: {}, ...params },
			mode: opts.mode,
			key: KEY,
			workflowId: 'wf-confirm',
			nodeId: 'node-c',
		});
		return { result: out.result, response: out.response, verified: out.confirmed, notConfirmed: out.notConfirmed, warnings: out.warnings };
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
});
