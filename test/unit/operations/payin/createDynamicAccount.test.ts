import { createDynamicAccount as op } from '../../../../nodes/PayOnUs/resources/payin/createDynamicAccount';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

const good = {
	businessId: 'BUS-2001',
	amount: 2500.5,
	reference: 'order-1',
	customerName: 'Ada Obi',
	customerEmail: 'ada@example.com',
	additionalFields: {},
};

describe('payin: create dynamic account', () => {
	it('sends the documented body with money-moving safety and tells what comes next', async () => {
		const client = new FakeClient().respond('POST', '/api/v1/virtual-accounts/dynamic', {
			accountName: 'Acme / Ada Obi',
			accountNumber: '9900000001',
			bankName: 'PayOnUs Sandbox MFB',
			amount: 2500.5,
			onusReference: 'ONUS-NUB-1',
			merchantReference: 'order-1',
		});
		const input = parsed(op.schema, {
			...good,
			additionalFields: { customerPhone: '+2348012345678', customerExternalId: 'C-9', customerBvn: '' },
		});
		const out = (await op.execute(context(client), input)) as Record<string, unknown>;
		expect(client.requests).toHaveLength(1);
		const req = client.requests[0];
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/api/v1/virtual-accounts/dynamic');
		expect(req.body).toEqual({
			amount: 2500.5,
			reference: 'order-1',
			businessId: 'BUS-2001',
			customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348012345678', externalId: 'C-9' },
		});
		expect(req.moneyMoving?.reference).toBe('order-1');
		expect(out.accountNumber).toBe('9900000001');
		expect(out.nextStep).toContain('transfer exactly 2500.5 NGN to account 9900000001');
	});

	it('lookup finds the payment request by reference and checks the match itself', async () => {
		const client = new FakeClient()
			.respond('POST', '/api/v1/virtual-accounts/dynamic', {})
			.respond('GET', '/api/v1/payment-requests', {
				content: [
					{ reference: 'other', businessId: 'BUS-2001', onusReference: 'X' },
					{ reference: 'order-1', businessId: 'BUS-2002', onusReference: 'Y' },
					{ reference: 'order-1', businessId: 'BUS-2001', onusReference: 'Z' },
				],
			});
		await op.execute(context(client), parsed(op.schema, good));
		const found = await client.requests[0].moneyMoving!.lookup();
		expect(found?.onusReference).toBe('Z');
		expect(client.requests[1].qs).toEqual({ businessId: 'BUS-2001', reference: 'order-1', page: 0, size: 20 });

		const none = new FakeClient()
			.respond('POST', '/api/v1/virtual-accounts/dynamic', {})
			.respond('GET', '/api/v1/payment-requests', { content: [{ reference: 'other', onusReference: 'X' }] });
		await op.execute(context(none), parsed(op.schema, good));
		expect(await none.requests[0].moneyMoving!.lookup()).toBeUndefined();
	});

	it.each([
		[{ amount: 0 }, '"amount" must be greater than 0'],
		[{ amount: -5 }, '"amount" must be greater than 0'],
		[{ amount: 1.005 }, '"amount" must have at most 2 decimal places'],
		[{ amount: 'abc' }, '"amount" must be a number'],
		[{ amount: '' }, '"amount" is required'],
		[{ reference: '' }, '"reference" is required'],
		[{ reference: 'has space' }, '"reference" must contain no spaces'],
		[{ reference: 'x'.repeat(101) }, '"reference" must be at most 100 characters'],
		[{ businessId: '' }, '"businessId" is required'],
		[{ businessId: 'BUS 1' }, '"businessId" must be an identifier'],
		[{ customerName: '' }, '"customerName" is required'],
		[{ customerEmail: 'not-mail' }, '"customerEmail" must be an e-mail address'],
		[{ additionalFields: { customerPhone: '08012345678' } }, '"additionalFields.customerPhone" must be in international format'],
		[{ additionalFields: { customerBvn: '123' } }, '"additionalFields.customerBvn" must be 11 digits'],
	])('refuses %j', (patch, message) => {
		expect(problem(op.schema, { ...good, ...patch })).toContain(message);
	});

	it('accepts numeric text from expressions and trims text', () => {
		const v = parsed(op.schema, { ...good, amount: '100.25', reference: ' order-2 ', additionalFields: undefined });
		expect(v.amount).toBe(100.25);
		expect(v.reference).toBe('order-2');
		expect(problem(op.schema, good)).toBe('');
	});
});
