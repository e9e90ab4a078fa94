import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { FakeClient } from '../fakes';
import { fakeExecuteContext, type Params } from '../fakes';

/**
 * The node frame (PayOnUs.node.ts, run/ and resources/index.ts) with a fake client:
 * parameter reading, validation of every item (before anything is sent;
 * in a read run, each item as it is sent),
 * credential defaults, error wording, continueOnFail and paired items.
 * (Real behaviour in n8n is covered by test/e2e/payin*.test.ts.)
 */

let client: FakeClient;
jest.mock('../../../nodes/shared/transport', () => ({
	createClient: async () => client,
}));

import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';

/** The node's context for `items`, with per-item parameters. */
const fakeContext = fakeExecuteContext;

const node = new PayOnUs();
const props = node.description.properties;

function getPaymentParams(ref: string, businessId: unknown = { __rl: true, mode: 'list', value: 'BUS-2001' }): Params {
	return { resource: 'payin', operation: 'getPayment', businessId, onusReference: ref };
}

describe('PayOnUs node description', () => {
	it('is a usable-as-tool action node with the payOnUsApi credential and light/dark icons', () => {
		const d = node.description;
		expect(d.name).toBe('payOnUs');
		expect(d.usableAsTool).toBe(true);
		expect(d.credentials).toEqual([{ name: 'payOnUsApi', required: true, testedBy: 'payOnUsApiTest' }]);
		expect(d.icon).toEqual({ light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' });
		expect(d.subtitle).toContain('$parameter["operation"]');
	});

	it('lists the resources and each payin/wallet operation with an action', () => {
		const resource = props.find((p) => p.name === 'resource')!;
		const values = (resource.options as Array<{ value: string }>).map((o) => o.value);
		expect(values).toEqual(expect.arrayContaining(['payin', 'wallet']));
		const payinOps = props.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === 'payin')!;
		const ops = payinOps.options as Array<{ value: string; action: string; description: string }>;
		// Published operations never disappear (saved workflows use them); that
		// each operation file is listed is proven by operations/declarations.test.ts.
		expect(ops.map((o) => o.value)).toEqual(
			expect.arrayContaining([
				'chargeCard',
				'chargeTokenizedCard',
				'createDynamicAccount',
				'createFixedAccount',
				'eftPayment',
				'getPayment',
				'listEftBanks',
				'listPayments',
				'mobileMoneyCollection',
				'simulatePayment',
			]),
		);
		for (const o of ops) expect(o.action).toBeTruthy();
		for (const v of ['chargeCard', 'chargeTokenizedCard', 'mobileMoneyCollection', 'eftPayment']) {
			expect(ops.find((o) => o.value === v)!.description).toMatch(/moves money/);
		}
	});

	it('shows each operation field only for its resource and operation', () => {
		const cardData = props.find((p) => p.name === 'cardData') as INodeProperties;
		expect(cardData.displayOptions?.show).toEqual({ resource: ['payin'], operation: ['chargeCard'] });
		expect(cardData.typeOptions?.password).toBe(true);
		const limits = props.filter((p) => p.name === 'limit');
		expect(limits.some((p) => p.displayOptions?.show?.returnAll?.[0] === false && p.displayOptions?.show?.operation?.[0] === 'listPayments')).toBe(true);
	});

	it('never takes raw card fields as parameters', () => {
		const names = props.map((p) => p.name.toLowerCase());
		for (const bad of ['cardnumber', 'pan', 'cvv', 'cvc', 'expiry', 'pin']) expect(names).not.toContain(bad);
	});
});

describe('PayOnUs node execute', () => {
	beforeEach(() => {
		client = new FakeClient().respond('GET', '/api/v1/payment-requests/businesses/BUS-2001', (req: { qs: IDataObject }) => ({
			onusReference: req.qs.onusReference,
			paymentStatus: 'SUCCESSFUL',
		}));
	});

	it('runs one call per item, one output item per record, paired with its input', async () => {
		const ctx = fakeContext([{}, {}], (i) => getPaymentParams(`ONUS-${i}`));
		const [out] = (await node.execute.call(ctx)) as INodeExecutionData[][];
		expect(out).toEqual([
			{ json: { onusReference: 'ONUS-0', paymentStatus: 'SUCCESSFUL' }, pairedItem: { item: 0 } },
			{ json: { onusReference: 'ONUS-1', paymentStatus: 'SUCCESSFUL' }, pairedItem: { item: 1 } },
		]);
		expect(client.requests.map((r) => r.qs)).toEqual([{ onusReference: 'ONUS-0' }, { onusReference: 'ONUS-1' }]);
	});

	it('a bad item 3 of a read stops the run naming the item and the field; nothing after it is sent', async () => {
		const ctx = fakeContext([{}, {}, {}], (i) => getPaymentParams(i === 2 ? 'bad ref' : `ONUS-${i}`));
		const error = (await node.execute.call(ctx).catch((e: unknown) => e)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		// Field label, not the internal name; n8n's item numbering (context.itemIndex, shown as "[item 2]").
		expect(error.message).toBe('"PayOnUs Reference" must be an identifier without spaces or slashes, e.g. ONUS-NUB-1234567890123-31052024-101500');
		expect(error.context.itemIndex).toBe(2);
		// A read sends each item once it is validated (a money-moving run validates all first:
		// run/readsAsValidated.test.ts, inputs.test.ts): items 0 and 1 were read, item 2 never.
		expect(client.requests.map((r) => r.qs)).toEqual([{ onusReference: 'ONUS-0' }, { onusReference: 'ONUS-1' }]);
	});

	it('with continueOnFail, a bad item becomes an error item and the others run', async () => {
		const ctx = fakeContext([{}, {}], (i) => getPaymentParams(i === 0 ? '' : 'ONUS-1'), true);
		const [out] = (await node.execute.call(ctx)) as INodeExecutionData[][];
		expect(out).toEqual([
			{ json: { error: '"PayOnUs Reference" is required [item 0]', description: 'Fix this field of the item; nothing was sent.' }, pairedItem: { item: 0 } },
			{ json: { onusReference: 'ONUS-1', paymentStatus: 'SUCCESSFUL' }, pairedItem: { item: 1 } },
		]);
		expect(client.requests).toHaveLength(1);
	});

	it("fills an empty business from the credential's default, and says so when there is none", async () => {
		let ctx = fakeContext([{}], () => getPaymentParams('ONUS-1', { __rl: true, mode: 'list', value: '' }));
		await node.execute.call(ctx);
		expect(client.requests[0].path).toBe('/api/v1/payment-requests/businesses/BUS-2001');

		client = new FakeClient('custom', {});
		ctx = fakeContext([{}], () => getPaymentParams('ONUS-1', ''));
		await expect(node.execute.call(ctx)).rejects.toThrow('"Business" is required');
		expect(client.requests).toHaveLength(0);
	});

	it('turns a handler input error into an error of its item and an API error into an error item', async () => {
		client = new FakeClient('production');
		const params = { resource: 'payin', operation: 'simulatePayment', onusReference: 'ONUS-1', accountNumber: '9900000001', amount: 10, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true };
		const refused = (await node.execute.call(fakeContext([{}], () => params)).catch((e: unknown) => e)) as NodeOperationError;
		expect(refused.message).toMatch(/^Simulate Dynamic Account Payment only works in the sandbox/);
		expect(refused.context.itemIndex).toBe(0);
		expect(client.requests).toHaveLength(0);

		client = new FakeClient().respond('GET', '/api/v1/payment-requests/businesses/BUS-2001', () => {
			throw new Error('PayOnUs GET failed with 404: not found');
		});
		const [out] = (await node.execute.call(fakeContext([{}], () => getPaymentParams('ONUS-9'), true))) as INodeExecutionData[][];
		expect(out).toEqual([{ json: { error: 'PayOnUs GET failed with 404: not found [item 0]' }, pairedItem: { item: 0 } }]);
	});

	it('outputs one item per record of a list, all paired with the input item', async () => {
		client = new FakeClient().respond('GET', '/api/v1/merchants/MER-1001/wallets', [
			{ id: 'W1', entityId: 'BUS-2001', currency: 'NGN' },
			{ id: 'W2', entityId: 'BUS-2002', currency: 'NGN' },
		]);
		const ctx = fakeContext([{}], () => ({ resource: 'wallet', operation: 'listWallets', merchantId: '', filters: {} }));
		const [out] = (await node.execute.call(ctx)) as INodeExecutionData[][];
		expect(out.map((o) => [o.json.id, o.pairedItem])).toEqual([
			['W1', { item: 0 }],
			['W2', { item: 0 }],
		]);
		expect(client.requests[0].path).toBe('/api/v1/merchants/MER-1001/wallets');
	});
});
