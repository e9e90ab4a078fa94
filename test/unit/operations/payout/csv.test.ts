import {
	buildCsv,
	describeProblems,
	parseCsv,
	readCsvRows,
	recordsToRawRows,
	validateRows,
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
			{ row: 2, field: 'beneficiaryAccountNumber', message: 'must be 6 to 20 digits (got "12AB")' },
			{ row: 2, field: 'beneficiaryAccountName', message: 'is required' },
			{ row: 2, field: 'amount', message: 'must be greater than 0 (got "0")' },
			{ row: 3, field: 'beneficiaryBankCode', message: 'is required' },
			{ row: 3, field: 'amount', message: 'must have at most 2 decimal places (got "1.234")' },
			{ row: 4, field: 'beneficiaryBankCode', message: 'must be a bank code of letters and digits (got "0 44")' },
			{ row: 4, field: 'amount', message: 'must be a number such as 1500.50 (got "-3")' },
			{ row: 5, field: 'amount', message: 'must be a number such as 1500.50 (got "abc")' },
			{ row: 6, field: 'row', message: 'has 3 fields, the header has 5' },
		]);
		expect(describeProblems(problems, 2)).toBe(
			'row 2: "beneficiaryAccountNumber" must be 6 to 20 digits (got "12AB"); row 2: "beneficiaryAccountName" is required; ... and 7 more',
		);
	});

	it('refuses an empty batch', () => {
		expect(validateRows([]).problems).toEqual([{ row: 0, field: 'rows', message: 'there are no rows to pay' }]);
	});
});
