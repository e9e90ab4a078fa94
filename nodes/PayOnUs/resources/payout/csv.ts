/**
 * CSV of a bulk transfer (DESIGN.md, "Shapes the spec leaves open"): UTF-8,
 * a header row, columns beneficiaryAccountNumber, beneficiaryAccountName,
 * beneficiaryBankCode, amount, narration. RFC 4180 quoting: a field holding a
 * comma, a quote, a line break or edge spaces is quoted, quotes doubled.
 */

import { parseAmount, type AmountParse } from '../../../shared/values/amount';
import { accountNumberProblem, formulaProblem, notTextMessage } from '../../../shared/values/text';
import { TEXT_LIMITS } from '../../../shared/validation';

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
	/** Where the row is, as a spreadsheet shows it: "line 3 (row 2)" (CSV) or "item 2" (rowPlace). */
	place?: string;
}

export class CsvFormatError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CsvFormatError';
	}
}

/** Parses CSV text into records (arrays of fields). Blank lines are skipped. */
export function parseCsv(input: string): string[][] {
	return parseCsvLines(input).records;
}

/**
 * parseCsv, also giving the file line each record starts on (1-based, the
 * header is usually line 1; blank lines and quoted line breaks counted).
 */
export function parseCsvLines(input: string): { records: string[][]; lines: number[] } {
	const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
	const records: string[][] = [];
	const lines: number[] = [];
	let recordLine = 1;
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
		if (!(record.length === 1 && record[0].trim() === '')) {
			records.push(record);
			lines.push(recordLine);
		}
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
			recordLine = line;
		} else {
			field += c;
			fieldStarted = true;
		}
	}
	if (quoted) throw new CsvFormatError(`CSV line ${line}: a quoted field is not closed`);
	if (field !== '' || record.length > 0) endRecord();
	return { records, lines };
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
	/** File line the row starts on (CSV source only). */
	line?: number;
}

/** Reads records (header first) into raw rows; refuses unknown or missing columns. */
export function recordsToRawRows(records: string[][], lines?: number[]): RawRow[] {
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
	return records.slice(1).map((record, k) => {
		const line = lines?.[k + 1];
		const at = line !== undefined ? { line } : {};
		if (record.length !== header.length) {
			return { values: {}, shapeError: `has ${record.length} fields, the header has ${header.length}`, ...at };
		}
		const values: RawRow['values'] = {};
		header.forEach((h, j) => {
			values[h as CsvColumn] = record[j];
		});
		return { values, ...at };
	});
}

/** parseCsv + recordsToRawRows, with a format problem as a value. */
export function readCsvRows(text: string): { rows: RawRow[] } | { error: string } {
	try {
		const { records, lines } = parseCsvLines(text);
		return { rows: recordsToRawRows(records, lines) };
	} catch (error) {
		if (error instanceof CsvFormatError) return { error: error.message };
		return { error: String(error) };
	}
}

/** Limits of the free text of a row (docs/action-node.md#input-limits). */
export const ROW_TEXT_LIMITS = { beneficiaryAccountName: TEXT_LIMITS.name, narration: TEXT_LIMITS.narration } as const;

export interface ValidateOptions {
	/** Let rows paying the same account the same amount through (default: refused). */
	allowDuplicateRows?: boolean;
}

/**
 * Where a row is, for messages: its file line as a spreadsheet or editor
 * numbers it (the header is line 1) with its row among the data rows,
 * "line 3 (row 2)" (CSV), or its item number (input items).
 */
export function rowPlace(r: RawRow, row: number): string {
	return r.line !== undefined ? `line ${r.line} (row ${row})` : `item ${row}`;
}

/**
 * Checks every row and returns the clean rows and every problem found
 * (all rows, all fields: the user fixes the file once).
 *
 * Values are read one way (rule 7, ../../../shared/values/): the account
 * number, name, bank code and narration must be text (a number, which a
 * spreadsheet makes of 0123456789 or of bank code 044, is refused: its
 * leading zeros may be gone), never turned into "123456789" or "[object
 * Object]"; amounts are read exactly as written, a decimal comma or a
 * thousands separator refused naming the form to write (values/amount.ts);
 * a name or narration starting like a spreadsheet formula (= + - @, a tab or
 * a line break) is refused, as the CSV is opened in the bank's spreadsheets.
 *
 * Duplicates: two rows paying the same account number at the same bank the
 * same amount are refused, naming their lines (CSV) or items, unless
 * `allowDuplicateRows` is set: a row pasted twice is the commonest way to
 * pay someone twice. Names and narrations are not compared.
 */
export function validateRows(raw: RawRow[], options: ValidateOptions = {}): { rows: BulkRow[]; problems: RowProblem[] } {
	const rows: BulkRow[] = [];
	const problems: RowProblem[] = [];
	if (raw.length === 0) problems.push({ row: 0, field: 'rows', message: 'there are no rows to pay' });
	const firstSeen = new Map<string, number>();
	const duplicates = new Map<string, number[]>();
	raw.forEach((r, i) => {
		const row = i + 1;
		const bad = (field: string, message: string) => problems.push({ row, field, message, place: rowPlace(r, row) });
		if (r.shapeError !== undefined) {
			bad('row', r.shapeError);
			return;
		}
		const v = r.values;
		const str = (field: CsvColumn): string => {
			const value = v[field];
			if (value === undefined || value === null) return '';
			if (typeof value === 'string') return value.trim();
			bad(field, notTextMessage(value));
			return INVALID;
		};
		const accountNumber = str('beneficiaryAccountNumber');
		const accountName = str('beneficiaryAccountName');
		const bankCode = str('beneficiaryBankCode');
		const narration = str('narration');
		const amountValue = v.amount;
		if (accountNumber === '') bad('beneficiaryAccountNumber', 'is required');
		else if (accountNumber !== INVALID && accountNumberProblem(accountNumber)) {
			bad('beneficiaryAccountNumber', accountNumberProblem(accountNumber, clip(accountNumber)) as string);
		}
		if (accountName === '') bad('beneficiaryAccountName', 'is required');
		else if (accountName !== INVALID && accountName.length > ROW_TEXT_LIMITS.beneficiaryAccountName) {
			bad('beneficiaryAccountName', `must be at most ${ROW_TEXT_LIMITS.beneficiaryAccountName} characters (got ${accountName.length})`);
		} else if (accountName !== INVALID && formulaProblem(accountName)) bad('beneficiaryAccountName', formulaProblem(accountName) as string);
		if (bankCode === '') bad('beneficiaryBankCode', 'is required');
		else if (bankCode !== INVALID && !/^[A-Za-z0-9_-]{1,20}$/.test(bankCode)) bad('beneficiaryBankCode', `must be a bank code of letters and digits (got "${clip(bankCode)}")`);
		if (narration !== INVALID && narration.length > ROW_TEXT_LIMITS.narration) {
			bad('narration', `must be at most ${ROW_TEXT_LIMITS.narration} characters (got ${narration.length})`);
		} else if (narration !== INVALID && formulaProblem(narration)) bad('narration', formulaProblem(narration) as string);
		let amount = NaN;
		let parsed: AmountParse = { ok: false, message: 'is required' };
		if (amountValue === undefined || amountValue === null || (typeof amountValue === 'string' && amountValue.trim() === '')) {
			bad('amount', 'is required');
		} else if (typeof amountValue !== 'string' && typeof amountValue !== 'number') {
			bad('amount', Array.isArray(amountValue) ? 'must be a number, not a list' : typeof amountValue === 'object' ? 'must be a number, not an object' : `must be a number, not ${typeof amountValue}`);
		} else {
			const amountText = typeof amountValue === 'number' && /e/i.test(String(amountValue)) ? String(amountValue) : String(amountValue).trim();
			parsed = parseAmount(typeof amountValue === 'number' ? amountValue : amountText);
			// A decimal comma or thousands separators: the reader names the form to write.
			if (!parsed.ok && parsed.write) bad('amount', parsed.message.includes(`"${clip(amountText)}"`) ? parsed.message : `${parsed.message} (got "${clip(amountText)}")`);
			else if (!/^\d+(\.\d+)?$/.test(amountText)) bad('amount', `must be a number such as 1500.50 (got "${clip(amountText)}")`);
			else if (!parsed.ok) bad('amount', `${parsed.message} (got "${clip(amountText)}")`);
			else amount = parsed.value;
		}
		if (accountNumber !== '' && accountNumber !== INVALID && bankCode !== '' && bankCode !== INVALID && parsed.ok) {
			const key = JSON.stringify([accountNumber, bankCode.toUpperCase(), parsed.value]);
			const first = firstSeen.get(key);
			if (first === undefined) firstSeen.set(key, i);
			else duplicates.set(key, [...(duplicates.get(key) ?? [first]), i]);
		}
		rows.push({
			beneficiaryAccountNumber: accountNumber,
			beneficiaryAccountName: accountName,
			beneficiaryBankCode: bankCode,
			amount,
			narration: narration === INVALID ? '' : narration,
		});
	});
	if (!options.allowDuplicateRows) {
		for (const indexes of duplicates.values()) {
			const places = indexes.map((k) => rowPlace(raw[k], k + 1));
			const r = rows[indexes[0]];
			problems.push({
				row: 0,
				field: 'row',
				message: `duplicate rows: ${places.join(', ')} pay account ${r.beneficiaryAccountNumber} at bank ${r.beneficiaryBankCode} the same amount ${r.amount}; remove the repeats, or turn on "Allow Duplicate Rows" if each is really meant`,
			});
		}
	}
	return { rows, problems };
}

const INVALID = '\u0000invalid';

function clip(text: string): string {
	return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** One line per problem, for the error shown to the user. */
export function describeProblems(problems: RowProblem[], max = 20): string {
	const lines = problems.slice(0, max).map((p) => (p.row === 0 ? p.message : `${p.place ?? `row ${p.row}`}: "${p.field}" ${p.message}`));
	if (problems.length > max) lines.push(`... and ${problems.length - max} more`);
	return lines.join('; ');
}
