import { searchTokens } from '../../../../nodes/PayOnUs/resources/cardTokenization/searchTokens';
import type { PayOnUsOperation } from '../../../../nodes/PayOnUs/resources/types';
import { context, fakeClient } from '../../fakes';
import { parse } from '../payout/schemaHelpers';

function input(op: PayOnUsOperation, raw: object) {
	const r = parse(op.schema, raw);
	if (!r.ok) throw new Error(r.message);
	return r.data;
}

describe('searchTokens', () => {
	it('sends the token filters and strips card data from the records', async () => {
		const tokens = [
			{ id: 'TOK-1', maskedPan: '411111******1111', cardNumber: '4111111111111111', cvv: '123', accountNumber: '4111111111111111', tokenExpiry: '2027-01-31' },
		];
		const client = fakeClient(undefined, undefined, () => tokens);
		const out = await searchTokens.execute(
			context(client),
			input(searchTokens, {
				merchantId: 'MER-1001',
				returnAll: true,
				filters: { requestId: 'ONUS-CTOKEN-1', customerEmail: 'ada@example.com', merchantReference: 'card-1', id: 'TOK-1', businessIds: 'BUS-2001' },
			}),
		);
		expect(out).toEqual([{ id: 'TOK-1', maskedPan: '411111******1111', accountNumber: '****1111', tokenExpiry: '2027-01-31' }]);
		expect(client.pages[0]).toEqual({
			path: '/api/v1/card-tokens',
			qs: {
				merchantId: 'MER-1001',
				businessIds: 'BUS-2001',
				id: 'TOK-1',
				customerEmail: 'ada@example.com',
				merchantReference: 'card-1',
				requestId: 'ONUS-CTOKEN-1',
			},
			style: 'fromOne',
			returnAll: true,
			limit: undefined,
		});
	});

	it('refuses a bad e-mail filter', () => {
		expect(parse(searchTokens.schema, { merchantId: 'MER-1001', filters: { customerEmail: 'x' } })).toMatchObject({
			ok: false,
			message: expect.stringContaining('"filters.customerEmail" must be an e-mail address'),
		});
	});
});
