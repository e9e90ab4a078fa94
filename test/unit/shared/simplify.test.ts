/**
 * Issue 23, outputs: Simplify on records of more than 10 fields, the raw
 * record one toggle away, and the tool's Output choice.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { FakeClient } from '../fakes';
import { fakeExecuteContext, type Params } from '../fakes';
import { SIMPLE_PAYMENT_FIELDS, SIMPLE_TRANSFER_FIELDS, simplifyPayment, simplifyTransfer } from '../../../nodes/shared/simplify';

let client: FakeClient;
jest.mock('../../../nodes/shared/transport', () => ({
	createClient: async () => client,
}));
import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';

const node = new PayOnUs();

/** A payment request as the service lists it: the spec's fields, in the service's order (status late, the reference last). */
export function servicePayment(n: number): IDataObject {
	return {
		id: `PR-${n}`, merchantUserId: null, amountPaid: 0, settlementAmount: 0, acceptablePaymentType: 'ACCEPT_FULL_VALUE_ONLY',
		countryCode: 'NG', paymentGateway: 'SANDBOX', accountNumber: '9900000001', accountName: 'Ada', bankName: 'Sandbox Bank',
		bankCode: '999', email: 'ada@example.com', mobileNumber: '+2348012345678', totalChargedFee: 0, transactionFee: 0,
		providerFee: 0, vat: 0, providerVat: 0, stampDutyApplied: false, waveStampDuty: false, forWalletFunding: false,
		merchantNotified: false, forwardedForSettlement: false, fixedAccount: false, reference: `order-${n}`, merchantReference: `order-${n}`,
		sessionId: null, providerReference: null, providerResponse: null, notificationUrl: null, redirectUrl: null,
		merchantCheckoutReference: null, senderName: 'Ada', senderAccount: '', senderAccountNumber: '', ipAddress: '127.0.0.1',
		paymentStatus: 'SUCCESSFUL', createdDate: '2026-11-25T10:00:00Z', lastUpdatedDate: '2026-11-25T10:01:00Z', businessName: 'Shop',
		merchantName: 'Merchant', businessId: 'BUS-2001', narration: 'x', fixedAccountId: '', fixedAccountMerchantReference: '',
		amount: 1500, paymentChannel: 'BANK_TRANSFER', currency: 'NGN', onusReference: `ONUS-NUB-000000000000${n}-25112026-100000`,
	};
}

function listParams(extra: Params = {}): Params {
	return { resource: 'payin', operation: 'listPayments', returnAll: true, filters: {}, ...extra };
}

function payments(count: number) {
	return new FakeClient().respondPages(() => Array.from({ length: count }, (_, i) => servicePayment(i)));
}

function asTool(ctx: IExecuteFunctions): IExecuteFunctions {
	const getNode = ctx.getNode.bind(ctx);
	return { ...ctx, getNode: () => ({ ...getNode(), type: 'n8n-nodes-payonus.payOnUsTool', typeVersion: 1 }) } as IExecuteFunctions;
}

describe('Simplify', () => {
	it('the record the service lists: status late, the reference last', () => {
		const keys = Object.keys(servicePayment(0));
		expect(keys.length).toBeGreaterThan(40);
		expect(keys.indexOf('paymentStatus')).toBeGreaterThan(30);
		expect(keys.indexOf('onusReference')).toBe(keys.length - 1);
	});

	it('on: the fields a builder maps first, in that order, at most 10', async () => {
		client = payments(2);
		const [out] = (await node.execute.call(fakeExecuteContext([{}], () => listParams({ simplify: true })))) as INodeExecutionData[][];
		expect(out).toHaveLength(2);
		expect(Object.keys(out[0].json)).toEqual([...SIMPLE_PAYMENT_FIELDS]);
		expect(out[0].json).toMatchObject({ paymentStatus: 'SUCCESSFUL', amount: 1500, currency: 'NGN', merchantReference: 'order-0' });
		expect(out[1].pairedItem).toEqual({ item: 0 });
	});

	it('off: the raw record, unchanged', async () => {
		client = payments(1);
		const [off] = (await node.execute.call(fakeExecuteContext([{}], () => listParams({ simplify: false })))) as INodeExecutionData[][];
		expect(off[0].json).toEqual(servicePayment(0));
	});

	it('as an AI tool: Output Simplified, Raw or Selected Fields', async () => {
		client = payments(1);
		const [selected] = (await node.execute.call(asTool(fakeExecuteContext([{}], () => listParams({ output: 'selected', fields: 'paymentStatus, amount' }))))) as INodeExecutionData[][];
		expect(selected[0].json).toEqual({ paymentStatus: 'SUCCESSFUL', amount: 1500 });
		client = payments(1);
		const [simple] = (await node.execute.call(asTool(fakeExecuteContext([{}], () => listParams({ output: 'simplified' }))))) as INodeExecutionData[][];
		expect(Object.keys(simple[0].json)).toEqual([...SIMPLE_PAYMENT_FIELDS]);
		client = payments(1);
		// A tool node ignores the node's Simplify toggle (not shown there).
		const [raw] = (await node.execute.call(asTool(fakeExecuteContext([{}], () => listParams({ output: 'raw', simplify: true }))))) as INodeExecutionData[][];
		expect(raw[0].json).toEqual(servicePayment(0));
	});

	it('is shown, on by default, for the operations of records of more than 10 fields', () => {
		const simplify = node.description.properties.filter((p: INodeProperties) => p.name === 'simplify');
		expect(simplify.length).toBeGreaterThan(0);
		for (const p of simplify) {
			expect(p.default).toBe(true);
			expect(p.displayOptions?.show).not.toHaveProperty('@version');
			expect(p.description).toBe('Whether to return a simplified version of the response instead of the raw data');
		}
		const ops = simplify.flatMap((p) => p.displayOptions?.show?.operation as string[]);
		expect(ops).toEqual(expect.arrayContaining(['listPayments', 'getPayment', 'getTransfer', 'searchTransfers', 'searchTokens', 'searchLinks']));
		expect(ops).not.toContain('listWallets'); // 10 fields: no Simplify
		expect(node.description.version).toBe(1);
	});
});

describe('the simplified payment and transfer keep the business (issue 36, point 6)', () => {
	it('Get Many Payments: businessId 4th, as the starting nodes give it', async () => {
		client = payments(1);
		const [out] = (await node.execute.call(fakeExecuteContext([{}], () => listParams({ simplify: true })))) as INodeExecutionData[][];
		expect(Object.keys(out[0].json)).toEqual([...SIMPLE_PAYMENT_FIELDS]);
		expect(out[0].json.businessId).toBe('BUS-2001');
	});

	it('a transfer keeps businessId', () => {
		const transfer = { paymentStatus: 'PENDING', amount: 5, currency: 'NGN', businessId: 'BUS-2001', merchantReference: 'r', onusReference: 'ONUS-TRNF-1', fee: 1, transferType: 'X' };
		expect(Object.keys(simplifyTransfer(transfer))).toEqual(SIMPLE_TRANSFER_FIELDS.filter((f) => f in transfer));
		expect(simplifyTransfer(transfer).businessId).toBe('BUS-2001');
	});
});

describe('one simplified shape per record kind (shared with the triggers)', () => {
	it('a payin from a webhook (transactionAmount, reference) simplifies like one from the list', () => {
		const fromWebhook = simplifyPayment({ transactionAmount: '1500', reference: 'order-0', paymentStatus: 'SUCCESSFUL', currency: 'NGN', onusReference: 'ONUS-1', extra: 1 });
		expect(fromWebhook).toEqual({ paymentStatus: 'SUCCESSFUL', amount: 1500, currency: 'NGN', merchantReference: 'order-0', onusReference: 'ONUS-1' });
	});

	it('a transfer keeps the recovery markers', () => {
		expect(simplifyTransfer({ amount: 5, paymentStatus: 'PENDING', recoveredByLookup: true, transferType: 'X' })).toEqual({ paymentStatus: 'PENDING', amount: 5, recoveredByLookup: true });
	});
});

describe('what n8n resolves for the node', () => {
	// n8n-workflow's own resolution of a node's parameters (what the editor and a run see).
	const { NodeHelpers } = jest.requireActual('n8n-workflow') as typeof import('n8n-workflow');
	const resolve = (type = 'payOnUs'): IDataObject =>
		NodeHelpers.getNodeParameters(
			node.description.properties,
			{ resource: 'payin', operation: 'listPayments' },
			true,
			false,
			{ typeVersion: 1 } as never,
			{ ...node.description, name: type },
		) as IDataObject;

	it('the node has Simplify on', () => {
		expect(resolve().simplify).toBe(true);
	});

	it('the tool has Output = Simplified instead of Simplify', () => {
		const tool = resolve('payOnUsTool');
		expect(tool.output).toBe('simplified');
		expect(tool).not.toHaveProperty('simplify');
	});
});
