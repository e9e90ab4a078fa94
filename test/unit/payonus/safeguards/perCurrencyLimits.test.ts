import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { fakeClient, type FakeClient } from '../../fakes';

/**
 * Rule 6 (docs/reliability.md): a limit names its currency. The AI tool's
 * spending limits are set per currency (Spending Limits: currency, Max
 * Amount per Call, Max Total per Execution, Max Total per Window); a call in
 * a currency without a row is refused, saying so. Enforced in
 * nodes/PayOnUs/safeguards/toolLimits/ (read.ts, guard.ts).
 */

let nodeClient: FakeClient;
jest.mock('../../../../nodes/shared/transport', () => ({
	createClient: async () => nodeClient,
}));

import { PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';

const TOOL = 'n8n-nodes-payonus.payOnUsTool';

function service(): FakeClient {
	return fakeClient((o: RequestOptions) => {
		if (o.method === 'GET') return { content: [], totalNumberOfItems: 0 };
		const body = (o.body ?? {}) as IDataObject;
		return { onusReference: `ONUS-${String(body.reference)}`, merchantReference: body.reference, amount: body.amount, currency: body.currency, beneficiaryAccountNumber: body.beneficiaryAccountNumber, paymentStatus: 'PENDING' };
	});
}

function ctx(params: IDataObject, { typeVersion = 4, executionId = 'exec-pc' } = {}): IExecuteFunctions {
	return {
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name: string, _i: number, fallback?: unknown) => (name in params ? params[name] : fallback),
		continueOnFail: () => false,
		getNode: () => ({ name: 'PayOnUs', type: TOOL, typeVersion, parameters: params, id: '1', position: [0, 0] }),
		getExecutionId: () => executionId,
		getWorkflow: () => ({ id: `wf-pc-${typeVersion}-${executionId}-${Math.random()}`, name: 'wf', active: false }),
		helpers: {},
	} as unknown as IExecuteFunctions;
}

let seq = 0;
function transfer(amount: number, currency: string, over: IDataObject = {}): IDataObject {
	return {
		resource: 'payout',
		operation: 'createTransfer',
		transferType: currency === 'KES' ? 'WALLET_TO_MOMO' : 'WALLET_TO_BANK_ACCOUNT',
		businessId: 'BUS-2001',
		amount,
		currency,
		countryCode: '',
		reference: `pc-${++seq}`,
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		momoNetwork: 'MPESA',
		beneficiaryPhoneNumber: '+254700000000',
		beneficiaryAccountName: 'Ada Obi',
		narration: 'per currency',
		verifyBeneficiaryName: false,
		fromSubWallet: false,
		toolAllowMoneyMovement: true,
		...over,
	};
}

const limits = (...rows: IDataObject[]) => ({ toolSpendingLimits: { limit: rows } });
const NGN_1000 = { currency: 'NGN', maxAmountPerCall: 1000, maxTotalPerExecution: 1500, maxTotalPerWindow: 0 };
const KES_50000 = { currency: 'KES', maxAmountPerCall: 50000, maxTotalPerExecution: 60000, maxTotalPerWindow: 0 };

async function run(params: IDataObject, opts?: { typeVersion?: number; executionId?: string }): Promise<{ json: IDataObject; sent: RequestOptions[] }> {
	nodeClient = service();
	const [[item]] = (await new PayOnUs().execute.call(ctx(params, opts))) as INodeExecutionData[][];
	return { json: item.json, sent: nodeClient.calls.filter((c) => c.method === 'POST') };
}

describe('spending limits per currency', () => {
	it('a call in a currency without a stated limit is refused, saying so; nothing sent', async () => {
		const { json, sent } = await run(transfer(500, 'KES', limits(NGN_1000)));
		expect(sent).toEqual([]);
		expect(json).toMatchObject({ refused: true, nothingSent: true, limit: 'spendingLimits', asked: { amount: 500, currency: 'KES' } });
		expect(json.reason).toBe(
			'Refused, nothing was sent: no spending limit is set for KES on this tool (limits are set for: NGN); the workflow builder can add KES under Spending Limits.',
		);
	});

	it('no row at all: every money-moving call is refused', async () => {
		const { json, sent } = await run(transfer(1, 'NGN'));
		expect(sent).toEqual([]);
		expect(String(json.reason)).toContain('no spending limit is set for NGN on this tool (limits are set for: no currency)');
	});

	it('each currency is held to its own numbers: 1,000 meant as NGN does not let 1,001 NGN through, KES 20,000 passes under its own', async () => {
		const both = limits(NGN_1000, KES_50000);
		const ngn = await run(transfer(1001, 'NGN', both));
		expect(ngn.json).toMatchObject({ refused: true, limit: 'maxAmountPerCall' });
		expect(ngn.json.reason).toBe('Refused, nothing was sent: NGN 1001 is over the maximum of 1000 per call.');
		const kes = await run(transfer(20000, 'KES', both));
		expect(kes.json.onusReference).toMatch(/^ONUS-pc-/);
		expect(kes.sent.map((r) => (r.body as IDataObject).currency)).toEqual(['KES']);
	});

	it('totals per execution are counted and limited per currency', async () => {
		const both = limits(NGN_1000, KES_50000);
		const executionId = `exec-totals-${Date.now()}`;
		nodeClient = service();
		const node = new PayOnUs();
		const context = (p: IDataObject) => {
			const c = ctx(p, { executionId });
			return { ...c, getWorkflow: () => ({ id: 'wf-totals', name: 'wf', active: false }) } as unknown as IExecuteFunctions;
		};
		const one = async (p: IDataObject) => ((await node.execute.call(context(p))) as INodeExecutionData[][])[0][0].json;
		expect((await one(transfer(1000, 'NGN', both))).refused).toBeUndefined();
		expect((await one(transfer(40000, 'KES', both))).refused).toBeUndefined();
		expect(await one(transfer(600, 'NGN', both))).toMatchObject({ refused: true, limit: 'maxTotalPerExecution' });
		expect((await one(transfer(20000, 'KES', both))).refused).toBeUndefined();
		expect(await one(transfer(1, 'KES', both))).toMatchObject({ refused: true, limit: 'maxTotalPerExecution' });
	});

	it('a call without an execution (MCP) needs a window total for ITS currency', async () => {
		const rows = limits({ ...NGN_1000, maxTotalPerWindow: 2000 }, KES_50000);
		expect((await run(transfer(100, 'NGN', rows), { executionId: '' })).sent).toHaveLength(1);
		const kes = await run(transfer(100, 'KES', rows), { executionId: '' });
		expect(kes.sent).toEqual([]);
		expect(kes.json).toMatchObject({ refused: true, limit: 'maxTotalPerWindow' });
		expect(String(kes.json.reason)).toContain('setting Max Total per Window for KES');
	});

	it('a currency listed twice is an error naming it; nothing sent', async () => {
		nodeClient = service();
		await expect(new PayOnUs().execute.call(ctx(transfer(1, 'NGN', limits(NGN_1000, { ...NGN_1000, maxAmountPerCall: 5 }))))).rejects.toThrow(
			'A spending limit could not be read: "Spending Limits" names NGN twice: give each currency one row',
		);
		expect(nodeClient.calls).toEqual([]);
	});

	it('a row limit that is not a number is an error naming the currency', async () => {
		nodeClient = service();
		await expect(new PayOnUs().execute.call(ctx(transfer(1, 'NGN', limits({ ...NGN_1000, maxAmountPerCall: 'lots' }))))).rejects.toThrow(
			'(Max Amount per Call of NGN) must be a number, got the text "lots"',
		);
	});

	it('the parameters: Spending Limits, whatever the node version; no single limits, no Allowed Currencies', () => {
		const props = new PayOnUs().description.properties;
		const spending = props.find((p) => p.name === 'toolSpendingLimits')!;
		expect(spending.displayOptions?.show).toEqual({ '@tool': [true], toolAllowMoneyMovement: [true] });
		const row = (spending.options as Array<{ name: string; values: Array<{ name: string; default: unknown }> }>)[0];
		expect(row.values.map((v) => v.name)).toEqual(['currency', 'maxAmountPerCall', 'maxTotalPerExecution', 'maxTotalPerWindow']);
		for (const name of ['toolMaxAmountPerCall', 'toolMaxTotalPerExecution', 'toolMaxTotalPerWindow', 'toolAllowedCurrencies']) {
			expect(props.find((p) => p.name === name)).toBeUndefined();
		}
	});
});

describe('the row defaults', () => {
	it('are the documented ones (CURRENCY_LIMIT_DEFAULTS, which the row parameters take)', () => {
		const { CURRENCY_LIMIT_DEFAULTS } = jest.requireActual('../../../../nodes/PayOnUs/safeguards/toolLimits');
		const spending = new PayOnUs().description.properties.find((p) => p.name === 'toolSpendingLimits')!;
		const row = (spending.options as Array<{ values: Array<{ name: string; default: unknown }> }>)[0];
		const defaults = Object.fromEntries(row.values.filter((v) => v.name !== 'currency').map((v) => [v.name, v.default]));
		expect(defaults).toEqual(CURRENCY_LIMIT_DEFAULTS);
		expect(defaults).toEqual({ maxAmountPerCall: 1000, maxTotalPerExecution: 5000, maxTotalPerWindow: 0 });
	});
});
