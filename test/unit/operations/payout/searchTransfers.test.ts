import { searchTransfers } from '../../../../nodes/PayOnUs/resources/payout/searchTransfers';
import { context, fakeClient } from '../../fakes';
import { parse } from './schemaHelpers';

describe('searchTransfers', () => {
	const raw = { merchantId: '', returnAll: false, limit: 5, filters: {} };
	it('pages from 1 with the filters and a limit', async () => {
		const records = [
			{ merchantReference: 'a', onusReference: 'O1', paymentStatus: 'PENDING' },
			{ merchantReference: 'b', onusReference: 'O2', paymentStatus: 'FAILED' },
		];
		const client = fakeClient(undefined, undefined, () => records);
		const input = parse(searchTransfers.schema, {
			...raw,
			filters: { status: 'PENDING', fromDate: '2024-05-01T00:00:00.000Z', toDate: '2024-05-31', businessId: 'BUS-2001' },
		});
		if (!input.ok) throw new Error(input.message);
		expect(await searchTransfers.execute(context(client), input.data)).toEqual([records[0]]);
		expect(client.pages).toEqual([
			{
				path: '/api/v1/transfer-requests',
				qs: { merchantId: 'MER-1001', status: 'PENDING', fromDate: '2024-05-01', toDate: '2024-05-31', businessId: 'BUS-2001' },
				style: 'fromOne',
				returnAll: false,
				limit: 5,
			},
		]);
	});

	it('returns all when asked', async () => {
		const client = fakeClient(undefined, undefined, () => []);
		const input = parse(searchTransfers.schema, { ...raw, returnAll: true });
		if (!input.ok) throw new Error(input.message);
		await searchTransfers.execute(context(client), input.data);
		expect(client.pages[0]).toMatchObject({ returnAll: true, limit: undefined });
	});

	it.each([
		[{ limit: 0 }, '"limit" must be at least 1'],
		[{ limit: 2.5 }, '"limit" must be a whole number'],
		[{ filters: { status: 'DONE' } }, '"filters.status" must be one of PENDING, SUCCESSFUL, FAILED'],
		[{ filters: { fromDate: '2024-02-30' } }, '"filters.fromDate" must be a date written YYYY-MM-DD'],
		[{ merchantId: 'M 1' }, '"merchantId" must be an identifier'],
	])('refuses %j', (patch, message) => {
		const r = parse(searchTransfers.schema, { ...raw, ...patch });
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toContain(message);
	});

	it('refuses a reversed date range and a missing merchant', async () => {
		const input = parse(searchTransfers.schema, { ...raw, filters: { fromDate: '2024-06-01', toDate: '2024-05-01' } });
		if (!input.ok) throw new Error(input.message);
		await expect(searchTransfers.execute(context(fakeClient()), input.data)).rejects.toThrow(
			'must be on or after "From Date"',
		);
		const plain = parse(searchTransfers.schema, raw);
		if (!plain.ok) throw new Error(plain.message);
		await expect(searchTransfers.execute(context(fakeClient(undefined, {})), plain.data)).rejects.toThrow(
			'is required to search transfers',
		);
	});
});
