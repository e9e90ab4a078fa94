import { getLink } from '../../../../nodes/PayOnUs/resources/cardTokenization/getLink';
import type { PayOnUsOperation } from '../../../../nodes/PayOnUs/resources/types';
import { context, fakeClient, httpError } from '../../fakes';
import { parse } from '../payout/schemaHelpers';

function input(op: PayOnUsOperation, raw: object) {
	const r = parse(op.schema, raw);
	if (!r.ok) throw new Error(r.message);
	return r.data;
}

const link = {
	id: 'LNK-1',
	url: 'http://127.0.0.1/consent/LNK-1',
	expiresAt: '2024-05-31 10:30:00',
	status: 'PENDING',
	merchantReference: 'card-1',
	businessName: 'Acme Stores',
	merchantName: 'Sandbox Merchant Ltd',
	businessId: 'BUS-2001',
};

describe('getLink', () => {
	it('gets by id or by reference (path-encoded), with the business', async () => {
		const client = fakeClient(() => link);
		await getLink.execute(context(client), input(getLink, { businessId: 'BUS-2001', by: 'id', linkId: 'LNK-1' }));
		await getLink.execute(
			context(client),
			input(getLink, { businessId: 'BUS-2001', by: 'merchantReference', merchantReference: 'ref/1?x' }),
		);
		expect(client.calls).toEqual([
			{ method: 'GET', path: '/api/v1/card-tokenization-links/LNK-1', qs: { businessId: 'BUS-2001' } },
			{ method: 'GET', path: '/api/v1/card-tokenization-links/by-reference/ref%2F1%3Fx', qs: { businessId: 'BUS-2001' } },
		]);
	});

	it('requires the key of the chosen way', () => {
		expect(parse(getLink.schema, { businessId: 'BUS-2001', by: 'id', linkId: '' })).toEqual({ ok: false, message: '"linkId" is required' });
		expect(parse(getLink.schema, { businessId: 'BUS-2001', by: 'merchantReference' })).toEqual({
			ok: false,
			message: '"merchantReference" is required',
		});
		expect(parse(getLink.schema, { businessId: 'BUS-2001', by: 'id', linkId: 'a/b' })).toMatchObject({ ok: false });
	});

	it('explains 404', async () => {
		const client = fakeClient(() => {
			throw httpError(404);
		});
		await expect(
			getLink.execute(context(client), input(getLink, { businessId: 'BUS-2001', by: 'id', linkId: 'LNK-9' })),
		).rejects.toThrow('No tokenization link with ID "LNK-9" for business BUS-2001');
	});
});
