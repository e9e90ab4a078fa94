import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
import { httpError } from '../fakes/errors';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));
import { webhookRequest } from '../fakes/notifications';

import { PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';
import { classify } from '../../../nodes/PayOnUsTrigger/notification';
import { parseBody, MAX_BODY_BYTES } from '../../../nodes/PayOnUsTrigger/read';
import { confirmLink } from '../../../nodes/PayOnUsTrigger/tokenization';

const KEY = 'whk-test-key';
const hashOf = (a: string, r: string, s: string, key = KEY) =>
	createHash('sha256').update(a + r + s + key).digest('hex');

function collection(over: IDataObject = {}): IDataObject {
	return {
		id: 'evt-1',
		type: 'COLLECTION',
		currency: 'NGN',
		businessId: 'BUS-2001',
		accountNumber: '0123456789',
		onusReference: 'ONUS-NUB-1000000000001-01012025-101010',
		paymentStatus: 'SUCCESSFUL',
		paymentChannel: 'BANK_TRANSFER',
		transactionAmount: 5000,
		merchantReference: 'inv-1',
		...over,
	};
}

interface Call {
	body: IDataObject | string;
	hash?: string;
	contentType?: string;
	params?: IDataObject;
	mode?: string;
	staticData?: IDataObject;
	key?: string;
	nodeId?: string;
	/** The service does not know the event's record. */
	noServiceRecord?: boolean;
}

async function deliver(call: Call) {
	if (typeof call.body === 'object' && !call.noServiceRecord) knowFromNotification(call.body);
	const out = await webhookRequest({
		body: call.body,
		hash: call.hash,
		contentType: call.contentType,
		params: {
			events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'],
			options: {},
			confirmTokenization: true,
			...(call.params ?? {}),
		},
		mode: call.mode,
		staticData: call.staticData,
		key: call.key ?? KEY,
		nodeId: call.nodeId,
	});
	return { result: out.result, response: out.response, items: out.confirmed, staticData: out.staticData, warnings: out.warnings };
}

/**
 * The service behind the fake client: it knows every payin and transfer a
 * signed test notification names, as the latest notification describes it (so the
 * tests written before "Confirm with the service" run with it on, as new
 * nodes do). Tests of the confirmation itself script their own answers.
 */
const serviceRecords = new Map<string, IDataObject>();
function knowFromNotification(body: IDataObject): void {
	if (typeof body.onusReference !== 'string') return;
	serviceRecords.set(body.onusReference, {
		onusReference: body.onusReference,
		merchantReference: body.merchantReference,
		amount: body.transactionAmount,
		currency: body.currency,
		businessId: body.businessId,
		paymentStatus: body.paymentStatus,
		accountNumber: body.accountNumber,
	});
}
async function service(opts: { path: string; qs?: IDataObject }): Promise<unknown> {
	const ref = String(opts.qs?.onusReference ?? '');
	const record = serviceRecords.get(ref);
	if (opts.path === '/api/v1/payment-requests' || opts.path === '/api/v1/transfer-requests') {
		return { content: record ? [{ ...record }] : [], lastPage: 1, totalNumberOfItems: record ? 1 : 0 };
	}
	if (opts.path.startsWith('/api/v1/payment-requests/businesses/')) {
		if (!record) throw httpError(404, '404 not found');
		return { ...record };
	}
	throw new Error(`unexpected call ${opts.path}`);
}

beforeEach(() => {
	resetSeenKeys();
	serviceRecords.clear();
	fakeClient.request.mockReset();
	fakeClient.request.mockImplementation(service);
	fakeClient.defaults = { merchantId: 'MER-1001' };
});

describe('PayOnUs Trigger: signed events', () => {
	it('starts the workflow for a correctly signed COLLECTION sent as text/plain', async () => {
		const body = collection();
		const { result, response, items } = await deliver({ body, hash: hashOf('0123456789', body.onusReference as string, 'SUCCESSFUL') });
		// Answered by the node itself, before n8n creates the execution; n8n must not answer again.
		expect(response).toEqual({ status: 200, body: { received: true }, answers: 1 });
		expect(result.noWebhookResponse).toBe(true);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ ...body, event: 'COLLECTION', verified: true, verifiedBy: 'signature' });
		expect(typeof items[0].receivedAt).toBe('string');
		expect(JSON.stringify(items[0])).not.toContain(KEY);
		expect(JSON.stringify(items[0])).not.toContain(hashOf('0123456789', body.onusReference as string, 'SUCCESSFUL'));
	});

	it('accepts application/json too', async () => {
		const body = collection({ type: 'PAYOUT', paymentStatus: 'FAILED' });
		const { items } = await deliver({
			body,
			contentType: 'application/json',
			hash: hashOf('0123456789', body.onusReference as string, 'FAILED'),
		});
		expect(items[0]).toMatchObject({ event: 'PAYOUT', paymentStatus: 'FAILED' });
	});

	it.each([
		['no hash', undefined],
		['wrong hash', 'a'.repeat(64)],
		['hash under another key', hashOf('0123456789', 'ONUS-NUB-1000000000001-01012025-101010', 'SUCCESSFUL', 'other-key')],
		['hash of another event', hashOf('0123456789', 'ONUS-NUB-1000000000002-01012025-101010', 'SUCCESSFUL')],
		['hash of the same event in another status', hashOf('0123456789', 'ONUS-NUB-1000000000001-01012025-101010', 'FAILED')],
	])('answers 401 and starts nothing: %s', async (_name, hash) => {
		const { result, response, items } = await deliver({ body: collection(), hash });
		expect(response.status).toBe(401);
		expect(result.noWebhookResponse).toBe(true);
		expect(items).toHaveLength(0);
	});

	it('answers 401 for a REFUND without a valid hash (refunds are signed like payouts)', async () => {
		const { response } = await deliver({ body: collection({ type: 'REFUND' }), hash: 'b'.repeat(64) });
		expect(response.status).toBe(401);
	});

	it('fails the notification with the missing key named when the credential has no key, even for a hash computed with an empty key', async () => {
		const body = collection();
		// thrown, so n8n answers 500 and lists a failed execution naming the missing key; nothing is answered 2xx
		await expect(
			deliver({ body, key: '', hash: hashOf('0123456789', body.onusReference as string, 'SUCCESSFUL', '') }),
		).rejects.toThrow(/no Webhook Verification Key/);
	});

	it.each([
		['malformed JSON', '{"type":"COLLECTION",'],
		['empty body', ''],
		['a JSON array', '[1,2]'],
		['a JSON string', '"COLLECTION"'],
		['an unknown event', JSON.stringify({ type: 'SOMETHING', onusReference: 'x' })],
		['an oversized body', JSON.stringify({ ...collection(), pad: 'x'.repeat(MAX_BODY_BYTES) })],
	])('answers 400 and starts nothing: %s', async (_name, body) => {
		const { response, items } = await deliver({ body, hash: 'a'.repeat(64) });
		expect(response.status).toBe(400);
		expect(items).toHaveLength(0);
	});
});

describe('PayOnUs Trigger: filters and repeats', () => {
	const signed = (over: IDataObject = {}) => {
		const body = collection(over);
		return { body, hash: hashOf(String(body.accountNumber), String(body.onusReference), String(body.paymentStatus)) };
	};

	it('ignores events that are not selected, after verifying them', async () => {
		const { response, items } = await deliver({ ...signed(), params: { events: ['PAYOUT'] } });
		expect(response.status).toBe(200);
		expect(items).toHaveLength(0);
		const forged = await deliver({ body: collection(), hash: 'c'.repeat(64), params: { events: ['PAYOUT'] } });
		expect(forged.response.status).toBe(401);
	});

	it('filters on status and business', async () => {
		const params = { statuses: ['SUCCESSFUL'], options: { businessIds: 'BUS-2001, BUS-2002' } };
		expect((await deliver({ ...signed({ paymentStatus: 'FAILED' }), params })).items).toHaveLength(0);
		expect((await deliver({ ...signed({ businessId: 'BUS-9' }), params })).items).toHaveLength(0);
		expect((await deliver({ ...signed({ businessId: 'BUS-2002' }), params })).items).toHaveLength(1);
	});

	it('suppresses a repeated delivery of the same event, but not a new status of it', async () => {
		const first = await deliver(signed({ paymentStatus: 'PENDING' }));
		const again = await deliver(signed({ paymentStatus: 'PENDING' }));
		const changed = await deliver(signed({ paymentStatus: 'SUCCESSFUL' }));
		expect(first.items).toHaveLength(1);
		expect(again.items).toHaveLength(0);
		expect(again.response).toMatchObject({ status: 200, body: { duplicate: true } });
		expect(changed.items).toHaveLength(1);
	});

	it('lets exactly one of many concurrent identical deliveries through', async () => {
		const results = await Promise.all(Array.from({ length: 20 }, () => deliver(signed())));
		expect(results.filter((r) => r.items.length === 1)).toHaveLength(1);
		// Every copy gets exactly one answer from the node, and never an empty one.
		expect(results.map((r) => r.response.answers)).toEqual(Array(20).fill(1));
		expect(results.every((r) => r.result.noWebhookResponse === true)).toBe(true);
		expect(results.filter((r) => (r.response.body as IDataObject).duplicate === true)).toHaveLength(19);
	});

	it('answers every outcome itself, exactly once, so n8n never answers after the execution is created', async () => {
		const outcomes = [
			await deliver(signed()), // accepted
			await deliver(signed()), // duplicate
			await deliver({ ...signed({ paymentStatus: 'FAILED' }), params: { statuses: ['SUCCESSFUL'] } }), // ignored
			await deliver({ body: collection(), hash: 'd'.repeat(64) }), // 401
			await deliver({ body: '{', hash: 'd'.repeat(64) }), // 400
		];
		expect(outcomes.map((o) => [o.response.status, o.response.answers, o.result.noWebhookResponse, o.items.length])).toEqual([
			[200, 1, true, 1],
			[200, 1, true, 0],
			[200, 1, true, 0],
			[401, 1, true, 0],
			[400, 1, true, 0],
		]);
	});

	it('keeps separate memories per node and per mode (test events do not swallow production ones)', async () => {
		expect((await deliver({ ...signed(), mode: 'manual' })).items).toHaveLength(1);
		expect((await deliver({ ...signed() })).items).toHaveLength(1);
		expect((await deliver({ ...signed(), nodeId: 'node-2' })).items).toHaveLength(1);
	});

	it('writes recent keys to static data in production and honours them after a restart', async () => {
		const staticData: IDataObject = {};
		await deliver({ ...signed(), staticData });
		expect(Array.isArray(staticData.seenChanges)).toBe(true);
		expect(JSON.stringify(staticData)).not.toContain(KEY);
		resetSeenKeys(); // a restart: process memory gone, static data kept
		const again = await deliver({ ...signed(), staticData });
		expect(again.items).toHaveLength(0);
	});

	it('does not touch static data for test (manual) deliveries', async () => {
		const staticData: IDataObject = {};
		await deliver({ ...signed(), staticData, mode: 'manual' });
		expect(staticData).toEqual({});
	});
});

describe('PayOnUs Trigger: card tokenization', () => {
	const tokenization = (over: IDataObject = {}): IDataObject => ({
		event: 'card_tokenization_link.completed',
		cardTokenizationLinkId: 'ctl_1',
		cardTokenId: 'tok_1',
		businessId: 'BUS-2001',
		status: 'COMPLETED',
		...over,
	});

	it('answers 200 first, confirms through the API, then starts the workflow', async () => {
		fakeClient.request.mockResolvedValueOnce({ id: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-2001', cardTokenId: 'tok_1' });
		const { response, result, items } = await deliver({ body: tokenization() });
		expect(response.status).toBe(200);
		expect(result.noWebhookResponse).toBe(true);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ event: 'card_tokenization_link.completed', verified: true, verifiedBy: 'api' });
		expect(fakeClient.request).toHaveBeenCalledWith(
			expect.objectContaining({ method: 'GET', path: '/api/v1/card-tokenization-links/ctl_1', qs: { businessId: 'BUS-2001' } }),
		);
	});

	it('falls back to the link search when the record by id has no cardTokenId', async () => {
		fakeClient.request
			.mockResolvedValueOnce({ id: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-2001' })
			.mockResolvedValueOnce({ content: [{ id: 'ctl_1', status: 'COMPLETED', cardTokenId: 'tok_1' }] });
		const { items } = await deliver({ body: tokenization() });
		expect(items).toHaveLength(1);
	});

	it.each([
		['link still pending', { id: 'ctl_1', status: 'PENDING', businessId: 'BUS-2001', cardTokenId: null }],
		['another card token', { id: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-2001', cardTokenId: 'tok_other' }],
		['another business', { id: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-2002', cardTokenId: 'tok_1' }],
	])('starts nothing when the API does not confirm: %s', async (_n, link) => {
		fakeClient.request.mockResolvedValueOnce(link);
		const { items, warnings } = await deliver({ body: tokenization() });
		expect(items).toHaveLength(0);
		expect(warnings.join(' ')).toContain('not confirmed');
	});

	it('starts nothing when the API call fails (and a forged event cannot block the genuine one)', async () => {
		fakeClient.request.mockRejectedValueOnce(new Error('404 not found'));
		expect((await deliver({ body: tokenization() })).items).toHaveLength(0);
		fakeClient.request.mockResolvedValueOnce({ id: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-2001', cardTokenId: 'tok_1' });
		expect((await deliver({ body: tokenization() })).items).toHaveLength(1);
	});

	it('rejects a malformed link id with 400 before any API call', async () => {
		const { response } = await deliver({ body: tokenization({ cardTokenizationLinkId: '../../admin' }) });
		expect(response.status).toBe(400);
		expect(fakeClient.request).not.toHaveBeenCalled();
	});

	it.each([[''], ['yes'], [undefined]])(
		'Confirm Tokenization from an expression giving %j (no clear yes/no) confirms through the API, and the log says why',
		async (value) => {
			fakeClient.request.mockResolvedValueOnce({ id: 'ctl_1', status: 'COMPLETED', businessId: 'BUS-2001', cardTokenId: 'tok_1' });
			const { items, warnings } = await deliver({ body: tokenization(), params: { confirmTokenization: value } });
			// The link read, then its card token's (the completion's date, rule 3): nothing else.
			expect(fakeClient.request.mock.calls.map(([call]) => (call as { path: string }).path)).toEqual([
				'/api/v1/card-tokenization-links/ctl_1',
				'/api/v1/card-tokens',
			]);
			expect(items[0]).toMatchObject({ verified: true, verifiedBy: 'api' });
			expect(warnings.join(' ')).toMatch(/"confirmTokenization" must be true or false, got .*confirming with the service as if it were on/);
		},
	);

	it('Confirm Tokenization from an expression giving the text " FALSE " is off, as the boolean false', async () => {
		const { items } = await deliver({ body: tokenization(), params: { confirmTokenization: ' FALSE ' } });
		expect(fakeClient.request).not.toHaveBeenCalled();
		expect(items[0]).toMatchObject({ verified: false, verifiedBy: 'none' });
	});

	it('with confirmation off: starts without an API call and says it is unverified', async () => {
		const { items, response, result } = await deliver({ body: tokenization(), params: { confirmTokenization: false } });
		expect(fakeClient.request).not.toHaveBeenCalled();
		expect(items[0]).toMatchObject({ verified: false, verifiedBy: 'none' });
		expect(response).toEqual({ status: 200, body: { received: true }, answers: 1 });
		expect(result.noWebhookResponse).toBe(true);
	});
});

describe('PayOnUs Trigger: activation', () => {
	// n8n >= 2.3x activates in the background: a refusal there never reaches the user
	// and leaves the webhook answering 404, so the key is checked per notification.
	it('activates with or without a verification key (a missing key fails each notification instead)', async () => {
		const node = new PayOnUsTrigger();
		const hook = (key: unknown) => ({
			getCredentials: async () => ({ webhookVerificationKey: key }),
			getNode: () => ({ name: 'PayOnUs Trigger', typeVersion: 1 }),
			getMode: () => 'trigger',
		});
		await expect(node.webhookMethods.default.checkExists.call(hook('') as never)).resolves.toBe(false);
		await expect(node.webhookMethods.default.create.call(hook(undefined) as never)).resolves.toBe(true);
		await expect(node.webhookMethods.default.checkExists.call(hook('k') as never)).resolves.toBe(false);
		await expect(node.webhookMethods.default.create.call(hook('k') as never)).resolves.toBe(true);
	});
});

describe('delivery helpers', () => {
	it('classifies events', () => {
		expect(classify({ type: 'collection' })).toBe('COLLECTION');
		expect(classify({ type: 'PAYOUT' })).toBe('PAYOUT');
		expect(classify({ type: 'REFUND_COMPLETED' })).toBe('REFUND');
		expect(classify({ event: 'card_tokenization_link.completed' })).toBe('card_tokenization_link.completed');
		expect(classify({ type: 42 } as never)).toBeUndefined();
	});

	it('parses a parsed object when there are no raw bytes', () => {
		expect(parseBody(undefined, { type: 'PAYOUT' })).toEqual({ ok: true, body: { type: 'PAYOUT' } });
		expect(parseBody(undefined, undefined)).toMatchObject({ ok: false });
		expect(parseBody(undefined, {}, MAX_BODY_BYTES + 1)).toMatchObject({ ok: false, rejection: { status: 400 } });
	});

	it('confirmLink needs every condition', () => {
		const body = { cardTokenizationLinkId: 'l', cardTokenId: 't', businessId: 'b' };
		expect(confirmLink(body, { id: 'l', status: 'COMPLETED', businessId: 'b', cardTokenId: 't' }).confirmed).toBe(true);
		expect(confirmLink(body, undefined).confirmed).toBe(false);
		expect(confirmLink(body, { id: 'l', status: 'COMPLETED', businessId: 'b' }).confirmed).toBe(false);
	});
});
