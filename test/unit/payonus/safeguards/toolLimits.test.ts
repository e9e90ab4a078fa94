import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { findOperation } from '../../../../nodes/PayOnUs/resources';
import {
	EXECUTION_IDLE_MS,
	ExecutionTotals,
	limitedOperation,
	parseBeneficiaries,
	readToolLimits,
	TOOL_DEFAULTS,
	type ToolLimits,
	type ToolScope,
	WindowTotals,
} from '../../../../nodes/PayOnUs/safeguards/toolLimits';
import type { NodeOperation } from '../../../../nodes/PayOnUs/resources/types';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { context, fakeClient, type FakeClient } from '../../fakes';

let nodeClient: FakeClient;
jest.mock('../../../../nodes/shared/transport', () => ({
	createClient: async () => nodeClient,
}));

import { PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';

const createTransfer = findOperation('payout', 'createTransfer')!;
const bulkTransfer = findOperation('payout', 'bulkTransfer')!;
const chargeTokenizedCard = findOperation('payin', 'chargeTokenizedCard')!;

const transfer = {
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	amount: 100,
	currency: 'NGN',
	countryCode: 'NG',
	reference: 'agent-1',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Ada Obi',
	narration: 'Agent pay',
	email: '',
	verifyBeneficiaryName: false,
	fromSubWallet: false,
};

/** The limits of NGN, the currency of these calls. */
const NGN = { maxAmountPerCall: 1000, maxTotalPerExecution: 1500, maxTotalPerWindow: 0 };
const allowed: ToolLimits = { allowMoneyMovement: true, windowMinutes: 60, currencies: { NGN }, allowedBeneficiaries: [] };
/** `allowed` with other numbers for NGN. */
const withNgn = (over: Partial<typeof NGN>, limits: ToolLimits = allowed): ToolLimits => ({ ...limits, currencies: { ...limits.currencies, NGN: { ...NGN, ...over } } });

/** A service answering every transfer/charge with a record of what was sent. */
function service(): FakeClient {
	return fakeClient((o: RequestOptions) => {
		if (o.method === 'GET' && o.path.endsWith('/wallets')) return [{ entityId: 'BUS-2001', currency: 'NGN', availableBalance: 5000 }];
		if (o.method === 'GET') return { content: [], totalNumberOfItems: 0 };
		const body = (o.body ?? {}) as IDataObject;
		return { onusReference: `ONUS-${String(body.reference)}`, merchantReference: body.reference, amount: body.amount, currency: body.currency, paymentStatus: 'PENDING' };
	});
}

async function call(op: NodeOperation, limits: ToolLimits, input: IDataObject, totals: ExecutionTotals, executionId = 'exec-1', client = service(), items?: IDataObject[]) {
	const parsed = op.schema.parse(input);
	const out = (await limitedOperation(op, limits, executionId, totals).execute(context(client, { items }), parsed)) as IDataObject;
	return { out, sent: client.calls.filter((c) => c.method !== 'GET') };
}

async function scoped(limits: ToolLimits, input: IDataObject, totals: ExecutionTotals, windows: WindowTotals, where: ToolScope, client = service()) {
	const parsed = createTransfer.schema.parse(input);
	const out = (await limitedOperation(createTransfer, limits, where, totals, windows).execute(context(client), parsed)) as IDataObject;
	return { out, sent: client.calls.filter((c) => c.method !== 'GET') };
}

describe('AI tool spending limits', () => {
	it('defaults: money movement off, small limits, no currency allowed, any beneficiary', () => {
		expect(TOOL_DEFAULTS).toEqual({ allowMoneyMovement: false, maxAmountPerCall: 1000, maxTotalPerExecution: 5000, maxTotalPerWindow: 0, windowMinutes: 60, allowedBeneficiaries: '' });
		// No Spending Limits row, no currency.
		expect(readToolLimits((_n, fallback) => fallback)).toEqual({ allowMoneyMovement: false, windowMinutes: 60, currencies: {}, allowedBeneficiaries: [] });
	});

	it('a limit written "1.500" or "1,500" is refused naming both readings, never read as 1.5 (rule 7, issue 36)', () => {
		const from = (values: IDataObject) => (name: string, fallback: unknown) => (name in values ? values[name] : fallback);
		const row = (maxAmountPerCall: unknown) => from({ toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall, maxTotalPerExecution: 5000, maxTotalPerWindow: 0 }] } });
		expect(() => readToolLimits(row('1.500'))).toThrow(
			/\(Max Amount per Call of NGN\) must be a number with a point before the decimals and no thousands separators: "1.500" can be read as 1500 or 1.50/,
		);
		expect(() => readToolLimits(row('1,500'))).toThrow(
			/\(Max Amount per Call of NGN\) must be a number with a point before the decimals and no thousands separators: "1,500" can be read as 1500 or 1.50/,
		);
		expect(readToolLimits(row('1500.50')).currencies.NGN.maxAmountPerCall).toBe(1500.5);
	});

	it('reads limits set by expressions strictly: numbers and yes/no from text, anything unclear an error naming it (never the default limit)', () => {
		const from = (values: IDataObject) => (name: string, fallback: unknown) => (name in values ? values[name] : fallback);
		const rows = (ngn: IDataObject) => ({ toolSpendingLimits: { limit: [{ currency: 'NGN', ...ngn }] } });
		expect(readToolLimits(from({ toolAllowMoneyMovement: ' TRUE ', ...rows({ maxAmountPerCall: '250', maxTotalPerExecution: 400 }) }))).toMatchObject({
			allowMoneyMovement: true,
			currencies: { NGN: { maxAmountPerCall: 250, maxTotalPerExecution: 400, maxTotalPerWindow: 0 } },
		});
		expect(() => readToolLimits(from(rows({ maxAmountPerCall: 'abc' })))).toThrow(/"toolSpendingLimits.limit\[0\].maxAmountPerCall" \(Max Amount per Call of NGN\) must be a number, got the text "abc"/);
		expect(() => readToolLimits(from(rows({ maxTotalPerExecution: '' })))).toThrow(/"toolSpendingLimits.limit\[0\].maxTotalPerExecution" \(Max Total per Execution of NGN\) must be a number/);
		expect(() => readToolLimits(from({ toolWindowMinutes: undefined }))).toThrow(/"toolWindowMinutes" must be a number/);
		expect(() => readToolLimits(from({ toolAllowMoneyMovement: 'yes' }))).toThrow(/"toolAllowMoneyMovement" must be true or false/);
	});

	it('refuses every money-moving call by default, sending nothing at all', async () => {
		const { out, sent } = await call(createTransfer, readToolLimits((_n, f) => f), transfer, new ExecutionTotals());
		expect(sent).toEqual([]);
		expect(out).toMatchObject({ refused: true, nothingSent: true, limit: 'allowMoneyMovement', operation: 'payout:createTransfer', asked: { amount: 100, currency: 'NGN' } });
		expect(String(out.reason)).toMatch(/^Refused, nothing was sent: money-moving operations are not allowed/);
	});

	it('sends a call within every limit', async () => {
		const { out, sent } = await call(createTransfer, allowed, transfer, new ExecutionTotals());
		expect(out.refused).toBeUndefined();
		expect(out.onusReference).toBe('ONUS-agent-1');
		expect(sent.map((c) => c.path)).toEqual(['/api/v1/transfer-requests/bank-transfer']);
	});

	it('max amount per call', async () => {
		const { out, sent } = await call(createTransfer, allowed, { ...transfer, amount: 1000.01 }, new ExecutionTotals());
		expect(sent).toEqual([]);
		expect(out).toMatchObject({ refused: true, limit: 'maxAmountPerCall', asked: { amount: 1000.01, currency: 'NGN', beneficiaries: ['9999991112'], reference: 'agent-1' } });
		expect(String(out.reason)).toContain('NGN 1000.01 is over the maximum of 1000 per call');
		expect((await call(createTransfer, allowed, { ...transfer, amount: 1000 }, new ExecutionTotals())).sent).toHaveLength(1);
	});

	it('max total per execution: counts per execution id, other executions unaffected', async () => {
		const totals = new ExecutionTotals();
		expect((await call(createTransfer, allowed, { ...transfer, amount: 800, reference: 'a1' }, totals)).out.refused).toBeUndefined();
		expect((await call(createTransfer, allowed, { ...transfer, amount: 700, reference: 'a2' }, totals)).out.refused).toBeUndefined();
		const third = await call(createTransfer, allowed, { ...transfer, amount: 0.01, reference: 'a3' }, totals);
		expect(third.sent).toEqual([]);
		expect(third.out).toMatchObject({ refused: true, limit: 'maxTotalPerExecution' });
		expect(String(third.out.reason)).toContain("would bring this execution's total to 1500.01, over the maximum of 1500 (1500 already sent)");
		expect(totals.get('exec-1', 'NGN')).toBe(1500);
		expect((await call(createTransfer, allowed, { ...transfer, amount: 800, reference: 'b1' }, totals, 'exec-2')).out.refused).toBeUndefined();
	});

	it('forgets an execution\'s totals only once idle for a day, never because other executions came (fail closed)', () => {
		let now = 0;
		const totals = new ExecutionTotals(3, () => now);
		for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) totals.add(id, 'NGN', 10);
		expect(totals.size).toBe(5); // over the soft bound, none idle: all kept
		expect(totals.get('e1', 'NGN')).toBe(10);
		now = EXECUTION_IDLE_MS + 1;
		totals.add('e6', 'NGN', 1);
		expect(totals.size).toBe(3);
		expect(totals.get('e1', 'NGN')).toBe(0);
	});

	it('totals are scoped to workflow and node: the same execution id elsewhere is another bucket', async () => {
		const totals = new ExecutionTotals();
		const windows = new WindowTotals();
		const a = { executionId: 'exec-1', workflowId: 'wf-a', nodeName: 'PayOnUs' };
		const b = { executionId: 'exec-1', workflowId: 'wf-b', nodeName: 'PayOnUs' };
		expect((await scoped(allowed, { ...transfer, amount: 1000 }, totals, windows, a)).out.refused).toBeUndefined();
		expect((await scoped(allowed, { ...transfer, amount: 1000 }, totals, windows, b)).out.refused).toBeUndefined();
		expect((await scoped(allowed, { ...transfer, amount: 1000 }, totals, windows, a)).out).toMatchObject({ refused: true, limit: 'maxTotalPerExecution' });
	});

	describe('calls without an execution of their own (MCP Server Trigger)', () => {
		const mcp = (workflowId = 'wf-mcp', nodeName = 'PayOnUs') => ({ executionId: undefined, workflowId, nodeName });

		it('refused, nothing sent, when no window total is set: a total per execution cannot be counted', async () => {
			const { out, sent } = await scoped(allowed, { ...transfer, amount: 800 }, new ExecutionTotals(), new WindowTotals(), mcp());
			expect(sent).toEqual([]);
			expect(out).toMatchObject({ refused: true, nothingSent: true, limit: 'maxTotalPerWindow' });
			expect(String(out.reason)).toMatch(/without a workflow execution of its own .* MCP .* setting Max Total per Window/);
		});

		it('with a window total: shared by every MCP session of this tool in this workflow, not by other workflows; freed when the window passes', async () => {
			let now = 1_000_000;
			const windows = new WindowTotals(() => now);
			const totals = new ExecutionTotals();
			const limits = withNgn({ maxTotalPerWindow: 1500 }, { ...allowed, windowMinutes: 10 });
			const first = await scoped(limits, { ...transfer, amount: 800, reference: 's1' }, totals, windows, mcp());
			expect(first.out.refused).toBeUndefined();
			// A second session (another MCP client) of the same tool: over the window total.
			const second = await scoped(limits, { ...transfer, amount: 800, reference: 's2' }, totals, windows, mcp());
			expect(second.sent).toEqual([]);
			expect(second.out).toMatchObject({ refused: true, limit: 'maxTotalPerWindow' });
			expect(String(second.out.reason)).toContain("would bring this tool's total in this workflow over the last 10 minutes to 1600, over the maximum of 1500 (800 already sent in that window");
			// Within the window and the total: sent.
			expect((await scoped(limits, { ...transfer, amount: 700, reference: 's3' }, totals, windows, mcp())).out.refused).toBeUndefined();
			// Another workflow's tool has its own window.
			expect((await scoped(limits, { ...transfer, amount: 800, reference: 'o1' }, totals, windows, mcp('wf-other'))).out.refused).toBeUndefined();
			// The window passes: the calls stop counting.
			now += 10 * 60 * 1000 + 1;
			expect((await scoped(limits, { ...transfer, amount: 800, reference: 's4' }, totals, windows, mcp())).out.refused).toBeUndefined();
		});

		it('a window total also limits executions with ids, across executions', async () => {
			const windows = new WindowTotals(() => 5);
			const limits = withNgn({ maxTotalPerWindow: 1000 });
			const at = (executionId: string) => ({ executionId, workflowId: 'wf', nodeName: 'PayOnUs' });
			expect((await scoped(limits, { ...transfer, amount: 600 }, new ExecutionTotals(), windows, at('e1'))).out.refused).toBeUndefined();
			expect((await scoped(limits, { ...transfer, amount: 600 }, new ExecutionTotals(), windows, at('e2'))).out).toMatchObject({ refused: true, limit: 'maxTotalPerWindow' });
		});
	});

	it('beneficiary allow-list: accounts and phone numbers (+ ignored); every bulk row', async () => {
		const list: ToolLimits = { ...allowed, currencies: { NGN, KES: NGN }, allowedBeneficiaries: parseBeneficiaries('9999991112,\n+254700000000') };
		expect((await call(createTransfer, list, transfer, new ExecutionTotals())).sent).toHaveLength(1);
		const other = await call(createTransfer, list, { ...transfer, beneficiaryAccountNumber: '1234567890' }, new ExecutionTotals());
		expect(other.out).toMatchObject({ refused: true, limit: 'allowedBeneficiaries' });
		expect(String(other.out.reason)).toContain('1234567890 is not on the list of allowed beneficiaries');
		const momo = { ...transfer, transferType: 'WALLET_TO_MOMO', currency: 'KES', countryCode: 'KE', momoNetwork: 'MPESA_KE', beneficiaryPhoneNumber: '+254700000000' };
		expect((await call(createTransfer, list, momo, new ExecutionTotals())).sent).toHaveLength(1);
		const rows = [
			{ beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'A', beneficiaryBankCode: '044', amount: 10, narration: '' },
			{ beneficiaryAccountNumber: '5555555555', beneficiaryAccountName: 'B', beneficiaryBankCode: '044', amount: 10, narration: '' },
		];
		const bulk = await call(
			bulkTransfer,
			list,
			{ source: 'items', businessId: 'BUS-2001', currency: 'NGN', reference: 'batch-1' },
			new ExecutionTotals(),
			'exec-1',
			service(),
			rows,
		);
		expect(bulk.sent).toEqual([]);
		expect(bulk.out).toMatchObject({ refused: true, limit: 'allowedBeneficiaries', asked: { amount: 20 } });
		expect(String(bulk.out.reason)).toContain('5555555555');
	});

	it('a bulk batch counts its total against the per-call limit', async () => {
		const rows = [600, 600].map((amount, i) => ({ beneficiaryAccountNumber: `999999111${i}`, beneficiaryAccountName: 'A', beneficiaryBankCode: '044', amount, narration: '' }));
		const bulk = await call(bulkTransfer, allowed, { source: 'items', businessId: 'BUS-2001', currency: 'NGN', reference: 'batch-2' }, new ExecutionTotals(), 'exec-1', service(), rows);
		expect(bulk.out).toMatchObject({ refused: true, limit: 'maxAmountPerCall', asked: { amount: 1200 } });
	});

	it('a tokenized card charge (NGN) is limited too; the card token is never shown', async () => {
		const { out, sent } = await call(chargeTokenizedCard, withNgn({ maxAmountPerCall: 10 }), { businessId: 'BUS-2001', cardTokenId: 'TOK-SECRET', amount: 50, reference: 'tok-1', additionalFields: {} }, new ExecutionTotals());
		expect(sent).toEqual([]);
		expect(out).toMatchObject({ refused: true, limit: 'maxAmountPerCall', asked: { currency: 'NGN', amount: 50 } });
		expect(JSON.stringify(out)).not.toContain('TOK-SECRET');
	});
});

describe('the node as a tool', () => {
	function ctx(type: string, params: IDataObject, executionId = 'exec-node'): IExecuteFunctions {
		return {
			getInputData: () => [{ json: {} }],
			getNodeParameter: (name: string, _i: number, fallback?: unknown) => (name in params ? params[name] : fallback),
			continueOnFail: () => false,
			getNode: () => ({ name: 'PayOnUs', type, typeVersion: 2, parameters: {}, id: '1', position: [0, 0] }),
			getExecutionId: () => executionId,
			getWorkflow: () => ({ id: 'wf-node', name: 'wf', active: false }),
			helpers: {},
		} as unknown as IExecuteFunctions;
	}
	const transferParams = { resource: 'payout', operation: 'createTransfer', ...transfer };

	it('as payOnUsTool: a money-moving call is refused by default, as output', async () => {
		nodeClient = service();
		const [[item]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', transferParams));
		expect(item.json).toMatchObject({ refused: true, limit: 'allowMoneyMovement' });
		expect(nodeClient.calls).toEqual([]);
	});

	it('as payOnUsTool without an execution id (an MCP call): refused unless a window total is set; scoped to the workflow and node', async () => {
		const params = { ...transferParams, toolAllowMoneyMovement: true, toolSpendingLimits: { limit: [{ currency: 'NGN' }] }, amount: 800 };
		nodeClient = service();
		const [[refused]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', params, ''));
		expect(refused.json).toMatchObject({ refused: true, limit: 'maxTotalPerWindow' });
		expect(nodeClient.calls).toEqual([]);
		nodeClient = service();
		const withWindow = { ...params, toolSpendingLimits: { limit: [{ currency: 'NGN', maxTotalPerWindow: 1500 }] }, toolWindowMinutes: 5, reference: 'mcp-w1' };
		const [[sent]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', withWindow, ''));
		expect(sent.json.onusReference).toBe('ONUS-mcp-w1');
	});

	it('as payOnUsTool with money allowed: limits read from the node', async () => {
		nodeClient = service();
		const params = { ...transferParams, toolAllowMoneyMovement: true, toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 50 }] } };
		const [[item]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', params));
		expect(item.json).toMatchObject({ refused: true, limit: 'maxAmountPerCall' });
		nodeClient = service();
		const [[ok]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', { ...params, toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 100 }] } }));
		expect(ok.json.onusReference).toBe('ONUS-agent-1');
	});

	it('as the plain node (not a tool): no limits', async () => {
		nodeClient = service();
		const [[item]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUs', transferParams));
		expect(item.json.onusReference).toBe('ONUS-agent-1');
	});

	it('read-only operations are unaffected as a tool', async () => {
		nodeClient = fakeClient(() => [{ code: '044', name: 'Access Bank' }]);
		const out = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', { resource: 'payout', operation: 'listBanks', currency: 'NGN' }));
		expect(out[0][0].json).toEqual({ code: '044', name: 'Access Bank' });
	});

	it('shows the limit parameters only on the tool', () => {
		const props = new PayOnUs().description.properties.filter((p) => p.name.startsWith('tool'));
		expect(props.map((p) => p.name)).toEqual([
			'toolMoneyNotice',
			'toolAllowMoneyMovement',
			'toolSpendingLimits',
			'toolWindowMinutes',
			'toolAllowedBeneficiaries',
		]);
		for (const p of props) expect(p.displayOptions?.show?.['@tool']).toEqual([true]);
		const byName = Object.fromEntries(props.map((p) => [p.name, p.default]));
		expect(byName.toolAllowMoneyMovement).toBe(TOOL_DEFAULTS.allowMoneyMovement);
		expect(byName.toolWindowMinutes).toBe(TOOL_DEFAULTS.windowMinutes);
		expect(byName.toolAllowedBeneficiaries).toBe(TOOL_DEFAULTS.allowedBeneficiaries);
	});
});
