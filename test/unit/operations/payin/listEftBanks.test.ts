import { listEftBanks as op } from '../../../../nodes/PayOnUs/resources/payin/listEftBanks';
import { context, FakeClient, httpError } from '../../fakes';
import { parsed, problem } from './helpers';

const PATH = '/api/v1/eft-payment/banks';
const banks = [
	{ code: '632005', name: 'ABSA Bank' },
	{ code: '250655', name: 'First National Bank' },
];

describe('payin: list EFT banks', () => {
	it('returns one record per bank', async () => {
		const client = new FakeClient().respond('GET', PATH, banks);
		expect(await op.execute(context(client), {})).toEqual(banks);
		expect(client.requests[0]).toEqual({ method: 'GET', path: PATH });
	});
});

describe('List EFT Banks', () => {
	it('is a read-only operation of the payin resource, without paging or fields, one item per bank', () => {
		expect(op.value).toBe('listEftBanks');
		expect(op.name).toBe('Get Many EFT Banks');
		expect(op.effect).toBe('read');
		expect(op.paging).toBe(false);
		expect(op.money).toBeUndefined();
		expect(op.properties).toEqual([]);
		expect(op.aggregatesItems({})).toBe(false);
	});

	it('takes no input: an empty item is valid, and stray fields are dropped before sending', async () => {
		expect(problem(op.schema, {})).toBe('');
		expect(parsed(op.schema, { businessId: 'BUS-2001', currency: 'ZAR' })).toEqual({});
		const client = new FakeClient().respond('GET', PATH, banks);
		await op.execute(context(client), parsed(op.schema, { currency: 'ZAR' }));
		// one call, no query and no body: the list is the same for every item
		expect(client.requests).toEqual([{ method: 'GET', path: PATH }]);
	});

	it('reads a paged answer too, and no answer as no banks', async () => {
		const paged = new FakeClient().respond('GET', PATH, { content: banks, totalElements: 2 });
		expect(await op.execute(context(paged), parsed(op.schema, {}))).toEqual(banks);
		for (const answer of [null, undefined, {}, { content: null }]) {
			const empty = new FakeClient().respond('GET', PATH, answer);
			expect(await op.execute(context(empty), parsed(op.schema, {}))).toEqual([]);
		}
	});

	it("lets the client's error through as it is (the transport words it)", async () => {
		const original = httpError(503);
		const client = new FakeClient().respond('GET', PATH, () => {
			throw original;
		});
		await expect(op.execute(context(client), parsed(op.schema, {}))).rejects.toBe(original);
		expect(client.requests).toHaveLength(1);
	});
});
