/**
 * CSV of a bulk transfer (DESIGN.md, "Shapes the spec leaves open"): UTF-8,
 * a header row, columns beneficiaryAccountNumber, beneficiaryAccountName,
 * beneficiaryBankCode, amount, narration. RFC 4180 quoting: a field holding a
 * comma, a quote, a line break or edge spaces is quoted, quotes doubled.
 */

export const CSV_COLUMNS = [
	'beneficiaryAccountNumber',
	'beneficiaryAccountName',
	'beneficiaryBankCode',
	'amount',
	'narration',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Columns a row must fill; narration may be empty. */
const REQUIRED_COLUMNS: CsvColumn[] = ['beneficiaryAccountNumber', 'beneficiaryAccountName', 'beneficiaryBankCode', 'amount'];

export interface BulkRow {
	beneficiaryAccountNumber: string;
	beneficiaryAccountName: string;
	beneficiaryBankCode: string;
	amount: number;
	narration: string;
}

export interface RowProblem {
	/** 1-based row number, counting data rows only (the header is row 0). */
	row: number;
	field: string;
	message: string;
}

export class CsvFormatError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CsvFormatError';
	}
}

/** Parses CSV text into records (arrays of fields). Blank lines are skipped. */
export function parseCsv(input: string): string[][] {
	const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
	const records: string[][] = [];
	let record: string[] = [];
	let field = '';
	let quoted = false;
	let fieldStarted = false;
	let line = 1;
	const endField = () => {
		record.push(field);
		field = '';
		fieldStarted = false;
	};
	const endRecord = () => {
		endField();
		if (!(record.length === 1 && record[0].trim() === '')) records.push(record);
		record = [];
	};
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"') {
				if (text[i + 1] === '"') {
					field += '"';
					i++;
				} else {
					quoted = false;
					const next = text[i + 1];
					if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
						throw new CsvFormatError(`CSV line ${line}: unexpected text after a closing quote`);
					}
				}
			} else {
				if (c === '\n') line++;
				field += c;
			}
			continue;
		}
		if (c === '"') {
			if (fieldStarted && field.trim() !== '') {
				throw new CsvFormatError(`CSV line ${line}: a quote inside an unquoted field (quote the whole field and double the quote)`);
			}
			field = '';
			quoted = true;
			fieldStarted = true;
		} else if (c === ',') {
			endField();
		} else if (c === '\r' || c === '\n') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			endRecord();
			line++;
		} else {
			field += c;
			fieldStarted = true;
		}
	}
	if (quoted) throw new CsvFormatError(`CSV line ${line}: a quoted field is not closed`);
	if (field !== '' || record.length > 0) endRecord();
	return records;
}

function quote(value: string): string {
	if (/[",\r\n]/.test(value) || value !== value.trim()) return `"${value.replace(/"/g, '""')}"`;
	return value;
}

/** Builds the CSV the service receives: header row, CRLF line ends. */
export function buildCsv(rows: BulkRow[]): string {
	const lines = [CSV_COLUMNS.join(',')];
	for (const row of rows) {
		lines.push(CSV_COLUMNS.map((c) => quote(String(row[c]))).join(','));
	}
	return lines.join('\r\n') + '\r\n';
}

/** Raw values of one row, by column name (from a CSV record or an item). */
export interface RawRow {
	values: Partial<Record<CsvColumn, unknown>>;
	/** Set when the row cannot be read at all (wrong number of fields). */
	shapeError?: string;
}

/** Reads records (header first) into raw rows; refuses unknown or missing columns. */
export function recordsToRawRows(records: string[][]): RawRow[] {
	if (records.length === 0) throw new CsvFormatError('the CSV is empty: it needs a header row and at least one row');
	const header = records[0].map((h) => h.trim());
	const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
	if (unknown.length > 0) {
		throw new CsvFormatError(
			`the CSV header has unknown columns: ${unknown.join(', ')} (expected: ${CSV_COLUMNS.join(', ')})`,
		);
	}
	const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
	if (missing.length > 0) {
		throw new CsvFormatError(`the CSV header lacks the columns: ${missing.join(', ')} (expected: ${CSV_COLUMNS.join(', ')})`);
	}
	const duplicated = header.filter((h, i) => header.indexOf(h) !== i);
	if (duplicated.length > 0) throw new CsvFormatError(`the CSV header repeats the columns: ${duplicated.join(', ')}`);
	return records.slice(1).map((record) => {
		if (record.length !== header.length) {
			return { values: {}, shapeError: `has ${record.length} fields, the header has ${header.length}` };
		}
		const values: RawRow['values'] = {};
		header.forEach((h, j) => {
			values[h as CsvColumn] = record[j];
		});
		return { values };
	});
}

/** parseCsv + recordsToRawRows, with a format problem as a value. */
export function readCsvRows(text: string): { rows: RawRow[] } | { error: string } {
	try {
		return { rows: recordsToRawRows(parseCsv(text)) };
	} catch (error) {
		if (error instanceof CsvFormatError) return { error: error.message };
		return { error: String(error) };
	}
}

function decimals(text: string): number {
	const dot = text.indexOf('.');
	return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * Checks every row and returns the clean rows and every problem found
 * (all rows, all fields: the user fixes the file once).
 */
export function validateRows(raw: RawRow[]): { rows: BulkRow[]; problems: RowProblem[] } {
	const rows: BulkRow[] = [];
	const problems: RowProblem[] = [];
	if (raw.length === 0) problems.push({ row: 0, field: 'rows', message: 'there are no rows to pay' });
	raw.forEach((r, i) => {
		const row = i + 1;
		const bad = (field: string, message: string) => problems.push({ row, field, message });
		if (r.shapeError !== undefined) {
			bad('row', r.shapeError);
			return;
		}
		const v = r.values;
		const str = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());
		const accountNumber = str(v.beneficiaryAccountNumber);
		const accountName = str(v.beneficiaryAccountName);
		const bankCode = str(v.beneficiaryBankCode);
		const amountText = str(v.amount);
		const narration = str(v.narration);
		if (accountNumber === '') bad('beneficiaryAccountNumber', 'is required');
		else if (!/^\d{6,20}$/.test(accountNumber)) bad('beneficiaryAccountNumber', `must be 6 to 20 digits (got "${accountNumber}")`);
		if (accountName === '') bad('beneficiaryAccountName', 'is required');
		if (bankCode === '') bad('beneficiaryBankCode', 'is required');
		else if (!/^[A-Za-z0-9_-]{1,20}$/.test(bankCode)) bad('beneficiaryBankCode', `must be a bank code of letters and digits (got "${bankCode}")`);
		let amount = NaN;
		if (amountText === '') bad('amount', 'is required');
		else if (!/^\d+(\.\d+)?$/.test(amountText)) bad('amount', `must be a number such as 1500.50 (got "${amountText}")`);
		else if (decimals(amountText) > 2) bad('amount', `must have at most 2 decimal places (got "${amountText}")`);
		else {
			amount = Number(amountText);
			if (!(amount > 0)) bad('amount', `must be greater than 0 (got "${amountText}")`);
		}
		rows.push({
			beneficiaryAccountNumber: accountNumber,
			beneficiaryAccountName: accountName,
			beneficiaryBankCode: bankCode,
			amount,
			narration,
		});
	});
	return { rows, problems };
}

/** One line per problem, for the error shown to the user. */
export function describeProblems(problems: RowProblem[], max = 20): string {
	const lines = problems.slice(0, max).map((p) => (p.row === 0 ? p.message : `row ${p.row}: "${p.field}" ${p.message}`));
	if (problems.length > max) lines.push(`... and ${problems.length - max} more`);
	return lines.join('; ');
}
