import { searchLinks } from '../../../../nodes/PayOnUs/resources/cardTokenization/searchLinks';
import type { PayOnUsOperation } from '../../../../nodes/PayOnUs/resources/types';
import { context, fakeClient } from '../../fakes';
import { parse } from '../payout/schemaHelpers';

function input(op: PayOnUsOperation, raw: object) {
	const r = parse(op.schema, raw);
	if (!r.ok) throw new Error(r.message);
	return r.data;
}

describe('searchLinks', () => {
	const raw = { merchantId: 'MER-1001', returnAll: false, limit: 10, filters: {} };
	it('sends every filter of the spec, pageNo paging', async () => {
		const client = fakeClient(undefined, undefined, () => [{ id: 'LNK-1', cardTokenId: null }]);
		const out = await searchLinks.execute(
			context(client),
			input(searchLinks, {
				...raw,
				filters: {
					businessIds: 'BUS-2001, BUS-2002',
					id: 'LNK-1',
					merchantReference: 'card-1',
					status: 'COMPLETED',
					hasCardToken: true,
					createdFrom: '2024-05-01',
					createdTo: '2024-05-31T00:00:00.000Z',
				},
			}),
		);
		expect(out).toEqual([{ id: 'LNK-1', cardTokenId: null }]);
		expect(client.pages).toEqual([
			{
				path: '/api/v1/card-tokenization-links',
				qs: {
					merchantId: 'MER-1001',
					businessIds: 'BUS-2001,BUS-2002',
					createdFrom: '2024-05-01',
					createdTo: '2024-05-31',
					id: 'LNK-1',
					merchantReference: 'card-1',
					status: 'COMPLETED',
					hasCardToken: true,
				},
				style: 'fromOne',
				returnAll: false,
				limit: 10,
			},
		]);
	});

	it.each([
		[{ merchantId: '' }, '"merchantId" is required'],
		[{ filters: { status: 'DONE' } }, '"filters.status" must be one of PENDING, COMPLETED, EXPIRED, CANCELLED'],
		[{ filters: { businessIds: ' , ' } }, '"filters.businessIds" must name at least one business ID'],
		[{ filters: { businessIds: 'BUS 1,BUS-2' } }, '"filters.businessIds.0" must be business IDs separated by commas'],
		[{ filters: { createdFrom: '31/05/2024' } }, '"filters.createdFrom" must be a date written YYYY-MM-DD'],
		[{ filters: { hasCardToken: 'maybe' } }, '"filters.hasCardToken" must be true or false'],
		[{ limit: 0 }, '"limit" must be at least 1'],
	])('refuses %j', (patch, message) => {
		const r = parse(searchLinks.schema, { ...raw, ...patch });
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toContain(message);
	});

	it('refuses a reversed date range', async () => {
		await expect(
			searchLinks.execute(
				context(fakeClient()),
				input(searchLinks, { ...raw, filters: { createdFrom: '2024-06-01', createdTo: '2024-05-01' } }),
			),
		).rejects.toThrow('must be on or after "Created From"');
	});
});
