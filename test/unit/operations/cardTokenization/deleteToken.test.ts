import { deleteToken } from '../../../../nodes/PayOnUs/resources/cardTokenization/deleteToken';
import type { PayOnUsOperation } from '../../../../nodes/PayOnUs/resources/types';
import { context, fakeClient, httpError } from '../../fakes';
import { parse } from '../payout/schemaHelpers';

function input(op: PayOnUsOperation, raw: object) {
	const r = parse(op.schema, raw);
	if (!r.ok) throw new Error(r.message);
	return r.data;
}

describe('deleteToken', () => {
	const raw = { businessId: 'BUS-2001', cardTokenId: 'TOK-1' };
	it('deletes and reports a first delete', async () => {
		const client = fakeClient(() => ({ status: 200, message: 'Card token deleted', data: null }));
		expect(await deleteToken.execute(context(client), input(deleteToken, raw))).toEqual({
			id: 'TOK-1',
			businessId: 'BUS-2001',
			deleted: true,
			alreadyDeleted: false,
			message: 'Card token deleted',
		});
		expect(client.calls).toEqual([
			{ method: 'DELETE', path: '/api/v1/card-tokens/TOK-1', qs: { businessId: 'BUS-2001' }, envelope: true },
		]);
	});

	it('reports a second delete as already deleted, not as an error', async () => {
		const client = fakeClient(() => ({ status: 200, message: 'Card token already deleted', data: null }));
		expect(await deleteToken.execute(context(client), input(deleteToken, raw))).toMatchObject({
			deleted: true,
			alreadyDeleted: true,
		});
	});

	it('explains 404 and 403', async () => {
		for (const [status, text] of [
			[404, 'No card token "TOK-1" exists for business BUS-2001'],
			[403, 'Card token TOK-1 belongs to another business than BUS-2001'],
		] as const) {
			const client = fakeClient(() => {
				throw httpError(status);
			});
			// Issue 31: the title names the token and the business; the description opens with what to do.
			await expect(deleteToken.execute(context(client), input(deleteToken, raw))).rejects.toMatchObject({
				message: text,
				description: expect.stringMatching(/^Nothing was deleted\. Check /),
			});
		}
	});

	it('refuses an id with a slash and a missing id', () => {
		expect(parse(deleteToken.schema, { ...raw, cardTokenId: '../x' })).toMatchObject({ ok: false });
		expect(parse(deleteToken.schema, { ...raw, cardTokenId: '' })).toEqual({ ok: false, message: '"cardTokenId" is required' });
	});
});
