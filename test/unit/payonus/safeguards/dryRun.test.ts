import type { IDataObject } from 'n8n-workflow';
import { buildProperties } from '../../../../nodes/PayOnUs/properties';
import { findOperation } from '../../../../nodes/PayOnUs/resources';
import { dryRunItems } from '../../../../nodes/PayOnUs/safeguards/dryRun';
import type { NodeOperation } from '../../../../nodes/PayOnUs/resources/types';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { context, fakeClient, type FakeClient } from '../../fakes';

const CARD = 'QUJD'.repeat(24);

/** The money-moving operations, as the node runs them (with their resource). */
const MONEY_MOVING_OPERATIONS = [
	'payout:createTransfer',
	'payout:bulkTransfer',
	'payin:chargeCard',
	'payin:chargeTokenizedCard',
	'payin:mobileMoneyCollection',
	'payin:eftPayment',
];
const createTransfer = findOperation('payout', 'createTransfer')!;
const bulkTransfer = findOperation('payout', 'bulkTransfer')!;
const chargeCard = findOperation('payin', 'chargeCard')!;
const chargeTokenizedCard = findOperation('payin', 'chargeTokenizedCard')!;
const mobileMoneyCollection = findOperation('payin', 'mobileMoneyCollection')!;

const bank = {
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	amount: 1500.5,
	currency: 'NGN',
	countryCode: 'NG',
	reference: 'pay-001',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Ada Obi',
	narration: 'Invoice 1',
	email: '',
	verifyBeneficiaryName: true,
	fromSubWallet: false,
};

/** A service: wallets, banks, name enquiry, empty lists (references unused) unless `used`. */
function service(opts: { balance?: number; used?: IDataObject[]; accountName?: string } = {}): FakeClient {
	return fakeClient((o: RequestOptions) => {
		if (o.method === 'GET' && o.path.endsWith('/wallets')) {
			return [
				{ entityId: 'BUS-2001', currency: 'NGN', availableBalance: opts.balance ?? 2000, payoutAllowed: true },
				{ entityId: 'BUS-2001', currency: 'KES', availableBalance: 100, payoutAllowed: false },
			];
		}
		if (o.method === 'GET' && o.path === '/api/v1/banks') return [{ code: '044', name: 'Access Bank' }, { code: '058', name: 'GTB' }];
		if (o.method === 'GET' && o.path === '/api/v1/eft-payment/banks') return [{ code: '632005', name: 'ABSA' }];
		if (o.method === 'GET' && o.path === '/api/v1/mobile-money/networks') return [{ code: 'MPESA_KE', currency: 'KES' }];
		if (o.method === 'GET') return { content: opts.used ?? [], totalNumberOfItems: (opts.used ?? []).length };
		if (o.path.endsWith('/name-enquiry')) {
			return { accountNumber: (o.body as IDataObject).accountNumber, accountName: opts.accountName ?? 'ADA  obi', bankCode: '044' };
		}
		throw new Error(`unexpected ${o.method} ${o.path}`);
	});
}

async function dry(op: NodeOperation, client: FakeClient, inputs: IDataObject[], aggregate = false, items?: IDataObject[]) {
	const parsed = inputs.map((raw) => {
		const r = op.schema.safeParse(raw);
		return r.success ? { ok: true as const, data: r.data as IDataObject } : { ok: false as const, message: r.error.issues[0].message };
	});
	const out = await dryRunItems(op, client, parsed, (i) => context(client, { itemIndex: i, items }), aggregate);
	return out.map((o) => o.dryRun as IDataObject);
}

const check = (report: IDataObject, name: string) => (report.checks as IDataObject[]).find((c) => c.check === name);
const moneyCalls = (client: FakeClient) => client.calls.filter((c) => c.method !== 'GET' && !c.path.endsWith('/name-enquiry'));

describe('dry run', () => {
	it('is offered on every money-moving operation and on no other', () => {
		const props = buildProperties().filter((p) => p.name === 'dryRun');
		const shown = props.map((p) => `${String(p.displayOptions?.show?.resource)}:${String(p.displayOptions?.show?.operation)}`);
		expect(shown.sort()).toEqual([...MONEY_MOVING_OPERATIONS].sort());
		expect(props.every((p) => p.default === false)).toBe(true);
	});

	it('bank transfer: sends nothing, reports what would be sent and every check passing', async () => {
		const client = service();
		const [report] = await dry(createTransfer, client, [bank]);
		expect(moneyCalls(client)).toEqual([]);
		expect(report).toMatchObject({ operation: 'payout:createTransfer', passed: true, moneyMoved: false, amount: 1500.5, currency: 'NGN' });
		expect(report.wouldSend).toMatchObject({ method: 'POST', path: '/api/v1/transfer-requests/bank-transfer', body: { amount: 1500.5, beneficiaryBankCode: '044', reference: 'pay-001' } });
		expect((report.checks as IDataObject[]).map((c) => [c.check, c.passed])).toEqual([
			['validation', true],
			['referenceUnused', true],
			['walletBalance', true],
			['bankCode', true],
			['nameEnquiry', true],
		]);
		expect(check(report, 'nameEnquiry')?.detail).toContain('names match');
		expect(report.runTotals).toEqual({ NGN: 1500.5 });
	});

	it('reports failing checks with why: name mismatch, unknown bank, used reference, balance over the run', async () => {
		const client = service({ balance: 2000, accountName: 'Somebody Else', used: [{ merchantReference: 'pay-002', businessId: 'BUS-2001', onusReference: 'ONUS-TRNF-1', paymentStatus: 'SUCCESSFUL' }] });
		const reports = await dry(createTransfer, client, [
			bank,
			{ ...bank, reference: 'pay-002', beneficiaryBankCode: '999' },
		]);
		expect(moneyCalls(client)).toEqual([]);
		expect(reports[0].passed).toBe(false);
		expect(check(reports[0], 'nameEnquiry')).toMatchObject({ passed: false, detail: expect.stringContaining('belongs to "Somebody Else", not "Ada Obi"') });
		expect(check(reports[1], 'bankCode')).toMatchObject({ passed: false, detail: 'bank code 999 is not in the NGN bank list' });
		expect(check(reports[1], 'referenceUnused')).toMatchObject({ passed: false, detail: expect.stringContaining('ONUS-TRNF-1') });
		// 1500.50 + 1500.50 > 2000: the second item fails on the run's total.
		expect(check(reports[0], 'walletBalance')?.passed).toBe(true);
		// Amounts with their currency, grouped: "NGN 2,000.00 available; this item needs NGN 1,500.50 (NGN 3,001.00 with ...)".
		expect(check(reports[1], 'walletBalance')).toMatchObject({ passed: false, detail: expect.stringContaining('NGN 2,000.00 available; this item needs NGN 1,500.50 (NGN 3,001.00 with the earlier items') });
		expect(reports[0].runTotals).toEqual({ NGN: 3001 });
		expect(reports[1].runTotals).toEqual({ NGN: 3001 });
	});

	it('reports an invalid item as a failed validation check, the other items still checked', async () => {
		const client = service();
		const reports = await dry(createTransfer, client, [{ ...bank, amount: 0 }, bank]);
		expect(reports[0]).toMatchObject({ passed: false, wouldSend: null, checks: [{ check: 'validation', passed: false }] });
		expect(reports[1].passed).toBe(true);
		expect(reports[0].runTotals).toEqual({ NGN: 1500.5 });
	});

	it('mobile money transfer: wallet not allowed to pay out is a failed check; no bank checks', async () => {
		const client = service();
		const [report] = await dry(createTransfer, client, [
			{ ...bank, transferType: 'WALLET_TO_MOMO', currency: 'KES', countryCode: 'KE', momoNetwork: 'MPESA_KE', beneficiaryPhoneNumber: '254700000000', amount: 10 },
		]);
		expect(moneyCalls(client)).toEqual([]);
		expect(check(report, 'walletBalance')).toMatchObject({ passed: false, detail: expect.stringContaining('not allowed') });
		expect(check(report, 'bankCode')).toBeUndefined();
		expect(report.runTotals).toEqual({ KES: 10 });
	});

	it('EFT transfer: the bank is checked against the EFT bank list', async () => {
		const client = service();
		const eft = { ...bank, transferType: 'WALLET_TO_EFT', currency: 'NGN', countryCode: 'ZA', beneficiaryBankCode: '' };
		const [good, bad] = await dry(createTransfer, client, [
			{ ...eft, eftBank: '632005' },
			{ ...eft, eftBank: '999999', reference: 'pay-009' },
		]);
		expect(check(good, 'bankCode')).toMatchObject({ passed: true });
		expect(check(bad, 'bankCode')).toMatchObject({ passed: false, detail: 'bank code 999999 is not in the EFT bank list' });
		expect(check(good, 'nameEnquiry')).toBeUndefined();
		expect(moneyCalls(client)).toEqual([]);
	});

	it('bulk from items: one report, rows shown, every row checked, nothing sent', async () => {
		const client = service({ balance: 100000, accountName: 'Row Person' });
		const rows = [
			{ beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Row Person', beneficiaryBankCode: '044', amount: 100, narration: 'a' },
			{ beneficiaryAccountNumber: '9999991113', beneficiaryAccountName: 'Row Person', beneficiaryBankCode: '058', amount: 250.25, narration: 'b' },
		];
		const input = { source: 'items', businessId: 'BUS-2001', currency: 'NGN', reference: 'batch-1', allowDuplicateRows: false };
		const reports = await dry(bulkTransfer, client, [input, input], true, rows);
		expect(reports).toHaveLength(1);
		expect(moneyCalls(client)).toEqual([]);
		expect(reports[0]).toMatchObject({ passed: true, amount: 350.25, runTotals: { NGN: 350.25 } });
		expect((reports[0].wouldSend as IDataObject).rows).toHaveLength(2);
		expect(check(reports[0], 'nameEnquiry')?.detail).toBe('all 2 names match');
		expect(client.calls.filter((c) => c.path.endsWith('/name-enquiry'))).toHaveLength(2);
	});

	it('card charge: card data never shown; reference checked among payments', async () => {
		const client = service();
		const [report] = await dry(chargeCard, client, [
			{ businessId: 'BUS-2001', cardData: CARD, amount: 50, currency: 'NGN', reference: 'card-1', customerName: 'Ada', customerEmail: 'a@b.co', additionalFields: {} },
		]);
		expect(moneyCalls(client)).toEqual([]);
		expect(JSON.stringify(report)).not.toContain(CARD);
		expect((report.wouldSend as IDataObject).body).toMatchObject({ cardData: '[not shown]', amount: 50 });
		expect(check(report, 'walletBalance')).toBeUndefined();
		expect(client.calls.some((c) => c.path === '/api/v1/payment-requests')).toBe(true);
	});

	it('EFT payment: its currency is the one the operation declares implied (ZAR), the body naming none', async () => {
		const client = service();
		const [eft] = await dry(findOperation('payin', 'eftPayment')!, client, [
			{ businessId: 'BUS-2001', bank: '632005', amount: 300, reference: 'eft-1', customerName: 'Ada', customerEmail: 'a@b.co', additionalFields: {} },
		]);
		expect(eft).toMatchObject({ currency: 'ZAR', runTotals: { ZAR: 300 } });
		expect(moneyCalls(client)).toEqual([]);
	});

	it('tokenized card and mobile money collection: totals per currency', async () => {
		const client = service();
		const [token] = await dry(chargeTokenizedCard, client, [
			{ businessId: 'BUS-2001', cardTokenId: 'TOK-123', amount: 20, reference: 'tok-1', additionalFields: {} },
		]);
		expect(JSON.stringify(token)).not.toContain('TOK-123');
		expect(token.runTotals).toEqual({ NGN: 20 });
		const [momo] = await dry(mobileMoneyCollection, client, [
			{ businessId: 'BUS-2001', momoNetwork: 'MPESA_KE', amount: 30, reference: 'mm-1', customerName: 'Ada', customerEmail: 'a@b.co', customerPhone: '+254700000000', additionalFields: {} },
		]);
		expect(momo).toMatchObject({ currency: 'KES', runTotals: { KES: 30 } });
		expect(check(momo, 'network')?.passed).toBe(true);
		expect(moneyCalls(client)).toEqual([]);
	});
});

describe('a failed Dry Run shows as failed where the builder looks', () => {
	const { dryRunHint } = jest.requireActual('../../../../nodes/PayOnUs/safeguards/dryRunHint') as typeof import('../../../../nodes/PayOnUs/safeguards/dryRunHint');

	it('a warning above the output naming the failed items (n8n numbering) and the first problem', async () => {
		const client = service({ balance: 2000 });
		const parsed = [bank, { ...bank, reference: 'pay-002' }].map((raw) => ({ ok: true as const, data: createTransfer.schema.parse(raw) as IDataObject }));
		const items = await dryRunItems(createTransfer, client, parsed, (i) => context(client, { itemIndex: i }), false);
		const hint = dryRunHint(items, false);
		expect(hint).toEqual({
			type: 'warning',
			location: 'outputPane',
			message: expect.stringMatching(/^Dry Run FAILED for 1 of 2 items \(nothing was sent\)\. First problem \[item 1\]: walletBalance: NGN 2,000\.00 available/),
		});
	});

	it('every item passed: a note that nothing was sent', () => {
		expect(dryRunHint([{ dryRun: { passed: true, checks: [] } }], false)).toEqual({ type: 'info', location: 'outputPane', message: 'Dry Run passed for the item: nothing was sent.' });
	});
});

describe('a Dry Run item starts with a one-line verdict (issue 38)', () => {
	const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';
	async function dryItems(op: NodeOperation, client: FakeClient, inputs: IDataObject[], extra: IDataObject = {}, aggregate = false) {
		const parsed = inputs.map((raw) => ({ ok: true as const, data: op.schema.parse(raw) as IDataObject }));
		return await dryRunItems(op, client, parsed, (i) => context(client, { itemIndex: i, ...extra }), aggregate);
	}

	it('passed: the first field says what would be sent, and that every check passed', async () => {
		const [item] = await dryItems(createTransfer, service(), [bank]);
		expect(Object.keys(item)).toEqual(['verdict', 'dryRun']);
		expect(item.verdict).toBe('PASSED: would send Create Transfer of NGN 1,500.50 to account 9999991112 (reference "pay-001"); every check passed, nothing was sent.');
	});

	it('failed: what would not be sent and every failed check with why, on one line', async () => {
		const client = service({ balance: 1000, accountName: 'Somebody Else' });
		const [item] = await dryItems(createTransfer, client, [bank]);
		expect(item.verdict).toBe(
			'FAILED: Create Transfer of NGN 1,500.50 to account 9999991112 (reference "pay-001") would NOT be sent: ' +
				'walletBalance: NGN 1,000.00 available; this item needs NGN 1,500.50, fees not included: not enough; ' +
				'nameEnquiry: account 9999991112 belongs to "Somebody Else", not "Ada Obi"',
		);
		expect(String(item.verdict)).not.toContain('\n');
	});

	it('an invalid item: would not be sent, with the validation problem', async () => {
		const out = await dryRunItems(createTransfer, service(), [{ ok: false, message: 'Amount must be greater than 0' }], (i) => context(service(), { itemIndex: i }), false);
		expect(out[0].verdict).toBe('FAILED: Create Transfer would NOT be sent: validation: Amount must be greater than 0');
	});

	it('bulk from a CSV: the batch in one line; a row that fails is named by its file line and row', async () => {
		const client = service({ balance: 100000, accountName: 'Row Person' });
		const csv = `${HEADER}\n9999991112,Row Person,044,100,a\n9999991113,Someone Else,058,250.25,b\n`;
		const getBinary = async () => ({ data: Buffer.from(csv, 'utf8'), fileName: 'pay.csv' });
		const input = { source: 'binary', binaryPropertyName: 'data', businessId: 'BUS-2001', currency: 'NGN', reference: 'batch-1', allowDuplicateRows: false };
		const [item] = await dryItems(bulkTransfer, client, [input], { getBinary }, true);
		expect(moneyCalls(client)).toEqual([]);
		expect(item.verdict).toBe(
			'FAILED: Create Bulk Transfer of 2 row(s), NGN 350.25 in total (reference "batch-1") would NOT be sent: ' +
				'nameEnquiry: line 3 (row 2): account 9999991113 belongs to "Row Person", not "Someone Else"',
		);
	});
});
