import { listBanks } from '../../../../nodes/PayOnUs/resources/payout/listBanks';
import { context, fakeClient } from '../../fakes';
import { parse } from './schemaHelpers';

describe('listBanks', () => {
	it('gets the banks of the currency, one item each', async () => {
		const banks = [{ code: '044', name: 'Access Bank' }];
		const client = fakeClient(() => banks);
		const input = parse(listBanks.schema, { currency: 'zar' });
		if (!input.ok) throw new Error(input.message);
		expect(await listBanks.execute(context(client), input.data)).toEqual(banks);
		expect(client.calls).toEqual([{ method: 'GET', path: '/api/v1/banks', qs: { key: 'ZAR' } }]);
		expect(parse(listBanks.schema, { currency: '12' })).toEqual({
			ok: false,
			message: '"currency" must be a 3-letter currency code such as NGN, KES or ZAR',
		});
	});
});
