import { createLink } from '../../../../nodes/PayOnUs/resources/cardTokenization/createLink';
import { deleteToken } from '../../../../nodes/PayOnUs/resources/cardTokenization/deleteToken';
import { getLink } from '../../../../nodes/PayOnUs/resources/cardTokenization/getLink';
import { searchLinks } from '../../../../nodes/PayOnUs/resources/cardTokenization/searchLinks';
import { searchTokens } from '../../../../nodes/PayOnUs/resources/cardTokenization/searchTokens';
import { withoutCardData } from '../../../../nodes/PayOnUs/resources/cardTokenization/shared';
import { statusOf } from '../../../../nodes/shared/errors';
import type { PayOnUsOperation } from '../../../../nodes/PayOnUs/resources/types';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
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

describe('createLink', () => {
	const raw = {
		businessId: 'BUS-2001',
		merchantReference: 'card-1',
		customerName: 'Ada Obi',
		customerEmail: 'ada@example.com',
		additionalFields: {},
	};

	it.each([
		[{ merchantReference: '' }, '"merchantReference" is required'],
		[{ merchantReference: 'r'.repeat(101) }, '"merchantReference" must be at most 100 characters'],
		[{ merchantReference: 'a b' }, '"merchantReference" must contain no spaces'],
		[{ customerName: '' }, '"customerName" is required'],
		[{ customerEmail: 'ada' }, '"customerEmail" must be an e-mail address'],
		[{ customerEmail: '' }, '"customerEmail" is required'],
		[{ businessId: '' }, '"businessId" is required'],
		[{ additionalFields: { customerPhone: '08012345678' } }, '"additionalFields.customerPhone" must be in international format'],
		[{ additionalFields: { expiryMinutes: 1441 } }, '"additionalFields.expiryMinutes" must be at most 1440 minutes (24 hours)'],
		[{ additionalFields: { expiryMinutes: 0 } }, '"additionalFields.expiryMinutes" must be at least 1 minute'],
		[{ additionalFields: { expiryMinutes: 2.5 } }, '"additionalFields.expiryMinutes" must be a whole number of minutes'],
	])('refuses %j', (patch, message) => {
		const r = parse(createLink.schema, { ...raw, ...patch });
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toContain(message);
	});

	it('accepts exactly 100 characters and 1440 minutes', () => {
		expect(parse(createLink.schema, { ...raw, merchantReference: 'r'.repeat(100), additionalFields: { expiryMinutes: 1440 } }).ok).toBe(true);
	});

	it('posts the link with the customer and returns it', async () => {
		const client = fakeClient(() => link);
		const out = await createLink.execute(
			context(client),
			input(createLink, {
				...raw,
				additionalFields: { customerPhone: '+2348012345678', customerExternalId: 'CUST-1', expiryMinutes: 60 },
			}),
		);
		expect(out).toEqual(link);
		expect(client.calls).toEqual([
			{
				method: 'POST',
				path: '/api/v1/card-tokenization-links',
				body: {
					businessId: 'BUS-2001',
					customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348012345678', externalId: 'CUST-1' },
					merchantReference: 'card-1',
					expiryMinutes: 60,
				},
			},
		]);
	});

	it('leaves expiryMinutes out when not given (the service default applies)', async () => {
		const client = fakeClient(() => link);
		await createLink.execute(context(client), input(createLink, raw));
		expect(client.calls[0].body).not.toHaveProperty('expiryMinutes');
		expect(client.calls[0].body?.customer).toEqual({ name: 'Ada Obi', email: 'ada@example.com' });
	});

	it('explains a 409 naming the link that holds the reference', async () => {
		const client = fakeClient((o: RequestOptions) => {
			if (o.method === 'POST') throw httpError(409);
			return { ...link, status: 'EXPIRED' };
		});
		// Issue 31: a short title naming the thing, then what to do, then the details.
		await expect(createLink.execute(context(client), input(createLink, raw))).rejects.toMatchObject({
			message: 'Merchant reference "card-1" already used by link LNK-1 (status EXPIRED)',
			description: expect.stringMatching(
				/^Use a new reference: a tokenization reference of business BUS-2001 can never be reused, even after the link expired or was cancelled\. The service said: /,
			),
		});
		expect(client.calls[1]).toEqual({
			method: 'GET',
			path: '/api/v1/card-tokenization-links/by-reference/card-1',
			qs: { businessId: 'BUS-2001' },
		});
	});

	it('explains a 403 as tokenization not enabled, keeping the error object', async () => {
		const original = httpError(403);
		const client = fakeClient(() => {
			throw original;
		});
		const run = createLink.execute(context(client), input(createLink, { ...raw, businessId: 'BUS-2003' }));
		await expect(run).rejects.toBe(original);
		expect(original.message).toBe('Card tokenization is not enabled for business BUS-2003');
		expect((original as unknown as { description: string }).description).toBe(
			'Enable card tokenization for this business on the PayOnUs dashboard (same environment), or check that this API client may use it. The service said: something',
		);
	});
});

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

describe('helpers', () => {
	it('statusOf reads the typed status of the client\'s error, and guesses nothing from other shapes', () => {
		expect(statusOf(httpError(410))).toBe(410);
		expect(statusOf({ status: 422 })).toBeUndefined();
		expect(statusOf({ statusCode: '409' })).toBeUndefined();
		expect(statusOf(new Error('x'))).toBeUndefined();
	});

	it('withoutCardData drops card keys deep and masks bare card numbers', () => {
		expect(withoutCardData({ a: [{ pan: '4111111111111111', note: '5500000000000004', ok: '12345' }], cardData: 'enc' })).toEqual({
			a: [{ note: '****0004', ok: '12345' }],
		});
	});
});
