/**
 * Issue 14, point 7: inputs are read exactly and bounded before anything is
 * sent. Each case failed on f732b35.
 */
import { NodeHelpers, type INodeParameters } from 'n8n-workflow';
import { z } from 'zod/v3';
import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';
import { createTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';
import { bulkTransfer } from '../../../nodes/PayOnUs/resources/payout/bulkTransfer';
import { readCsvRows, validateRows, describeProblems, type RawRow } from '../../../nodes/PayOnUs/resources/payout/csv';
import { resolveBaseUrl } from '../../../nodes/shared/environments';
import { amount, currency, describeIssue, text, tokenizedAmount } from '../../../nodes/shared/validation';
import { MAX_AMOUNT, parseAmount } from '../../../nodes/shared/values/amount';
import { chargeCard as chargeCardOperation } from '../../../nodes/PayOnUs/resources/payin/chargeCard';
import { context, fakeClient } from '../fakes';

const problem = (schema: z.ZodTypeAny, raw: unknown): string | undefined => {
	const r = schema.safeParse(raw);
	return r.success ? undefined : describeIssue(r.error).message;
};

const bank = {
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	amount: 1500,
	currency: 'NGN',
	countryCode: 'NG',
	reference: 'pay-001',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Ada Obi',
	narration: 'Invoice 1',
};

describe('amounts are read exactly', () => {
	it.each([
		['12345678901234567.89', 'must be at most 999999999999.99'],
		['1e20', 'must be a number'],
		['1E5', 'must be a number'],
		['1,000.00', 'must be a number'],
		['0x10', 'must be a number'],
		['+100', 'must be a number'],
		['100.001', 'must have at most 2 decimal places'],
		['-5', 'must be greater than 0'],
		['0.00', 'must be greater than 0'],
		['1000000000000', 'must be at most 999999999999.99'],
		[1e20, 'must be at most 999999999999.99'],
		[1e21, 'must be at most 999999999999.99'],
		// eslint-disable-next-line no-loss-of-precision -- on purpose: a number past float precision, as a user's expression may give
		[12345678901234567.89, 'must be at most 999999999999.99'],
		[0.1 + 0.2, 'must have at most 2 decimal places'],
		[1e-7, 'must have at most 2 decimal places'],
		[{ value: 5 }, 'must be a number, not an object'],
	])('refuses %j, naming the field', (value, message) => {
		expect(problem(z.object({ amount: amount() }), { amount: value })).toContain(`"amount" ${message}`);
	});

	it.each([
		['999999999999.99', 999999999999.99],
		['1500.50', 1500.5],
		[' 7 ', 7],
		['0.01', 0.01],
		[1500.5, 1500.5],
		[MAX_AMOUNT, MAX_AMOUNT],
	])('accepts %j as %j (sent exactly as written)', (value, expected) => {
		const r = z.object({ amount: amount() }).parse({ amount: value });
		expect(r.amount).toBe(expected);
		expect(JSON.stringify(r.amount)).toBe(String(expected));
	});

	it('every 2-decimal amount up to the maximum survives the trip to JSON', () => {
		for (const t of ['999999999999.99', '999999999999.01', '123456789012.34', '0.07', '100000000000.10']) {
			const r = parseAmount(t);
			expect(r.ok).toBe(true);
			if (r.ok) expect(Number(JSON.parse(JSON.stringify(r.value))).toFixed(2)).toBe(Number(t).toFixed(2));
		}
	});

	it('the tokenized charge keeps its minimum of 1 and the same exactness', () => {
		expect(problem(z.object({ amount: tokenizedAmount() }), { amount: '0.99' })).toBe('"amount" must be at least 1');
		expect(problem(z.object({ amount: tokenizedAmount() }), { amount: '1e3' })).toContain('"amount" must be a number');
		expect(z.object({ amount: tokenizedAmount() }).parse({ amount: '1' }).amount).toBe(1);
	});

	it('a transfer item with a digit-losing amount is refused with its item number before anything is sent', async () => {
		const r = createTransfer.schema.safeParse({ ...bank, amount: '12345678901234567.89' });
		expect(r.success).toBe(false);
		if (!r.success) expect(describeIssue(r.error).message).toBe('"amount" must be at most 999999999999.99');
	});
});

describe('currencies only from the documented list', () => {
	it.each(['ABC', 'EUR', 'XYZ', 'UGX'])('refuses %s', (code) => {
		expect(problem(z.object({ currency: currency() }), { currency: code })).toBe(
			'"currency" must be one of the currencies PayOnUs documents: NGN, KES, ZAR, USD, GHS',
		);
	});
	it.each(['NGN', 'kes', 'ZAR', 'USD', 'GHS'])('accepts %s', (code) => {
		expect(problem(z.object({ currency: currency() }), { currency: code })).toBeUndefined();
	});
	it('applies to card payments too', () => {
		expect(problem(chargeCardOperation.schema, { currency: 'ABC' })).toBeDefined();
	});
});

describe('free text is bounded and must be text', () => {
	it('refuses a 100,000-character name and narration on a transfer', () => {
		expect(problem(createTransfer.schema, { ...bank, beneficiaryAccountName: 'A'.repeat(100_000) })).toBe(
			'"beneficiaryAccountName" must be at most 100 characters (got 100000)',
		);
		expect(problem(createTransfer.schema, { ...bank, narration: 'n'.repeat(100_000) })).toBe(
			'"narration" must be at most 255 characters (got 100000)',
		);
	});
	it('text() has a default limit of 255', () => {
		expect(problem(z.object({ t: text() }), { t: 'x'.repeat(256) })).toBe('"t" must be at most 255 characters (got 256)');
		expect(problem(z.object({ t: text() }), { t: 'x'.repeat(255) })).toBeUndefined();
	});
	it('refuses an object or a list where text is expected', () => {
		expect(problem(createTransfer.schema, { ...bank, beneficiaryAccountName: { first: 'Ada' } })).toBe(
			'"beneficiaryAccountName" must be text, not an object',
		);
		expect(problem(createTransfer.schema, { ...bank, narration: ['a'] })).toBe('"narration" must be text, not a list');
		expect(problem(createTransfer.schema, { ...bank, reference: { r: 1 } })).toBe('"reference" must be text, not an object');
	});
});

const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';
const rowsOf = (csv: string): RawRow[] => {
	const r = readCsvRows(csv);
	if ('error' in r) throw new Error(r.error);
	return r.rows;
};

describe('bulk rows', () => {
	it('refuses identical CSV rows, naming their file lines', () => {
		const csv = [HEADER, '9999991112,Ada Obi,044,100.00,', '9999991113,Bo,044,5,', '', '9999991112,Ada Obi,044,100,', '9999991112,Ada Obi,044,100.0,x'].join('\n');
		const { problems } = validateRows(rowsOf(csv));
		expect(problems).toHaveLength(1);
		expect(describeProblems(problems)).toContain('duplicate rows: line 2 (row 1), line 5 (row 3), line 6 (row 4) pay account 9999991112 at bank 044 the same amount 100');
	});

	it('lets duplicates through only with Allow Duplicate Rows', () => {
		const csv = [HEADER, '9999991112,Ada Obi,044,100,', '9999991112,Ada Obi,044,100,'].join('\n');
		expect(validateRows(rowsOf(csv), { allowDuplicateRows: true }).problems).toEqual([]);
	});

	it('names items (not lines) for input items, and refuses objects instead of sending "[object Object]"', () => {
		const items: RawRow[] = [
			{ values: { beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: { first: 'Ada' }, beneficiaryBankCode: '044', amount: 10 } },
			{ values: { beneficiaryAccountNumber: '9999991113', beneficiaryAccountName: 'Bo', beneficiaryBankCode: '044', amount: 10, narration: ['x'] } },
			{ values: { beneficiaryAccountNumber: '9999991114', beneficiaryAccountName: 'Cy', beneficiaryBankCode: '044', amount: { v: 1 } } },
			{ values: { beneficiaryAccountNumber: '9999991113', beneficiaryAccountName: 'Bo', beneficiaryBankCode: '044', amount: '10.00' } },
		];
		const { problems } = validateRows(items);
		const text = describeProblems(problems);
		expect(text).toContain('item 1: "beneficiaryAccountName" must be text, not an object');
		expect(text).toContain('item 2: "narration" must be text, not a list');
		expect(text).toContain('item 3: "amount" must be a number, not an object');
		expect(text).toContain('duplicate rows: item 2, item 4');
		expect(text).not.toContain('[object Object]');
	});

	it('reads row amounts exactly and bounds row text', () => {
		const csv = [
			HEADER,
			'9999991112,Ada Obi,044,12345678901234567.89,',
			`9999991113,${'N'.repeat(101)},044,5,`,
			`9999991114,Cy,044,5,${'n'.repeat(256)}`,
		].join('\n');
		const text = describeProblems(validateRows(rowsOf(csv)).problems);
		expect(text).toContain('line 2 (row 1): "amount" must be at most 999999999999.99 (got "12345678901234567.89")');
		expect(text).toContain('line 3 (row 2): "beneficiaryAccountName" must be at most 100 characters (got 101)');
		expect(text).toContain('line 4 (row 3): "narration" must be at most 255 characters (got 256)');
	});

	it('the operation sends nothing for a CSV with duplicate rows', async () => {
		const csv = [HEADER, '9999991112,Ada Obi,044,100,', '9999991112,Ada Obi,044,100,'].join('\n');
		const input = bulkTransfer.schema.parse({ source: 'binary', binaryPropertyName: 'data', businessId: 'BUS-2001', currency: 'NGN', reference: 'batch-9' });
		const client = fakeClient();
		const ctx = context(client, { getBinary: async () => ({ data: Buffer.from(csv, 'utf8'), fileName: 'pay.csv' }) });
		await expect(bulkTransfer.execute(ctx, input)).rejects.toThrow(/duplicate rows: line 2 \(row 1\), line 3 \(row 2\)/);
		expect(client.calls).toEqual([]);
	});
});

describe('custom base address', () => {
	it.each(['http://payonus.example.com', 'http://10.0.0.5:4010', 'http://localhost.evil.com'])('refuses plain http to %s', (url) => {
		expect(() => resolveBaseUrl('custom', url)).toThrow(/must use https:\/\//);
	});
	it.each([
		['http://localhost:4010', 'http://localhost:4010'],
		['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
		['http://[::1]:4010', 'http://[::1]:4010'],
		['https://proxy.example/payonus', 'https://proxy.example/payonus'],
	])('accepts %s', (url, expected) => {
		expect(resolveBaseUrl('custom', url)).toBe(expected);
	});
});

describe('name enquiry before bank transfers: on by default', () => {
	const description = new PayOnUs().description;
	const resolve = (): INodeParameters =>
		NodeHelpers.getNodeParameters(
			description.properties,
			{ resource: 'payout', operation: 'createTransfer' },
			true,
			false,
			{ typeVersion: 1 } as never,
			description,
		) as INodeParameters;

	it('the node has one version, 1', () => {
		expect(description.version).toBe(1);
	});
	it('verifies the beneficiary name by default', () => {
		expect(resolve().verifyBeneficiaryName).toBe(true);
	});
});
