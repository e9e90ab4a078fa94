import { listPayments as op } from '../../../../nodes/PayOnUs/resources/payin/listPayments';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

describe('payin: list payments', () => {
	it('passes every filter and zero-based paging to the client', async () => {
		const records = [{ onusReference: 'A' }, { onusReference: 'B' }];
		const client = new FakeClient().respondPages(() => records);
		const input = parsed(op.schema, {
			returnAll: false,
			limit: 2,
			filters: {
				status: 'SUCCESSFUL',
				businessId: 'BUS-2001',
				reference: 'order-1',
				onusReference: 'ONUS-1',
				fromDate: '2024-05-01T00:00:00',
				toDate: '2024-05-31',
			},
		});
		expect(await op.execute(context(client), input)).toEqual(records);
		expect(client.paginations[0]).toEqual({
			path: '/api/v1/payment-requests',
			qs: {
				status: 'SUCCESSFUL',
				businessId: 'BUS-2001',
				reference: 'order-1',
				onusReference: 'ONUS-1',
				fromDate: '2024-05-01',
				toDate: '2024-05-31',
			},
			style: 'zeroBased',
			returnAll: false,
			limit: 2,
		});
	});

	it('Return All needs no limit and sends no empty filter', async () => {
		const client = new FakeClient().respondPages(() => []);
		await op.execute(context(client), parsed(op.schema, { returnAll: true, filters: { reference: '', status: '' } }));
		expect(client.paginations[0]).toEqual({ path: '/api/v1/payment-requests', qs: {}, style: 'zeroBased', returnAll: true, limit: undefined });
	});

	it.each([
		[{ returnAll: false, limit: 0 }, '"limit" must be at least 1'],
		[{ returnAll: false, limit: 2.5 }, '"limit" must be a whole number'],
		[{ returnAll: false }, '"limit" is required when Return All is off'],
		[{ returnAll: true, filters: { status: 'DONE' } }, '"filters.status" must be one of PROCESSING, PENDING, SUCCESSFUL, FAILED'],
		[{ returnAll: true, filters: { fromDate: '2024-13-01' } }, '"filters.fromDate" must be a date written YYYY-MM-DD'],
		[{ returnAll: true, filters: { toDate: 'yesterday' } }, '"filters.toDate" must be a date written YYYY-MM-DD'],
		[{ returnAll: true, filters: { fromDate: '2024-05-02', toDate: '2024-05-01' } }, '"filters.toDate" must not be before "From Date"'],
		[{ returnAll: true, filters: { businessId: 'a b' } }, '"filters.businessId" must be an identifier'],
	])('refuses %j', (input, message) => {
		expect(problem(op.schema, input)).toContain(message);
	});
});
