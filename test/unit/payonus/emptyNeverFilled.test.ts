import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { EmptyFromExpressionError, leftEmptyInEditor, withDefaults } from '../../../nodes/shared/credential/defaults';
import { FakeClient, type Params } from '../fakes';

/**
 * Rule 5 (docs/reliability.md): a value that comes out empty is never
 * filled in. A default (the credential's business or merchant, Create
 * Transfer's country from the currency) applies only when the field is
 * empty IN THE EDITOR (the stored parameter, `getNode().parameters`); an
 * expression or an AI tool's $fromAI() that gives nothing fails the item,
 * naming the field and what the expression gave, and nothing is sent.
 * Enforced in nodes/shared/credential/defaults.ts (withDefaults).
 */

let client: FakeClient;
jest.mock('../../../nodes/shared/transport', () => ({
	createClient: async () => client,
}));

import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';

const node = new PayOnUs();

/** A context whose node holds `stored` (what the editor saved) and whose getNodeParameter gives `evaluated(i)`. */
function context(
	items: IDataObject[],
	stored: Params,
	evaluated: (i: number) => Params,
	{ type = 'n8n-nodes-payonus.payOnUs', continueOnFail = false } = {},
): IExecuteFunctions {
	return {
		getInputData: () => items.map((json) => ({ json })),
		getNodeParameter: (name: string, i: number, fallback?: unknown) => {
			const p = { ...stored, ...evaluated(i) };
			return name in p ? p[name] : fallback;
		},
		continueOnFail: () => continueOnFail,
		getNode: () => ({ name: 'PayOnUs', type, typeVersion: 1, parameters: stored, id: '1', position: [0, 0] }),
		getExecutionId: () => 'exec-empty',
		getWorkflow: () => ({ id: 'wf-empty' }),
		helpers: {},
	} as unknown as IExecuteFunctions;
}

const transferService = () =>
	new FakeClient().respondAll((o) => {
		if (o.method === 'GET') return { content: [], totalNumberOfItems: 0 };
		const body = (o.body ?? {}) as IDataObject;
		return { onusReference: `ONUS-${String(body.reference)}`, merchantReference: body.reference, amount: body.amount, currency: body.currency, beneficiaryAccountNumber: body.beneficiaryAccountNumber, paymentStatus: 'PENDING' };
	});

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** Create Transfer as saved in the editor; `over` replaces stored parameters. */
function transfer(over: Params = {}): Params {
	return {
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: rl('={{ $json.businessId }}'),
		amount: 100,
		currency: 'NGN',
		countryCode: '',
		reference: 'empty-1',
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Ada Obi',
		narration: 'Rule 5',
		verifyBeneficiaryName: false,
		fromSubWallet: false,
		...over,
	};
}

const moneySent = () => client.requests.filter((r) => r.method === 'POST');

describe("rule 5: a Business an expression left empty never becomes the credential's default", () => {
	beforeEach(() => {
		client = transferService();
	});

	it.each([
		['nothing (undefined)', undefined, 'nothing (undefined: the expression gave no value)'],
		['empty text', '', 'empty text ""'],
	])('Create Transfer, Business {{ $json.businessId }} giving %s: the item fails naming field, expression and result; nothing sent', async (_what, value, said) => {
		const ctx = context([{}], transfer(), () => ({ businessId: rl(value as string) }));
		const error = (await node.execute.call(ctx).catch((e: unknown) => e)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(`"Business" came out empty: {{ $json.businessId }} gave ${said}`);
		expect(error.context.itemIndex).toBe(0);
		expect(error.description).toMatch(/^Nothing was sent\. The credential's Default Business ID applies only when "Business" is left empty in the editor/);
		expect(client.requests).toHaveLength(0);
	});

	it('names the item that came out empty; with Continue On Fail the others are paid from their own business', async () => {
		const items = [{ businessId: 'BUS-2002' }, {}, { businessId: 'BUS-2003' }];
		const ctx = context(items, transfer({ reference: '={{ "empty-" + $itemIndex }}' }), (i) => ({ businessId: rl(items[i].businessId ?? ''), reference: `empty-${i}` }), {
			continueOnFail: true,
		});
		const [out] = (await node.execute.call(ctx)) as INodeExecutionData[][];
		expect(out[1].json.error).toBe('"Business" came out empty: {{ $json.businessId }} gave empty text "" [item 1]');
		expect(moneySent().map((r) => (r.body as IDataObject).businessId)).toEqual(['BUS-2002', 'BUS-2003']);
	});

	it("left empty in the editor, Business takes the credential's default (as before)", async () => {
		for (const stored of [rl(''), undefined, { __rl: true, mode: 'list', value: '' }, '=']) {
			client = transferService();
			const params = transfer({ businessId: stored });
			await node.execute.call(context([{}], params, () => ({ businessId: rl('') })));
			expect(moneySent().map((r) => (r.body as IDataObject).businessId)).toEqual(['BUS-2001']);
		}
	});

	it('a money-moving operation never pays from the default business this way', async () => {
		client = transferService();
		const ctx = context([{}], transfer({ countryCode: 'NG' }), () => ({ businessId: rl('') }));
		await expect(node.execute.call(ctx)).rejects.toThrow('"Business" came out empty');
		expect(client.requests).toHaveLength(0);
	});

	it("an AI tool's $fromAI() giving nothing for Business is refused the same way: nothing sent", async () => {
		const stored = transfer({
			businessId: "={{ $fromAI('Business', 'the business paying', 'string') }}",
			toolAllowMoneyMovement: true,
			toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 1000, maxTotalPerExecution: 5000, maxTotalPerWindow: 0 }] },
		});
		const ctx = context([{}], stored, () => ({ businessId: '' }), { type: 'n8n-nodes-payonus.payOnUsTool' });
		await expect(node.execute.call(ctx)).rejects.toThrow(`"Business" came out empty: {{ $fromAI('Business', 'the business paying', 'string') }} gave empty text ""`);
		expect(client.requests).toHaveLength(0);
	});
});

describe("rule 5 for the operation's own default: Create Transfer's Country Code from the currency", () => {
	beforeEach(() => {
		client = transferService();
	});

	it('an expression giving nothing is an error naming Country Code; nothing sent', async () => {
		const stored = transfer({ businessId: rl('BUS-2001'), countryCode: '={{ $json.country }}' });
		const error = (await node.execute.call(context([{}], stored, () => ({ countryCode: '' }))).catch((e: unknown) => e)) as NodeOperationError;
		expect(error.message).toBe('"Country Code" came out empty: {{ $json.country }} gave empty text ""');
		expect(error.description).toContain('The default (the country of the currency) applies only when "Country Code" is left empty in the editor');
		expect(client.requests).toHaveLength(0);
	});

	it('left empty in the editor, it is the country of the currency', async () => {
		await node.execute.call(context([{}], transfer({ businessId: rl('BUS-2001'), countryCode: '' }), () => ({})));
		expect((moneySent()[0].body as IDataObject).countryCode).toBe('NG');
	});
});

describe('rule 5 for operations that move no money too', () => {
	const getPayment = (businessId: unknown): Params => ({ resource: 'payin', operation: 'getPayment', businessId, onusReference: 'ONUS-1' });

	beforeEach(() => {
		client = new FakeClient().respondAll((o) => ({ onusReference: 'ONUS-1', path: o.path }));
	});

	it('Create Dynamic Account (a write that moves no money) fails instead of taking the default business; nothing sent', async () => {
		const account = { resource: 'payin', operation: 'createDynamicAccount', businessId: rl('={{ $json.businessId }}'), amount: 100, currency: 'NGN', reference: 'dyn-1', customerName: 'Ada Obi', customerEmail: 'ada@example.com', additionalFields: {} };
		client = new FakeClient();
		await expect(node.execute.call(context([{}], account, () => ({ businessId: rl('') })))).rejects.toThrow('"Business" came out empty');
		expect(client.requests).toHaveLength(0);
	});

	it('Get Payment and Get Many Wallets (Merchant ID) fail instead; nothing is read', async () => {
		await expect(node.execute.call(context([{}], getPayment(rl('={{ $json.businessId }}')), () => ({ businessId: rl('') })))).rejects.toThrow(
			'"Business" came out empty',
		);
		const wallets = { resource: 'wallet', operation: 'listWallets', merchantId: '={{ $json.merchant }}', filters: {} };
		await expect(node.execute.call(context([{}], wallets, () => ({ merchantId: undefined })))).rejects.toThrow(
			'"Merchant ID" came out empty: {{ $json.merchant }} gave nothing',
		);
		expect(client.requests).toHaveLength(0);
	});
});

describe('the rule itself (nodes/shared/credential/defaults.ts)', () => {
	it('leftEmptyInEditor: absent, "", spaces, "=", "={{ }}" and a resource locator holding one of these; never an expression', () => {
		for (const v of [undefined, null, '', '  ', '=', '={{ }}', '={{}}', { __rl: true, mode: 'list', value: '' }, { mode: 'id', value: '=' }]) expect(leftEmptyInEditor(v)).toBe(true);
		for (const v of ['BUS-1', '={{ $json.b }}', "={{ $fromAI('b') }}", { __rl: true, mode: 'id', value: '={{ $json.b }}' }, { __rl: true, mode: 'list', value: 'BUS-1' }]) {
			expect(leftEmptyInEditor(v)).toBe(false);
		}
	});

	it('withDefaults: fills what the editor left empty, refuses what an expression left empty, keeps what is set', () => {
		const of = { credential: { businessId: 'BUS-2', merchantId: 'MER-2' }, own: { countryCode: 'the country of the currency' } };
		expect(withDefaults({ businessId: '', countryCode: '' }, {}, of)).toEqual({ businessId: 'BUS-2', countryCode: '' });
		expect(withDefaults({ businessId: 'BUS-1' }, { businessId: '={{ $json.b }}' }, of)).toEqual({ businessId: 'BUS-1' });
		expect(() => withDefaults({ businessId: null }, { businessId: '={{ $json.b }}' }, of)).toThrow(EmptyFromExpressionError);
		expect(() => withDefaults({ countryCode: ' ' }, { countryCode: '={{ $json.c }}' }, of)).toThrow('"countryCode" came out empty: {{ $json.c }} gave empty text " "');
		// Without the stored parameters (read-only operations before version 4): filled as before.
		expect(withDefaults({ businessId: '' }, undefined, of)).toEqual({ businessId: 'BUS-2' });
		// A filter inside a collection is never filled nor refused.
		expect(withDefaults({ filters: { businessId: '' } }, { filters: { businessId: '={{ $json.b }}' } }, of)).toEqual({ filters: { businessId: '' } });
	});
});
