import { createLink } from '../../../../nodes/PayOnUs/resources/cardTokenization/createLink';
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
