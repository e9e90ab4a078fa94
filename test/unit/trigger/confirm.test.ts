/**
 * Step 5 of the PayOnUs Trigger (confirm.ts, tokenization.ts): the service's
 * answer judged (pure), and the reads it takes (a scripted client).
 */
import type { IDataObject } from 'n8n-workflow';
import { httpError } from '../fakes/errors';
import { CONFIRM_TIMING, confirmEvent, judgeRecord, type ConfirmContext } from '../../../nodes/PayOnUsTrigger/confirm';
import { judgeLink } from '../../../nodes/PayOnUsTrigger/tokenization';
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

describe('judgeLink (pure)', () => {
	const link: Notification = {
		event: 'card_tokenization_link.completed',
		body: { event: 'card_tokenization_link.completed', cardTokenizationLinkId: 'ctl_1', businessId: 'BUS-1', cardTokenId: 'tok' },
		receivedAt: new Date(0),
	};

	it('confirmed; with the card token unchecked it says so on the item', () => {
		expect(judgeLink(link, { confirmed: true, tokenChecked: true })).toMatchObject({ kind: 'confirmed', item: { verified: true } });
		const unchecked = judgeLink(link, { confirmed: true, tokenChecked: false });
		expect(unchecked).toMatchObject({
			kind: 'confirmed',
			cardTokenUnchecked: true,
			item: { unsignedFields: ['cardTokenId'], cardTokenIdChecked: false },
		});
	});

	it('a missing link is forged; any other refusal is Unconfirmed with the item as received', () => {
		expect(judgeLink(link, { confirmed: false, reason: 'link not found' })).toEqual({ kind: 'forged' });
		expect(judgeLink(link, { confirmed: false, reason: 'x', forged: true })).toEqual({ kind: 'forged' });
		expect(judgeLink(link, { confirmed: false, reason: 'card token differs' })).toMatchObject({
			kind: 'notConfirmed',
			reason: 'card token differs',
			item: { verified: false, verifiedBy: 'none' },
		});
	});
});
