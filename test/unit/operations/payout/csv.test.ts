import {
	buildCsv,
	describeProblems,
	parseCsv,
	readCsvRows,
	recordsToRawRows,
	validateRows,
	type RawRow,
} from '../../../../nodes/PayOnUs/resources/payout/csv';

const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';

describe('parseCsv', () => {
	it('reads quotes, doubled quotes, commas and line breaks in quoted fields, CRLF and a BOM', () => {
		const text = '\ufeffa,b,c\r\n"Obi, Ada","say ""hi""","two\nlines"\r\n\r\nplain, spaced ,x\n';
		expect(parseCsv(text)).toEqual([
			['a', 'b', 'c'],
			['Obi, Ada', 'say "hi"', 'two\nlines'],
			['plain', ' spaced ', 'x'],
		]);
	});

	it('keeps empty fields and a last line without a line break', () => {
		expect(parseCsv('a,,c\n1,2,')).toEqual([
			['a', '', 'c'],
			['1', '2', ''],
		]);
	});

	it('refuses an unclosed quote and text after a closing quote', () => {
		expect(() => parseCsv('a\n"open')).toThrow('CSV line 2: a quoted field is not closed');
		expect(() => parseCsv('"a"b,c')).toThrow('unexpected text after a closing quote');
		expect(() => parseCsv('ab"c,d')).toThrow('a quote inside an unquoted field');
	});
});

describe('buildCsv', () => {
	it('writes the header and quotes what needs quoting; parse(build(x)) = x', () => {
		const rows = [
			{ beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Obi, Ada "Jr"', beneficiaryBankCode: '044', amount: 1500.5, narration: 'line\nbreak' },
			{ beneficiaryAccountNumber: '0123456789', beneficiaryAccountName: ' Padded', beneficiaryBankCode: '058', amount: 10, narration: '' },
		];
		const csv = buildCsv(rows);
		expect(csv.split('\r\n')[0]).toBe(HEADER);
		expect(csv).toContain('"Obi, Ada ""Jr"""');
		expect(csv).toContain('" Padded"');
		const back = parseCsv(csv);
		expect(back.slice(1)).toEqual([
			['9999991112', 'Obi, Ada "Jr"', '044', '1500.5', 'line\nbreak'],
			['0123456789', ' Padded', '058', '10', ''],
		]);
	});
});

describe('header and row checks', () => {
	it('refuses unknown, missing and repeated columns', () => {
		expect(() => recordsToRawRows(parseCsv('beneficiaryAccountNumber,name,beneficiaryBankCode,amount\n'))).toThrow(
			'unknown columns: name',
		);
		expect(() => recordsToRawRows(parseCsv('beneficiaryAccountNumber,beneficiaryBankCode,amount\n'))).toThrow(
			'lacks the columns: beneficiaryAccountName',
		);
		expect(() => recordsToRawRows(parseCsv(`${HEADER},amount\n`))).toThrow('repeats the columns: amount');
		expect(() => recordsToRawRows([])).toThrow('the CSV is empty');
	});

	it('accepts columns in any order and no narration column', () => {
		const r = readCsvRows('amount,beneficiaryBankCode,beneficiaryAccountName,beneficiaryAccountNumber\n25,044,Ada,9999991112\n');
		expect('rows' in r && validateRows(r.rows)).toEqual({
			rows: [{ beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Ada', beneficiaryBankCode: '044', amount: 25, narration: '' }],
			problems: [],
		});
	});

	it('reports every bad row and field', () => {
		const text = [
			HEADER,
			'9999991112,"Obi, Ada",044,100.25,ok',
			'12AB,,044,0,',
			'9999991112,Bo,,1.234,',
			'9999991112,Bo,0 44,-3,',
			'9999991112,Bo,044,abc,',
			'9999991112,Bo,044',
		].join('\n');
		const r = readCsvRows(text);
		if (!('rows' in r)) throw new Error(r.error);
		const { problems } = validateRows(r.rows);
		expect(problems).toEqual([
			{ row: 2, field: 'beneficiaryAccountNumber', message: 'must be 6 to 20 digits (got "12AB")', place: 'line 3 (row 2)' },
			{ row: 2, field: 'beneficiaryAccountName', message: 'is required', place: 'line 3 (row 2)' },
			{ row: 2, field: 'amount', message: 'must be greater than 0 (got "0")', place: 'line 3 (row 2)' },
			{ row: 3, field: 'beneficiaryBankCode', message: 'is required', place: 'line 4 (row 3)' },
			{ row: 3, field: 'amount', message: 'must have at most 2 decimal places, or be written 1234 if the point separates thousands (got "1.234")', place: 'line 4 (row 3)' },
			{ row: 4, field: 'beneficiaryBankCode', message: 'must be a bank code of letters and digits (got "0 44")', place: 'line 5 (row 4)' },
			{ row: 4, field: 'amount', message: 'must be a number such as 1500.50 (got "-3")', place: 'line 5 (row 4)' },
			{ row: 5, field: 'amount', message: 'must be a number such as 1500.50 (got "abc")', place: 'line 6 (row 5)' },
			{ row: 6, field: 'row', message: 'has 3 fields, the header has 5', place: 'line 7 (row 6)' },
		]);
		expect(describeProblems(problems, 2)).toBe(
			'line 3 (row 2): "beneficiaryAccountNumber" must be 6 to 20 digits (got "12AB"); line 3 (row 2): "beneficiaryAccountName" is required; ... and 7 more',
		);
	});

	it('refuses an empty batch', () => {
		expect(validateRows([]).problems).toEqual([{ row: 0, field: 'rows', message: 'there are no rows to pay' }]);
	});
});

describe('rows are read one way (rule 7, issue 36)', () => {
	const item = (values: Record<string, unknown>): RawRow => ({
		values: { beneficiaryAccountNumber: '0123456789', beneficiaryAccountName: 'Ada Obi', beneficiaryBankCode: '044', amount: 10, narration: 'May', ...values },
	});
	it('an account number, bank code, name or narration given as a number is refused, never sent without its zeros', () => {
		const { problems } = validateRows([item({ beneficiaryAccountNumber: 123456789 }), item({ beneficiaryBankCode: 44 }), item({ narration: 2024 })]);
		expect(problems.map((p) => [p.row, p.field, p.message.split(':')[0]])).toEqual([
			[1, 'beneficiaryAccountNumber', 'must be text, not the number 123456789'],
			[2, 'beneficiaryBankCode', 'must be text, not the number 44'],
			[3, 'narration', 'must be text, not the number 2024'],
		]);
	});
	it('an account number a spreadsheet wrote in scientific notation is named as such', () => {
		const { problems } = validateRows([item({ beneficiaryAccountNumber: '1.23457E+11' })]);
		expect(problems[0].message).toContain('scientific notation');
	});
	it('a name or narration starting like a formula is refused; the CSV built never holds one', () => {
		const { problems } = validateRows([item({ beneficiaryAccountName: '=HYPERLINK("x")' }), item({ beneficiaryAccountNumber: '0123456780', narration: '-1+2' })]);
		expect(problems.map((p) => [p.row, p.field])).toEqual([
			[1, 'beneficiaryAccountName'],
			[2, 'narration'],
		]);
	});
});
