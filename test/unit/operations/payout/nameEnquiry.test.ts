import { withCredentialDefaults } from '../../../../nodes/shared/credential/defaults';
import { nameEnquiry } from '../../../../nodes/PayOnUs/resources/payout/nameEnquiry';
import { context, fakeClient } from '../../fakes';
import { parse } from './schemaHelpers';

describe('nameEnquiry', () => {
	const raw = { businessId: 'BUS-2001', currency: 'NGN', institutionCode: '044', accountNumber: '9999991112' };
	it.each([
		[{ currency: '' }, '"currency" is required'],
		[{ institutionCode: '' }, '"institutionCode" is required'],
		[{ accountNumber: '12345' }, '"accountNumber" must be 6 to 20 digits'],
		[{ accountNumber: '' }, '"accountNumber" is required'],
	])('refuses %j', (patch, message) => {
		expect(parse(nameEnquiry.schema, { ...raw, ...patch })).toEqual({ ok: false, message });
	});

	it('posts the enquiry and returns the account', async () => {
		const answer = { accountNumber: '9999991112', accountName: 'Ada', bankCode: '044', bankName: 'Access Bank' };
		const client = fakeClient(() => answer);
		const input = parse(nameEnquiry.schema, raw);
		if (!input.ok) throw new Error(input.message);
		expect(await nameEnquiry.execute(context(client), input.data)).toEqual(answer);
		expect(client.calls).toEqual([
			{ method: 'POST', path: '/api/v1/transfer-requests/name-enquiry', body: raw },
		]);
	});

	it('takes the business from the credential when none is given', async () => {
		const client = fakeClient(() => ({}));
		// The node fills the credential's default before validation (shared/credential/defaults.ts).
		const input = parse(nameEnquiry.schema, withCredentialDefaults({ ...raw, businessId: '' }, client.defaults));
		if (!input.ok) throw new Error(input.message);
		await nameEnquiry.execute(context(client), input.data);
		expect(client.calls[0].body?.businessId).toBe('BUS-2001');
	});
});
