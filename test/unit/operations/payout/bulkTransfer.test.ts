import { bulkTransfer as op } from '../../../../nodes/PayOnUs/resources/payout/bulkTransfer';
import { parseCsv } from '../../../../nodes/PayOnUs/resources/payout/csv';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { context, fakeClient } from '../../fakes';
import { parse } from './schemaHelpers';

const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';
const base = { source: 'binary', binaryPropertyName: 'data', businessId: 'BUS-2001', currency: 'NGN', reference: 'batch-1' };
const ok = (raw: object) => {
	const r = parse(op.schema, raw);
	if (!r.ok) throw new Error(r.message);
	return r.data;
};
const withCsv = (text: string) => ({
	getBinary: async (name: string) => {
		if (name !== 'data') throw new Error(`no binary ${name}`);
		return { data: Buffer.from(text, 'utf8'), fileName: 'pay.csv' };
	},
});
const answer = { reference: 'batch-1', totalCount: 2, totalAmount: 300, totalFee: 21.5, transfers: [] };

describe('bulkTransfer schema', () => {
	it.each([
		[{ reference: '' }, '"reference" is required'],
		[{ reference: 'x'.repeat(91) }, '"reference" must be at most 90 characters'],
		[{ reference: 'a b' }, '"reference" must contain no spaces'],
		[{ currency: 'N' }, '"currency" must be a 3-letter currency code'],
		[{ source: 'ftp' }, '"source" must be one of binary, items'],
		[{ businessId: 'a/b' }, '"businessId" must be an identifier'],
	])('refuses %j', (patch, message) => {
		const r = parse(op.schema, { ...base, ...patch });
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toContain(message);
	});

	it('aggregates the items only when the source is the input items', () => {
		expect(op.aggregatesItems?.(ok({ ...base, source: 'items' }))).toBe(true);
		expect(op.aggregatesItems?.(ok(base))).toBe(false);
	});
});

describe('bulkTransfer handler', () => {
	it('sends the CSV file (rebuilt, canonical) with the batch fields and moneyMoving', async () => {
		const client = fakeClient(() => answer);
		const text = `amount,beneficiaryAccountName,beneficiaryAccountNumber,beneficiaryBankCode\n100,"Obi, Ada",9999991112,044\n200,Bo,0123456789,058\n`;
		const out = await op.execute(context(client, withCsv(text)), ok(base));
		expect(out).toEqual(answer);
		expect(client.calls).toHaveLength(1);
		const call = client.calls[0];
		expect(call).toMatchObject({ method: 'POST', path: '/api/v1/transfer-requests/bulk/bank-transfer' });
		expect(call.form?.fields).toEqual({ reference: 'batch-1', businessId: 'BUS-2001', currency: 'NGN' });
		expect(call.form?.files).toHaveLength(1);
		const file = call.form!.files[0];
		expect(file).toMatchObject({ field: 'file', filename: 'batch-1.csv', contentType: 'text/csv' });
		expect(parseCsv(file.data.toString('utf8'))).toEqual([
			HEADER.split(','),
			['9999991112', 'Obi, Ada', '044', '100', ''],
			['0123456789', 'Bo', '058', '200', ''],
		]);
		expect(call.moneyMoving?.reference).toBe('batch-1');
	});

	it('builds the batch from the input items', async () => {
		const client = fakeClient(() => answer);
		const items = [
			{ beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Ada', beneficiaryBankCode: '044', amount: 100, narration: 'a', extra: 1 },
			{ beneficiaryAccountNumber: '0123456789', beneficiaryAccountName: 'Bo, Jr', beneficiaryBankCode: '058', amount: '200.5' },
		];
		await op.execute(context(client, { item: items[0], items }), ok({ ...base, source: 'items' }));
		expect(parseCsv(client.calls[0].form!.files[0].data.toString('utf8')).slice(1)).toEqual([
			['9999991112', 'Ada', '044', '100', 'a'],
			['0123456789', 'Bo, Jr', '058', '200.5', ''],
		]);
	});

	it('sends nothing when a row is bad, and reports each row', async () => {
		const client = fakeClient(() => answer);
		const text = `${HEADER}\n9999991112,Ada,044,100,\n99,,044,0,\n`;
		await expect(op.execute(context(client, withCsv(text)), ok(base))).rejects.toThrow(
			'Bulk transfer refused, nothing was sent: 3 problem(s) in the CSV (line 1 is the header): line 3 (row 2): "beneficiaryAccountNumber" must be 6 to 20 digits (got "99"); line 3 (row 2): "beneficiaryAccountName" is required; line 3 (row 2): "amount" must be greater than 0 (got "0")',
		);
		const items = [{ beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Ada', beneficiaryBankCode: '044' }];
		await expect(op.execute(context(client, { items }), ok({ ...base, source: 'items' }))).rejects.toThrow(
			'in the input items: item 1: "amount" is required',
		);
		await expect(op.execute(context(client, withCsv('a,b\n1,2\n')), ok(base))).rejects.toThrow(
			'cannot be read as a bulk transfer CSV, nothing was sent: the CSV header has unknown columns: a, b',
		);
		expect(client.calls).toHaveLength(0);
	});

	it('the batch lookup finds the rows by their references <batch>-<n>', async () => {
		const rows = [
			{ merchantReference: 'batch-1-2', onusReference: 'T2', businessId: 'BUS-2001' },
			{ merchantReference: 'batch-1-1', onusReference: 'T1', businessId: 'BUS-2001' },
			{ merchantReference: 'other', onusReference: 'T0', businessId: 'BUS-2001' },
		];
		const client = fakeClient((o: RequestOptions) => {
			if (o.method !== 'GET') return answer;
			if (o.qs?.merchantReference) return { content: rows.filter((r) => r.merchantReference === o.qs?.merchantReference) };
			return { content: rows, lastPage: 1 };
		});
		const text = `${HEADER}\n9999991112,Ada,044,100,\n0123456789,Bo,058,200,\n`;
		await op.execute(context(client, withCsv(text)), ok(base));
		const found = await client.calls[0].moneyMoving!.lookup();
		expect(found).toEqual({ reference: 'batch-1', totalCount: 2, transfersFound: 2, transfers: [rows[1], rows[0]] });
	});

	it('the batch lookup answers undefined when row 1 is not there', async () => {
		const client = fakeClient((o: RequestOptions) => (o.method === 'GET' ? { content: [] } : answer));
		await op.execute(context(client, withCsv(`${HEADER}\n9999991112,Ada,044,100,\n`)), ok(base));
		expect(await client.calls[0].moneyMoving!.lookup()).toBeUndefined();
	});
});
