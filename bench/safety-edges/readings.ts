/**
 * Safety-edges area "readings" (issue 36, rule 7 of docs/reliability.md: a
 * value is read one way): values with two readings, numbers where text is
 * expected, local phone numbers, look-alike references and text starting
 * like a spreadsheet formula, given the way users wire them. The PayOnUs
 * node's execute() with the real transport (n8n-core's request helpers)
 * against an in-process sandbox; the Payment Page's start form through its
 * reader (checkout/input.ts). No edge here is n8n's own, so no n8n starts.
 *
 * Every row must be refused before anything is sent, naming the form to
 * write. Money moved: the money-moving POSTs the sandbox received for the
 * row plus the payins and transfers its ledger gained (goal 0).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { PayOnUsApi } from '../../credentials/PayOnUsApi.credentials';
import { PayOnUs } from '../../nodes/PayOnUs/PayOnUs.node';
import { withCustomer } from '../../nodes/PayOnUsPaymentPage/checkout/input';
import type { PageConfig } from '../../nodes/PayOnUsPaymentPage/checkout/types';
import { startSandbox } from '../../sandbox/server';
import { SandboxClient } from '../../sandbox/client';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../dev/inProcessN8n';
import { row, type SafetyArea, type SafetyRow } from './types';

const MONEY = /transfer-requests\/(bank-transfer|bulk)|card-payments|mobile-money\/collection|eft-payment$|dynamic-accounts|fixed-accounts/;
const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';

interface Case {
	edge: string;
	/** What the error must say (the form to write, or why). */
	names: string;
	items: IDataObject[];
	params: IDataObject;
	type?: string;
	csv?: string;
}

function context(url: string, c: Case): IExecuteFunctions {
	const base = new FakeN8n(new CredentialStore(sandboxCredential(url)), new PayOnUsApi()).context();
	const node = { ...(base.getNode as () => IDataObject)(), type: c.type ?? 'n8n-nodes-payonus.payOnUs', typeVersion: 1, parameters: c.params };
	const helpers = base.helpers as IDataObject;
	return {
		...base,
		helpers: {
			...helpers,
			assertBinaryData: () => ({ fileName: 'pay.csv', mimeType: 'text/csv' }),
			getBinaryDataBuffer: async () => Buffer.from(c.csv ?? '', 'utf8'),
		},
		getNode: () => node,
		getInputData: () => c.items.map((json) => ({ json })),
		getNodeParameter: (name: string, i: number, fallback?: unknown) => {
			const v = c.params[name];
			if (typeof v === 'string' && v.startsWith('=$item.')) return c.items[i][v.slice('=$item.'.length)];
			return name in c.params ? v : fallback;
		},
		continueOnFail: () => true,
		getExecutionId: () => 'safety-edges-readings',
		getWorkflow: () => ({ id: 'wf-readings' }),
	} as unknown as IExecuteFunctions;
}

let seq = 0;
const tag = Date.now().toString(36);
const ref = () => `se-read-${tag}-${++seq}`;

/** Create Transfer with the amount, account, bank, name, narration and reference mapped from the item ("=$item.x"). */
const transfer = (over: IDataObject = {}): IDataObject => ({
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	amount: '=$item.amount',
	currency: 'NGN',
	countryCode: 'NG',
	reference: '=$item.reference',
	beneficiaryBankCode: '=$item.bank',
	beneficiaryAccountNumber: '=$item.account',
	beneficiaryAccountName: '=$item.name',
	narration: 'safety edge',
	verifyBeneficiaryName: false,
	...over,
});
const item = (over: IDataObject = {}): IDataObject => ({ amount: 100, reference: ref(), bank: '044', account: '9999991112', name: 'Sandbox Success Beneficiary', ...over });

const bulk = (source: 'binary' | 'items'): IDataObject => ({
	resource: 'payout',
	operation: 'bulkTransfer',
	source,
	binaryPropertyName: 'data',
	businessId: 'BUS-2001',
	currency: 'NGN',
	reference: ref(),
	allowDuplicateRows: false,
});
const bulkItem = (over: IDataObject = {}): IDataObject => ({
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Ada Obi',
	beneficiaryBankCode: '044',
	amount: 10,
	narration: 'May',
	...over,
});

const momoPayin = (over: IDataObject): IDataObject => ({
	resource: 'payin',
	operation: 'mobileMoneyCollection',
	businessId: 'BUS-2001',
	momoNetwork: 'MPESA_KE',
	amount: '=$item.amount',
	reference: ref(),
	customerName: '=$item.name',
	customerEmail: 'ada@example.com',
	customerPhone: '=$item.phone',
	additionalFields: {},
	...over,
});

const CASES: Case[] = [
	{ edge: 'transfer, Amount from an item: "150,50" (decimal comma)', names: 'write 150.50', items: [item({ amount: '150,50' })], params: transfer() },
	{ edge: 'transfer, Amount "1,500" (1500 or 1.50)', names: '"1,500" can be read as 1500 or 1.50', items: [item({ amount: '1,500' })], params: transfer() },
	{ edge: 'transfer, Amount "1.500" (1500 or 1.50)', names: '"1.500" can be read as 1500 or 1.50', items: [item({ amount: '1.500' })], params: transfer() },
	{ edge: 'transfer, Amount "1 500"', names: 'write 1500', items: [item({ amount: '1 500' })], params: transfer() },
	{ edge: 'transfer, Amount "1,500.50"', names: 'write 1500.50', items: [item({ amount: '1,500.50' })], params: transfer() },
	{
		edge: 'AI tool: $fromAI() gives Amount "1,500"',
		names: '"1,500" can be read as 1500 or 1.50',
		items: [item({ amount: '1,500' })],
		params: transfer({
			toolAllowMoneyMovement: true,
			toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 100000, maxTotalPerExecution: 100000, maxTotalPerWindow: 0 }] },
		}),
		type: 'n8n-nodes-payonus.payOnUsTool',
	},
	{
		edge: 'bulk CSV: a row amount "150,50"',
		names: 'write 150.50',
		items: [{}],
		params: bulk('binary'),
		csv: `${HEADER}\n9999991112,Ada Obi,044,"150,50",May\n`,
	},
	{ edge: 'bulk items: amount "1,500"', names: 'can be read as 1500 or 1.50', items: [bulkItem({ amount: '1,500' })], params: bulk('items') },
	{ edge: 'mobile money payin: Amount "1.500"', names: 'can be read as 1500 or 1.50', items: [{ amount: '1.500', name: 'Ada Obi', phone: '+254700000001' }], params: momoPayin({}) },
	{
		edge: 'bulk items: account 0123456789 as the number 123456789',
		names: 'must be text, not the number 123456789',
		items: [bulkItem(), bulkItem({ beneficiaryAccountNumber: 123456789 })],
		params: bulk('items'),
	},
	{ edge: 'bulk items: bank code 044 as the number 44', names: 'must be text, not the number 44', items: [bulkItem({ beneficiaryBankCode: 44 })], params: bulk('items') },
	{ edge: 'transfer: account number as the number 123456789', names: 'must be text, not the number 123456789', items: [item({ account: 123456789 })], params: transfer() },
	{ edge: 'transfer: reference as the number 20240501', names: 'must be text, not the number 20240501', items: [item({ reference: 20240501 })], params: transfer() },
	{
		edge: 'mobile money transfer to KE: local number 0700000001',
		names: 'write +254700000001',
		items: [item()],
		params: transfer({ transferType: 'WALLET_TO_MOMO', currency: 'KES', countryCode: 'KE', momoNetwork: 'MPESA_KE', beneficiaryPhoneNumber: '0700000001' }),
	},
	{ edge: 'mobile money payin: customer phone 0700000001 (no country)', names: 'must be in international format', items: [{ amount: 10, name: 'Ada Obi', phone: '0700000001' }], params: momoPayin({}) },
	{ edge: 'transfer: reference with a Cyrillic "А"', names: '"А" (U+0410)', items: [item({ reference: `INV-\u0410-${tag}` })], params: transfer() },
	{ edge: 'transfer: reference with a zero-width space', names: 'an invisible character (U+200B)', items: [item({ reference: `INV\u200b-${tag}` })], params: transfer() },
	{ edge: 'transfer: name =HYPERLINK(...)', names: 'must not start with "="', items: [item({ name: '=HYPERLINK("http://evil.example","Click")' })], params: transfer() },
	{ edge: 'transfer: reference starting with @', names: 'must not start with "@"', items: [item({ reference: `@SUM-${tag}` })], params: transfer() },
	{
		edge: 'bulk CSV: a row name =HYPERLINK(...)',
		names: 'must not start with "="',
		items: [{}],
		params: bulk('binary'),
		csv: `${HEADER}\n9999991112,"=HYPERLINK(""http://evil.example"",""Click"")",044,10,May\n`,
	},
	{ edge: 'mobile money payin: customer name +cmd', names: 'must not start with "+"', items: [{ amount: 10, name: '+cmd|calc', phone: '+254700000001' }], params: momoPayin({}) },
];

/** The page: a start form with the buyer's amount "150,50" on a page where the buyer chooses it. */
function pageRow(): SafetyRow {
	const cfg = { currency: 'ZAR', amountMode: 'customer', amount: 0, minAmount: 1, maxAmount: 100000, askName: 'optional', askPhone: 'no' } as unknown as PageConfig;
	let said = '';
	let amount: number | undefined;
	try {
		amount = withCustomer(cfg, { v: 1 } as never, { amount: '150,50', email: 'ada@example.com' }).amt;
	} catch (error) {
		said = (error as Error).message;
	}
	const refused = amount === undefined && said.includes('write 150.50');
	return row(
		'Rule 7: one reading',
		'Payment Page, buyer-chosen amount "150,50" (was paid as 15050)',
		'refused, names "write 150.50"; 0 payins',
		refused ? 'refused, names "write 150.50"; 0 payins' : `accepted as ${String(amount)}: ${said}`,
		{ moneyMoved: amount === undefined ? 0 : 1 },
	);
}

export const area: SafetyArea = {
	name: 'readings',
	needsN8n: false,
	async run(): Promise<SafetyRow[]> {
		const sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, requestLogLimit: 5000 } });
		const control = new SandboxClient(sb.url);
		const rows: SafetyRow[] = [];
		try {
			for (const c of CASES) {
				const before = await control.ledger();
				await control.clearRequests();
				const [out] = (await new PayOnUs().execute.call(context(sb.url, c))) as INodeExecutionData[][];
				const after = await control.ledger();
				const posts = (await control.requests({ method: 'POST' })).filter((r) => MONEY.test(String(r.path))).length;
				const gained = (k: 'transfers' | 'payins') => ((after[k] as unknown[]) ?? []).length - ((before[k] as unknown[]) ?? []).length;
				const transfers = gained('transfers');
				const payins = gained('payins');
				const errors = out.map((o) => String(o.json.error ?? ''));
				const refused = errors.some((e) => e.includes(c.names));
				const expected = `refused, names ${JSON.stringify(c.names)}; 0 sent, 0 transfers, 0 payins`;
				rows.push(
					row(
						'Rule 7: one reading',
						c.edge,
						expected,
						refused && posts === 0 && transfers === 0 && payins === 0
							? expected
							: `${refused ? 'refused' : `not refused as expected (${errors.join(' | ').slice(0, 160)})`}; ${posts} sent, ${transfers} transfers, ${payins} payins`,
						{ moneyMoved: posts + Math.max(0, transfers) + Math.max(0, payins) },
					),
				);
			}
			rows.push(pageRow());
		} finally {
			await sb.stop();
		}
		return rows;
	},
};
