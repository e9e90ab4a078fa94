import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { findOperation } from '../../../nodes/PayOnUs/resources';
import {
	ExecutionTotals,
	limitedOperation,
	parseBeneficiaries,
	readToolLimits,
	TOOL_DEFAULTS,
	type ToolLimits,
} from '../../../nodes/PayOnUs/safeguards/toolLimits';
import type { NodeOperation } from '../../../nodes/PayOnUs/resources/types';
import type { RequestOptions } from '../../../nodes/shared/client';
import { context, fakeClient, type FakeClient } from '../fakes';

let nodeClient: FakeClient;
jest.mock('../../../nodes/shared/transport', () => ({
	createClient: async () => nodeClient,
}));

import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';

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

const allowed: ToolLimits = {
	allowMoneyMovement: true,
	maxAmountPerCall: 1000,
	maxTotalPerExecution: 1500,
	allowedCurrencies: ['NGN'],
	allowedBeneficiaries: [],
};

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

describe('AI tool spending limits', () => {
	it('defaults: money movement off, small limits, no currency allowed, any beneficiary', () => {
		expect(TOOL_DEFAULTS).toEqual({ allowMoneyMovement: false, maxAmountPerCall: 1000, maxTotalPerExecution: 5000, allowedCurrencies: [], allowedBeneficiaries: '' });
		const limits = readToolLimits((_n, fallback) => fallback);
		expect(limits).toEqual({ allowMoneyMovement: false, maxAmountPerCall: 1000, maxTotalPerExecution: 5000, allowedCurrencies: [], allowedBeneficiaries: [] });
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

	it('keeps the totals of a bounded number of executions, least recently used forgotten first', () => {
		const totals = new ExecutionTotals(3);
		for (const id of ['e1', 'e2', 'e3']) totals.add(id, 'NGN', 10);
		totals.add('e1', 'NGN', 5); // e1 used again: e2 is now the oldest
		totals.add('e4', 'NGN', 1);
		expect(totals.size).toBe(3);
		expect(totals.get('e2', 'NGN')).toBe(0);
		expect(totals.get('e1', 'NGN')).toBe(15);
	});

	it('allowed currencies: none chosen refuses, another currency refuses', async () => {
		const none = await call(createTransfer, { ...allowed, allowedCurrencies: [] }, transfer, new ExecutionTotals());
		expect(none.out).toMatchObject({ refused: true, limit: 'allowedCurrencies' });
		expect(String(none.out.reason)).toContain('NGN is not an allowed currency (allowed: none)');
		const kes = await call(
			createTransfer,
			allowed,
			{ ...transfer, transferType: 'WALLET_TO_MOMO', currency: 'KES', countryCode: 'KE', momoNetwork: 'MPESA_KE', beneficiaryPhoneNumber: '254700000000' },
			new ExecutionTotals(),
		);
		expect(kes.sent).toEqual([]);
		expect(kes.out).toMatchObject({ refused: true, limit: 'allowedCurrencies', asked: { currency: 'KES' } });
	});

	it('beneficiary allow-list: accounts and phone numbers (+ ignored); every bulk row', async () => {
		const list = { ...allowed, allowedCurrencies: ['NGN', 'KES'], allowedBeneficiaries: parseBeneficiaries('9999991112,\n+254700000000') };
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
		const { out, sent } = await call(chargeTokenizedCard, { ...allowed, maxAmountPerCall: 10 }, { businessId: 'BUS-2001', cardTokenId: 'TOK-SECRET', amount: 50, reference: 'tok-1', additionalFields: {} }, new ExecutionTotals());
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

	it('as payOnUsTool with money allowed: limits read from the node', async () => {
		nodeClient = service();
		const params = { ...transferParams, toolAllowMoneyMovement: true, toolAllowedCurrencies: ['NGN'], toolMaxAmountPerCall: 50 };
		const [[item]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', params));
		expect(item.json).toMatchObject({ refused: true, limit: 'maxAmountPerCall' });
		nodeClient = service();
		const [[ok]] = await new PayOnUs().execute.call(ctx('n8n-nodes-payonus.payOnUsTool', { ...params, toolMaxAmountPerCall: 100 }));
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
			'toolMaxAmountPerCall',
			'toolMaxTotalPerExecution',
			'toolAllowedCurrencies',
			'toolAllowedBeneficiaries',
		]);
		for (const p of props) expect(p.displayOptions?.show?.['@tool']).toEqual([true]);
		const byName = Object.fromEntries(props.map((p) => [p.name, p.default]));
		expect(byName.toolAllowMoneyMovement).toBe(TOOL_DEFAULTS.allowMoneyMovement);
		expect(byName.toolMaxAmountPerCall).toBe(TOOL_DEFAULTS.maxAmountPerCall);
		expect(byName.toolMaxTotalPerExecution).toBe(TOOL_DEFAULTS.maxTotalPerExecution);
		expect(byName.toolAllowedCurrencies).toEqual(TOOL_DEFAULTS.allowedCurrencies);
		expect(byName.toolAllowedBeneficiaries).toBe(TOOL_DEFAULTS.allowedBeneficiaries);
	});
});
