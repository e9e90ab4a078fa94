import { eftPayment as op } from '../../../../nodes/PayOnUs/resources/payin/eftPayment';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

const good = {
	businessId: 'BUS-2001',
	bank: '632005',
	amount: 300,
	reference: 'eft-1',
	customerName: 'Thandi Dube',
	customerEmail: 'thandi@example.com',
	additionalFields: { narration: 'Invoice 7', addressLine1: '1 Long St', addressCity: 'Cape Town', addressPostalCode: '8001', addressCountryCode: 'ZA' },
};

describe('payin: EFT payment', () => {
	it('sends bank and customer, and says where to send the customer', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/eft-payment', {
			onusReference: 'ONUS-EFT-1',
			redirectUrl: 'https://bank.example/pay/1',
			paymentStatus: 'PROCESSING',
		});
		const out = (await op.execute(context(client), parsed(op.schema, good))) as Record<string, unknown>;
		expect(client.requests[0].body).toEqual({
			amount: 300,
			reference: 'eft-1',
			narration: 'Invoice 7',
			businessId: 'BUS-2001',
			bank: '632005',
			customer: {
				name: 'Thandi Dube',
				email: 'thandi@example.com',
				address: { line1: '1 Long St', city: 'Cape Town', postalCode: '8001', countryCode: 'ZA' },
			},
		});
		expect(client.requests[0].moneyMoving?.reference).toBe('eft-1');
		expect(out.nextStep).toMatch(/Send the customer to https:\/\/bank\.example\/pay\/1/);
	});

	it.each([
		[{ bank: '' }, '"bank" is required'],
		[{ amount: 'ten' }, '"amount" must be a number'],
		[{ customerEmail: '' }, '"customerEmail" is required'],
		[{ additionalFields: { addressPostalCode: 'x'.repeat(21) } }, '"additionalFields.addressPostalCode" must be at most 20 characters'],
	])('refuses %j', (patch, message) => {
		expect(problem(op.schema, { ...good, ...patch })).toContain(message);
	});
});
