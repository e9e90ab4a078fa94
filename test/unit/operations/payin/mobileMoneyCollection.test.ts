import { mobileMoneyCollection as op } from '../../../../nodes/PayOnUs/resources/payin/mobileMoneyCollection';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

const good = {
	businessId: 'BUS-2001',
	momoNetwork: 'VODAFONE_GH',
	amount: 25,
	reference: 'momo-1',
	customerName: 'Kofi Mensah',
	customerEmail: 'kofi@example.com',
	customerPhone: '+233240000003',
	additionalFields: { initiatingCode: '9876', addressCountryCode: 'gh', addressCity: 'Accra' },
};

describe('payin: mobile money collection', () => {
	it('sends network, initiating code and customer, and surfaces otpRequired', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/mobile-money/collection', {
			mobileNumber: '+233240000003',
			paymentStatus: 'PROCESSING',
			onusReference: 'ONUS-MMO-1',
			otpRequired: true,
		});
		const out = (await op.execute(context(client), parsed(op.schema, good))) as Record<string, unknown>;
		expect(client.requests[0].path).toBe('/api/v1/mobile-money/collection');
		expect(client.requests[0].body).toEqual({
			amount: 25,
			reference: 'momo-1',
			businessId: 'BUS-2001',
			narration: '',
			momoNetwork: 'VODAFONE_GH',
			initiatingCode: '9876',
			customer: {
				name: 'Kofi Mensah',
				email: 'kofi@example.com',
				phone: '+233240000003',
				address: { city: 'Accra', countryCode: 'GH' },
			},
		});
		expect(client.requests[0].moneyMoving?.reference).toBe('momo-1');
		// The record must show the phone asked to approve (the call declares it: its moneyCall's proof, sent by nodes/shared/payins/post.ts).
		expect(client.requests[0].moneyMoving?.expected).toEqual({ amount: 25, customerPhone: '+233240000003', businessId: 'BUS-2001' });
		expect(out.otpRequired).toBe(true);
		expect(out.nextStep).toMatch(/received an OTP.*ONUS-MMO-1/);
	});

	it('without OTP, says the customer approves on their phone', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/mobile-money/collection', {
			mobileNumber: '+254700000000',
			onusReference: 'ONUS-MMO-2',
			otpRequired: false,
		});
		const out = (await op.execute(context(client), parsed(op.schema, { ...good, additionalFields: {} }))) as Record<string, unknown>;
		expect(client.requests[0].body).not.toHaveProperty('initiatingCode');
		expect(out.nextStep).toMatch(/approve the payment request sent to their phone \(\+254700000000\)/);
	});

	it.each([
		[{ momoNetwork: '' }, '"momoNetwork" is required'],
		[{ customerPhone: '' }, '"customerPhone" is required'],
		[{ customerPhone: '0240000003' }, '"customerPhone" must be in international format'],
		[{ amount: -1 }, '"amount" must be greater than 0'],
		[{ reference: 'a b' }, '"reference" must contain no spaces'],
		[{ additionalFields: { initiatingCode: 'x'.repeat(51) } }, '"additionalFields.initiatingCode" must be at most 50 characters'],
	])('refuses %j', (patch, message) => {
		expect(problem(op.schema, { ...good, ...patch })).toContain(message);
	});
});
