import { getPayment as op } from '../../../../nodes/PayOnUs/resources/payin/getPayment';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

describe('payin: get payment', () => {
	it('queries the business path by onusReference', async () => {
		const record = { onusReference: 'ONUS-NUB-1', paymentStatus: 'SUCCESSFUL' };
		const client = new FakeClient().respond('GET', '/api/v1/payment-requests/businesses/BUS-2001', record);
		const out = await op.execute(context(client), parsed(op.schema, { businessId: 'BUS-2001', onusReference: 'ONUS-NUB-1' }));
		expect(client.requests[0]).toEqual({
			method: 'GET',
			path: '/api/v1/payment-requests/businesses/BUS-2001',
			qs: { onusReference: 'ONUS-NUB-1' },
		});
		expect(out).toEqual(record);
	});

	it.each([
		[{ businessId: 'BUS-2001', onusReference: '' }, '"onusReference" is required'],
		[{ businessId: 'BUS-2001', onusReference: 'ONUS 1' }, '"onusReference" must be an identifier'],
		[{ businessId: '../x', onusReference: 'ONUS-1' }, '"businessId" must be an identifier'],
		[{ onusReference: 'ONUS-1' }, '"businessId" is required'],
	])('refuses %j', (input, message) => {
		expect(problem(op.schema, input)).toContain(message);
	});
});
