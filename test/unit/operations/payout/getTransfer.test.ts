import { getTransfer } from '../../../../nodes/PayOnUs/resources/payout/getTransfer';
import { context, fakeClient } from '../../fakes';
import { parse } from './schemaHelpers';

describe('getTransfer', () => {
	it('queries by onusReference and checks the match', async () => {
		const record = { onusReference: 'ONUS-TRNF-1', merchantReference: 'r' };
		const client = fakeClient(() => ({ content: [{ onusReference: 'ONUS-TRNF-0' }, record] }));
		const input = parse(getTransfer.schema, { onusReference: 'ONUS-TRNF-1', merchantId: '' });
		if (!input.ok) throw new Error(input.message);
		expect(await getTransfer.execute(context(client), input.data)).toEqual(record);
		expect(client.calls[0]).toEqual({
			method: 'GET',
			path: '/api/v1/transfer-requests',
			qs: { merchantId: 'MER-1001', onusReference: 'ONUS-TRNF-1' },
		});
	});

	it('reports a transfer that is not there', async () => {
		const client = fakeClient(() => ({ content: [{ onusReference: 'ONUS-TRNF-0' }] }));
		const input = parse(getTransfer.schema, { onusReference: 'ONUS-TRNF-1', merchantId: 'MER-1001' });
		if (!input.ok) throw new Error(input.message);
		await expect(getTransfer.execute(context(client), input.data)).rejects.toThrow(
			'No transfer "ONUS-TRNF-1" for merchant MER-1001',
		);
		expect(parse(getTransfer.schema, { onusReference: 'a b' })).toMatchObject({ ok: false });
	});
});
