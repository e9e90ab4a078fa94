import { createFixedAccount as op } from '../../../../nodes/PayOnUs/resources/payin/createFixedAccount';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

const good = {
	businessId: 'BUS-2001',
	reference: 'fixed-1',
	dob: '1990-04-21',
	customerName: 'Ada Obi',
	customerEmail: 'ada@example.com',
	customerBvn: '22212345678',
	addressLine1: '12 Marina Road',
	addressCity: 'Lagos',
	addressCountryCode: 'ng',
	additionalFields: { addressState: 'Lagos' },
};

describe('payin: create fixed account', () => {
	it('sends customer with address, bvn and dob to the public path', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/virtual-accounts/fixed-account', {
			accountNumber: '9900000002',
			onusReference: 'ONUS-FIX-1',
		});
		const out = await op.execute(context(client), parsed(op.schema, good));
		const req = client.requests[0];
		expect(req.path).toBe('/api/v1/virtual-accounts/fixed-account');
		expect(req.body).toEqual({
			customer: {
				name: 'Ada Obi',
				email: 'ada@example.com',
				bvn: '22212345678',
				address: { line1: '12 Marina Road', city: 'Lagos', countryCode: 'NG', state: 'Lagos' },
			},
			dob: '1990-04-21',
			reference: 'fixed-1',
			businessId: 'BUS-2001',
		});
		expect(req.moneyMoving?.reference).toBe('fixed-1');
		expect(out).toEqual({ accountNumber: '9900000002', onusReference: 'ONUS-FIX-1' });
	});

	it.each([
		[{ dob: '' }, '"dob" is required'],
		[{ dob: '21/04/1990' }, '"dob" must be a date written YYYY-MM-DD'],
		[{ dob: '1990-02-30' }, '"dob" must be a date written YYYY-MM-DD'],
		[{ customerBvn: '' }, '"customerBvn" is required'],
		[{ customerBvn: '2221234567X' }, '"customerBvn" must be 11 digits'],
		[{ addressLine1: '' }, '"addressLine1" is required'],
		[{ addressCity: '  ' }, '"addressCity" is required'],
		[{ addressCountryCode: '' }, '"addressCountryCode" is required'],
		[{ addressCountryCode: 'NGA' }, '"addressCountryCode" must be a 2-letter country code'],
		[{ customerEmail: 'a@b' }, '"customerEmail" must be an e-mail address'],
		[{ reference: '' }, '"reference" is required'],
	])('refuses %j', (patch, message) => {
		expect(problem(op.schema, { ...good, ...patch })).toContain(message);
	});

	it('takes the date part of an n8n date-time', () => {
		expect(parsed(op.schema, { ...good, dob: '1990-04-21T00:00:00.000+01:00' }).dob).toBe('1990-04-21');
	});
});
