/**
 * The PayOnUs Trigger's reads of the service (service.ts), alone, with a
 * scripted client: which calls each read makes, what "the service has no
 * such record" is (undefined) and what is thrown to the caller (anything
 * else). confirm.test.ts covers how the confirmation uses them.
 */
import { isNotFound, readPayin, readTokenizationLink, readTransfer } from '../../../nodes/PayOnUsTrigger/service';
import { FakeClient, httpError } from '../fakes';

const REF = 'ONUS-NUB-1000000000077-01012025-101010';
const PAYINS = '/api/v1/payment-requests';
const OF_BUSINESS = '/api/v1/payment-requests/businesses/BUS-2001';
const payin = { onusReference: REF, paymentStatus: 'SUCCESSFUL', businessId: 'BUS-2001' };

describe('isNotFound', () => {
	it("is the transport's 404 only", () => {
		expect(isNotFound(httpError(404))).toBe(true);
		for (const other of [httpError(400), httpError(410), httpError(500), new Error('404'), { status: 404 }, undefined]) {
			expect(isNotFound(other)).toBe(false);
		}
	});
});

describe('readPayin', () => {
	it('finds the payin by the documented onusReference filter, one page, and reads nothing else', async () => {
		const client = new FakeClient().respond('GET', PAYINS, { content: [{ onusReference: 'ONUS-OTHER' }, payin] });
		expect(await readPayin(client, REF, 'BUS-2001')).toEqual(payin);
		expect(client.requests).toHaveLength(1);
		expect(client.requests[0]).toMatchObject({ method: 'GET', path: PAYINS, qs: { onusReference: REF } });
	});

	it("not in the list: the business's status query, when the notification names a safe business ID", async () => {
		const client = new FakeClient().respond('GET', PAYINS, { content: [] }).respond('GET', OF_BUSINESS, payin);
		expect(await readPayin(client, REF, 'BUS-2001')).toEqual(payin);
		expect(client.requests[1]).toEqual({ method: 'GET', path: OF_BUSINESS, qs: { onusReference: REF } });
	});

	it('not in the list and no usable business: undefined, with one call only', async () => {
		for (const hint of [undefined, '', '../BUS-2001', 'BUS 2001']) {
			const client = new FakeClient().respond('GET', PAYINS, { content: [] });
			expect(await readPayin(client, REF, hint)).toBeUndefined();
			expect(client.requests).toHaveLength(1);
		}
	});

	it("the business's answer counts only when it is the same payin; its 404 is undefined", async () => {
		const other = new FakeClient().respond('GET', PAYINS, { content: [] }).respond('GET', OF_BUSINESS, { ...payin, onusReference: 'ONUS-OTHER' });
		expect(await readPayin(other, REF, 'BUS-2001')).toBeUndefined();
		const empty = new FakeClient().respond('GET', PAYINS, { content: [] }).respond('GET', OF_BUSINESS, null);
		expect(await readPayin(empty, REF, 'BUS-2001')).toBeUndefined();
		const missing = new FakeClient().respond('GET', PAYINS, { content: [] }).respond('GET', OF_BUSINESS, () => {
			throw httpError(404);
		});
		expect(await readPayin(missing, REF, 'BUS-2001')).toBeUndefined();
	});

	it('any other failure is thrown to the caller as it is (its "could not be read")', async () => {
		const outage = httpError(503);
		const business = new FakeClient().respond('GET', PAYINS, { content: [] }).respond('GET', OF_BUSINESS, () => {
			throw outage;
		});
		await expect(readPayin(business, REF, 'BUS-2001')).rejects.toBe(outage);
		const down = new Error('connect ECONNREFUSED');
		const list = new FakeClient().respond('GET', PAYINS, () => {
			throw down;
		});
		await expect(readPayin(list, REF, 'BUS-2001')).rejects.toBe(down);
	});
});

describe('readTransfer', () => {
	it("finds the transfer among the merchant's transfers by onusReference, one page of 30", async () => {
		const transfer = { onusReference: 'ONUS-TRNF-1', paymentStatus: 'FAILED' };
		const client = new FakeClient().respond('GET', '/api/v1/transfer-requests', { content: [{ onusReference: 'ONUS-TRNF-0' }, transfer] });
		expect(await readTransfer(client, 'MER-1001', 'ONUS-TRNF-1')).toEqual(transfer);
		expect(client.requests).toEqual([
			{ method: 'GET', path: '/api/v1/transfer-requests', qs: { merchantId: 'MER-1001', onusReference: 'ONUS-TRNF-1', pageNo: 1, pageSize: 30 } },
		]);
		expect(await readTransfer(client, 'MER-1001', 'ONUS-TRNF-9')).toBeUndefined();
	});
});

describe('readTokenizationLink', () => {
	const LINK = '/api/v1/card-tokenization-links/ctl_9';
	const LINKS = '/api/v1/card-tokenization-links';

	it('reads the link by id with its business; a link carrying its card token needs nothing more', async () => {
		const link = { id: 'ctl_9', status: 'COMPLETED', cardTokenId: 'tok_9' };
		const client = new FakeClient().respond('GET', LINK, link);
		expect(await readTokenizationLink(client, 'ctl_9', 'BUS-2001', 'MER-1001')).toEqual(link);
		expect(client.requests).toEqual([{ method: 'GET', path: LINK, qs: { businessId: 'BUS-2001' } }]);
	});

	it("without its card token: with a Merchant ID, the card token and status from the merchant's link search", async () => {
		const client = new FakeClient()
			.respond('GET', LINK, { id: 'ctl_9', status: 'PENDING', cardTokenId: null, businessId: 'BUS-2001' })
			.respond('GET', LINKS, { content: [{ id: 'ctl_9', status: 'COMPLETED', cardTokenId: 'tok_9' }] });
		expect(await readTokenizationLink(client, 'ctl_9', 'BUS-2001', 'MER-1001')).toEqual({
			id: 'ctl_9',
			status: 'COMPLETED',
			cardTokenId: 'tok_9',
			businessId: 'BUS-2001',
		});
		expect(client.requests[1]).toMatchObject({ method: 'GET', path: LINKS, qs: { merchantId: 'MER-1001', id: 'ctl_9' } });
	});

	it('without a Merchant ID, or when the search does not list it, the link as read by id', async () => {
		const bare = { id: 'ctl_9', status: 'COMPLETED' };
		const alone = new FakeClient().respond('GET', LINK, bare);
		expect(await readTokenizationLink(alone, 'ctl_9', 'BUS-2001', undefined)).toEqual(bare);
		expect(alone.requests).toHaveLength(1);
		const unlisted = new FakeClient().respond('GET', LINK, bare).respond('GET', LINKS, { content: [{ id: 'ctl_8', cardTokenId: 'tok_8' }] });
		expect(await readTokenizationLink(unlisted, 'ctl_9', 'BUS-2001', 'MER-1001')).toEqual(bare);
	});

	it('a 404 is thrown, not turned into undefined (the caller tells a made-up link from an outage)', async () => {
		const notFound = httpError(404);
		const client = new FakeClient().respond('GET', LINK, () => {
			throw notFound;
		});
		await expect(readTokenizationLink(client, 'ctl_9', 'BUS-2001', 'MER-1001')).rejects.toBe(notFound);
	});
});
