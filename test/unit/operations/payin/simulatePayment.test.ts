import { simulatePayment as op } from '../../../../nodes/PayOnUs/resources/payin/simulatePayment';
import { PayOnUsInputError } from '../../../../nodes/PayOnUs/resources/types';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

const good = {
	onusReference: 'ONUS-NUB-1',
	accountNumber: '9900000001',
	amount: 1000,
	paymentStatus: 'SUCCESSFUL',
	forDynamicAccount: true,
};

describe('payin: simulate dynamic account payment', () => {
	it('posts the fund simulation and echoes what was simulated', async () => {
		const client = new FakeClient('sandbox').respond('POST', '/api/v1/fund-ngn-account', null);
		const out = await op.execute(context(client), parsed(op.schema, good));
		expect(client.requests[0].body).toEqual(good);
		expect(client.requests[0].moneyMoving).toBeUndefined();
		expect(out).toEqual({ ...good, simulated: true });
	});

	it('is refused before sending with a production credential', async () => {
		const client = new FakeClient('production').respond('POST', '/api/v1/fund-ngn-account', null);
		const run = op.execute(context(client), parsed(op.schema, good));
		await expect(run).rejects.toBeInstanceOf(PayOnUsInputError);
		await expect(run).rejects.toThrow(/only works in the sandbox/);
		expect(client.requests).toHaveLength(0);
	});

	it.each([
		[{ onusReference: '' }, '"onusReference" is required'],
		[{ accountNumber: '12ab' }, '"accountNumber" must be 6 to 20 digits'],
		[{ amount: 0 }, '"amount" must be greater than 0'],
		[{ paymentStatus: 'DONE' }, '"paymentStatus" must be one of SUCCESSFUL, FAILED'],
		[{ forDynamicAccount: 'yes' }, '"forDynamicAccount" must be true or false'],
	])('refuses %j', (patch, message) => {
		expect(problem(op.schema, { ...good, ...patch })).toContain(message);
	});
});
