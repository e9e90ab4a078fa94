import type { IDataObject, INode } from 'n8n-workflow';
import { getPayment as op } from '../../../../nodes/PayOnUs/resources/payin/getPayment';
import { requestError } from '../../../../nodes/shared/errors';
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

// Issue 23 (errors for people): the error of a payment not found, in the user's terms.
const node = { id: '1', name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
const MAX_TITLE = 110;

function expectGoodTitle(title: string) {
	expect(title.length).toBeLessThanOrEqual(MAX_TITLE);
	expect(title).not.toMatch(/\/api\//);
	expect(title).not.toMatch(/\b(GET|POST|DELETE|PUT)\b/);
	expect(title).not.toMatch(/failed with \d{3}/);
}

describe('Get Payment of an unknown reference', () => {
	it('says which payment of which business was not found', async () => {
		const client = {
			request: async () => {
				throw requestError(node, { kind: 'http', status: 404, body: { message: 'not found' } }, { method: 'GET', path: '/api/v1/payment-requests/businesses/BUS-2001', baseUrl: 'https://x', timeoutMs: 1, secrets: [] });
			},
		};
		const error = (await op
			.execute({ client, itemIndex: 0, item: {}, getBinary: async () => ({ data: Buffer.from('') }) } as never, { businessId: 'BUS-2001', onusReference: 'ONUS-NUB-1' })
			.catch((e: unknown) => e)) as Error & { description: string; context: IDataObject };
		expect(error.message).toBe('No payment "ONUS-NUB-1" in business BUS-2001');
		expectGoodTitle(error.message);
		expect(error.description).toContain('PayOnUs Reference');
		expect(error.context.request).toContain('/api/v1/payment-requests/businesses/BUS-2001');
	});
});
