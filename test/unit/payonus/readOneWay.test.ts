/**
 * Rule 7 (docs/reliability.md): a value is read one way. Every value a
 * person, a file or an upstream node gives is accepted only in a form whose
 * meaning is certain; a form with two readings is refused naming the form to
 * write, before anything is sent, on every path of the PayOnUs node: an
 * item's expression, an AI tool's $fromAI(), a bulk CSV, bulk items. The
 * readers are nodes/shared/values/ (issue 36); each case here failed on main
 * (accepted and sent, or refused without naming the form to write).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { FakeClient, fakeExecuteContext, type Params } from '../fakes';

let client: FakeClient;
jest.mock('../../../nodes/shared/transport', () => ({
	createClient: async () => client,
}));

import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';

const node = new PayOnUs();

/** The node's context: each parameter as stored, or a function of the item index (an expression n8n resolves per item). */
function context(
	items: IDataObject[],
	params: Params,
	{ type = 'n8n-nodes-payonus.payOnUs', typeVersion = 1, binary }: { type?: string; typeVersion?: number; binary?: string } = {},
): IExecuteFunctions {
	const resolved = (i: number): Params =>
		Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'function' ? (v as (i: number) => unknown)(i) : v]));
	return {
		...fakeExecuteContext(items, resolved),
		getNode: () => ({ name: 'PayOnUs', type, typeVersion, parameters: params, id: '1', position: [0, 0] }),
		getExecutionId: () => 'exec-read-one-way',
		getWorkflow: () => ({ id: 'wf-read-one-way' }),
		helpers: {
			assertBinaryData: () => ({ fileName: 'pay.csv', mimeType: 'text/csv' }),
			getBinaryDataBuffer: async () => Buffer.from(binary ?? '', 'utf8'),
		},
	} as unknown as IExecuteFunctions;
}

const service = () =>
	new FakeClient().respondAll((o) => {
		if (o.method === 'GET') return { content: [], totalNumberOfItems: 0 };
		const body = (o.body ?? {}) as IDataObject;
		return { onusReference: `ONUS-TRNF-${String(1234567890000 + client.requests.length)}-31052024-101500`, merchantReference: body.reference, amount: body.amount, currency: body.currency, beneficiaryAccountNumber: body.beneficiaryAccountNumber, businessId: body.businessId, paymentStatus: 'PENDING' };
	});

/** Create Transfer with each field from the item (as a workflow maps them). */
const transfer = (over: Params = {}): Params => ({
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
	amount: (i: number) => items[i].amount,
	currency: 'NGN',
	countryCode: 'NG',
	reference: (i: number) => items[i].reference ?? `r1w-${i}`,
	beneficiaryBankCode: (i: number) => items[i].bank ?? '044',
	beneficiaryAccountNumber: (i: number) => items[i].account ?? '0123456789',
	beneficiaryAccountName: (i: number) => items[i].name ?? 'Ada Obi',
	narration: (i: number) => items[i].narration ?? 'Rule 7',
	verifyBeneficiaryName: false,
	fromSubWallet: false,
	...over,
});
let items: IDataObject[] = [];

const posts = () => client.requests.filter((r) => r.method === 'POST');

async function refused(params: Params, expected: string | RegExp, options?: Parameters<typeof context>[2]) {
	await expect(node.execute.call(context(items, params, options))).rejects.toThrow(expected);
	expect(posts()).toEqual([]);
}

beforeEach(() => {
	client = service();
});

describe('amounts: a decimal comma or a thousands separator is refused, naming the form to write; nothing is sent', () => {
	it.each([
		['150,50', 'write 150.50'],
		['1,500', '"1,500" can be read as 1500 or 1.50'],
		['1.500', '"1.500" can be read as 1500 or 1.50'],
		['1 500', 'write 1500'],
		['1,500.50', 'write 1500.50'],
		['1.500,50', 'write 1500.50'],
	])('an item mapping Amount to %j', async (amount, hint) => {
		items = [{ amount }];
		await refused(transfer(), hint);
	});

	it("an AI tool's $fromAI() giving \"1,500\" for Amount: refused, nothing sent", async () => {
		items = [{ amount: '1,500' }];
		const params = transfer({
			amount: () => '1,500',
			toolAllowMoneyMovement: true,
			toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 100000, maxTotalPerExecution: 100000, maxTotalPerWindow: 0 }] },
		});
		await refused(params, '"1,500" can be read as 1500 or 1.50', { type: 'n8n-nodes-payonus.payOnUsTool' });
	});

	it('plain 1500.50 and the number 1500.5 are taken as written', async () => {
		items = [{ amount: '1500.50', reference: 'r1w-a' }, { amount: 1500.5, reference: 'r1w-b' }];
		await node.execute.call(context(items, transfer()));
		expect(posts().map((r) => (r.body as IDataObject).amount)).toEqual([1500.5, 1500.5]);
	});
});

describe('identifiers that lose leading zeros: a number is refused, saying to keep it as text', () => {
	it.each([
		['account', 123456789, 'Beneficiary Account Number'],
		['bank', 44, 'Beneficiary Bank'],
		['reference', 20240501, 'Reference'],
	])('a transfer whose %s is the number %j', async (field, value, label) => {
		items = [{ amount: 10, [field]: value }];
		await refused(transfer(), new RegExp(`"${label}" must be text, not the number ${value}: a number loses leading zeros`));
	});
});

describe('phone numbers: a local number is refused where the country is not written', () => {
	it('a mobile money transfer to 0700000001 (KE) is told to write +254700000001', async () => {
		items = [{ amount: 10 }];
		await refused(
			transfer({ transferType: 'WALLET_TO_MOMO', currency: 'KES', countryCode: 'KE', momoNetwork: 'MPESA_KE', beneficiaryPhoneNumber: '0700000001' }),
			'(write +254700000001)',
		);
	});
});

describe('references: look-alike characters are named; the case and edge spaces are decided', () => {
	it('a Cyrillic А in a reference is named', async () => {
		items = [{ amount: 10, reference: 'INV-\u0410' }];
		await refused(transfer(), '"\u0410" (U+0410) is not a plain letter, digit or symbol; retype it');
	});
	it('an invisible zero-width space is named', async () => {
		items = [{ amount: 10, reference: 'INV\u200b-1' }];
		await refused(transfer(), 'an invisible character (U+200B)');
	});
	it('edge spaces are dropped (a reference holds none) and the case is sent as written', async () => {
		items = [{ amount: 10, reference: '  Inv-Mixed-1 ' }];
		await node.execute.call(context(items, transfer()));
		expect((posts()[0].body as IDataObject).reference).toBe('Inv-Mixed-1');
	});
});

describe('text that reaches a bank never starts like a spreadsheet formula', () => {
	it.each([
		['name', '=HYPERLINK("http://evil.example","Click")', 'Beneficiary Account Name'],
		['narration', '+cmd|calc', 'Narration'],
		['narration', '@SUM(1+1)', 'Narration'],
		['reference', '-2+3', 'Reference'],
	])('a transfer whose %s is %j', async (field, value, label) => {
		items = [{ amount: 10, [field]: value }];
		await refused(transfer(), `"${label}" must not start with "${value[0]}"`);
	});
});

const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';
const bulk = (source: 'binary' | 'items'): Params => ({
	resource: 'payout',
	operation: 'bulkTransfer',
	source,
	binaryPropertyName: 'data',
	businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
	currency: 'NGN',
	reference: 'r1w-batch',
	allowDuplicateRows: false,
});

describe('bulk transfers: the CSV and the items are read by the same readers; nothing is sent', () => {
	it.each([
		['"150,50"', 'write 150.50'],
		['1 500', 'write 1500'],
		['1.500', 'can be read as 1500 or 1.50'],
	])('a CSV row with the amount %s', async (amount, hint) => {
		items = [{}];
		await refused(bulk('binary'), hint, { binary: [HEADER, `0123456789,Ada Obi,044,${amount},May`].join('\n') });
	});

	it('a CSV row whose name starts with =: the line and the field are named', async () => {
		items = [{}];
		await refused(bulk('binary'), /"beneficiaryAccountName" must not start with "="/, {
			binary: [HEADER, '0123456789,Ada Obi,044,10,May', '0123456780,"=HYPERLINK(""http://evil.example"",""Click"")",044,10,May'].join('\n'),
		});
	});

	it('items whose account number is a number (a spreadsheet dropped the 0): refused naming the item, nothing paid', async () => {
		items = [
			{ beneficiaryAccountNumber: '0123456789', beneficiaryAccountName: 'Ada Obi', beneficiaryBankCode: '044', amount: 10 },
			{ beneficiaryAccountNumber: 123456789, beneficiaryAccountName: 'Bo Eze', beneficiaryBankCode: '044', amount: 10 },
		];
		await refused(bulk('items'), /"beneficiaryAccountNumber" must be text, not the number 123456789: a number loses leading zeros/);
	});

	it('items whose bank code is the number 44 (044 lost its 0) and whose amount has a decimal comma', async () => {
		items = [{ beneficiaryAccountNumber: '0123456789', beneficiaryAccountName: 'Ada Obi', beneficiaryBankCode: 44, amount: '10,50', narration: '@x' }];
		await refused(bulk('items'), /"beneficiaryBankCode" must be text, not the number 44.*"narration" must not start with "@".*"amount" must be a number with a point before the decimals and no thousands separators: write 10.50 \(not "10,50"\)$/);
	});
});
