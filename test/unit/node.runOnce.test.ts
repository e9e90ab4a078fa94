/**
 * The runner's entry for another node (nodes/PayOnUs/run/once.ts): an
 * operation by name, checked with its own schema, its handler run once,
 * failures as the runner reports an item.
 */
import { NodeOperationError } from 'n8n-workflow';
import { isInvalidInput, runOnce } from '../../nodes/PayOnUs/run/once';
import { PayOnUsInputError } from '../../nodes/PayOnUs/resources/types';
import { FAKE_NODE, FakeClient, httpError } from './fakes';

const node = FAKE_NODE;

describe('runOnce: one operation of the PayOnUs node, for another node', () => {
	it("runs the operation's own handler with its validated input", async () => {
		const client = new FakeClient().respond('GET', '/api/v1/payment-requests/businesses/BUS-2001', {
			onusReference: 'ONUS-NUB-1',
			paymentStatus: 'SUCCESSFUL',
			amount: '5000.00',
		});
		const records = await runOnce({ node, client }, 'payin:getPayment', { businessId: 'BUS-2001', onusReference: 'ONUS-NUB-1' });
		expect(client.requests).toEqual([
			{ method: 'GET', path: '/api/v1/payment-requests/businesses/BUS-2001', qs: { onusReference: 'ONUS-NUB-1' } },
		]);
		// the handler's own shaping (amounts as numbers), one record
		expect(records).toEqual([expect.objectContaining({ onusReference: 'ONUS-NUB-1', amount: 5000 })]);
	});

	it("refuses an input its schema refuses, as the runner words it, with the schema's issues; nothing is sent", async () => {
		const client = new FakeClient();
		const error = await runOnce({ node, client }, 'payin:chargeCard', {
			businessId: 'BUS-2001',
			cardData: 'x'.repeat(344),
			amount: 10,
			currency: 'EUR',
			reference: 'PP-1-1',
			customerName: 'Ada',
			customerEmail: 'ada@example.com',
			additionalFields: {},
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(isInvalidInput(error)).toBe(true);
		expect((error as NodeOperationError).message).toMatch(/^"Currency" must be one of the currencies PayOnUs documents/);
		expect((error as NodeOperationError).context.itemIndex).toBe(0);
		expect(isInvalidInput(error) && error.issues[0].path).toEqual(['currency']);
		expect(client.requests).toEqual([]);
	});

	it('passes a service error as the transport threw it (a 409 keeps the record that holds the reference)', async () => {
		const existing = { onusReference: 'ONUS-NUB-7', reference: 'PP-1-1' };
		const conflict = httpError(409, 'Reference already used for this business', { existingRecord: existing });
		const client = new FakeClient().respond('POST', '/api/v1/virtual-accounts/dynamic', () => {
			throw conflict;
		});
		const error = await runOnce({ node, client }, 'payin:createDynamicAccount', {
			businessId: 'BUS-2001',
			amount: 5000,
			reference: 'PP-1-1',
			customerName: 'Ada',
			customerEmail: 'ada@example.com',
			additionalFields: {},
		}).catch((e: unknown) => e);
		expect(error).toBe(conflict);
		expect(conflict.context.existingRecord).toEqual(existing);
		expect(isInvalidInput(error)).toBe(false);
		// sent once: never resent blindly
		expect(client.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	it('names an unknown operation as the node does', async () => {
		await expect(runOnce({ node, client: new FakeClient() }, 'payin:nope', {})).rejects.toThrow('Unknown operation "nope" for resource "payin"');
	});

	it("labels a handler's own input error with the field's label, as the runner does", async () => {
		const client = new FakeClient().respond('GET', '/api/v1/payment-requests/businesses/BUS-2001', () => {
			throw new PayOnUsInputError('onusReference', 'is not a payin of this business');
		});
		await expect(
			runOnce({ node, client }, 'payin:getPayment', { businessId: 'BUS-2001', onusReference: 'ONUS-NUB-1' }),
		).rejects.toThrow('"PayOnUs Reference" is not a payin of this business');
	});
});
