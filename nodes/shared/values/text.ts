/**
 * Text values read one way (rule 7, docs/reliability.md): identifiers kept
 * as text, and text that could run as a formula in a spreadsheet.
 *
 * - **A number where text is expected is refused, never converted.** An
 *   account number, phone number, BVN, bank code or reference that arrives
 *   as a number (a spreadsheet column read as numbers, an expression or an
 *   item giving 123456789) may already have lost its leading zeros
 *   (0123456789 -> 123456789; bank code 044 -> 44): which one was meant
 *   cannot be told, so it is refused with one message saying to keep it as
 *   text. Free text (names, narrations) follows the same rule: one reader.
 * - **Text that reaches a bank never starts like a formula.** A name,
 *   narration or reference starting with `=`, `+`, `-`, `@`, a tab or a line
 *   break is refused before anything is sent: the bank's statement, the
 *   dashboard's export and the bulk CSV are opened in spreadsheets, which
 *   run such a cell (`=HYPERLINK(...)`).
 * - **Reports neutralise instead** (`spreadsheetSafe`): what the package
 *   gives people to open in a spreadsheet (Reconcile's output, the example
 *   reconciliation CSV) prefixes such text with `'`, the spreadsheet's own
 *   "this is text" mark.
 */

/** What starts a formula in Excel, LibreOffice and Google Sheets (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r\n]/;

/** The message for a value that is not text: a number says how to keep it (its leading zeros). */
export function notTextMessage(value: unknown): string {
	if (typeof value === 'number' || typeof value === 'bigint') {
		return (
			`must be text, not the number ${String(value)}: a number loses leading zeros (0123456789 becomes 123456789), ` +
			'so keep it as text where it comes from (format the spreadsheet column as Text, or put the value in quotes)'
		);
	}
	if (Array.isArray(value)) return 'must be text, not a list';
	if (value !== null && typeof value === 'object') return 'must be text, not an object';
	if (typeof value === 'boolean') return `must be text, not ${String(value)}`;
	return 'must be text';
}

function named(c: string): string {
	if (c === '\t') return 'a tab';
	if (c === '\r' || c === '\n') return 'a line break';
	return `"${c}"`;
}

/**
 * Why text that reaches a bank cannot be sent as it is (it starts like a
 * formula), or undefined. The message reads after a field name.
 */
export function formulaProblem(text: string): string | undefined {
	if (!FORMULA_START.test(text)) return undefined;
	return `must not start with ${named(text[0])}: a spreadsheet opening it (a bank statement, an export) would run it as a formula; remove or reword the start`;
}

/** Text for a spreadsheet cell: text that would run as a formula is prefixed with ' (shown as text). */
export function spreadsheetSafe(text: string): string {
	return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Every text inside a value (objects and lists walked) made spreadsheetSafe; numbers, booleans and null kept. */
export function spreadsheetSafeDeep<T>(value: T): T {
	if (typeof value === 'string') return spreadsheetSafe(value) as T;
	if (Array.isArray(value)) return value.map((v) => spreadsheetSafeDeep(v)) as T;
	if (value !== null && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = spreadsheetSafeDeep(v);
		return out as T;
	}
	return value;
}

/** A plain printable ASCII character other than a space (what references may hold). */
const PLAIN = /^[\x21-\x7e]$/;

/**
 * The first character of a reference that is not plain printable ASCII,
 * named for the message (`"А" (U+0410)`, `an invisible character (U+200B)`),
 * or undefined. Whitespace is said by the caller's own message.
 */
export function lookAlike(text: string): string | undefined {
	for (const c of text) {
		if (PLAIN.test(c) || /\s/.test(c)) continue;
		const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
		return /[\p{Cf}\p{Cc}\p{Mn}]/u.test(c) ? `an invisible character (${code})` : `"${c}" (${code})`;
	}
	return undefined;
}

/**
 * Why a value that should be an account-like number written as digits is
 * not one, when a spreadsheet wrote it in scientific notation (1.23457E+11),
 * or undefined.
 */
export function scientificNotation(text: string): string | undefined {
	return /^\d(\.\d+)?e\+?\d+$/i.test(text)
		? `is "${text}", a number a spreadsheet wrote in scientific notation (its digits are lost): keep the column as Text and export it again`
		: undefined;
}

/**
 * Why text is not a bank account number (6 to 20 digits, the package's
 * bound: the spec gives none), or undefined. `shown`: the value to echo in
 * the message (bulk rows say what they got).
 */
export function accountNumberProblem(text: string, shown?: string): string | undefined {
	if (/^\d{6,20}$/.test(text)) return undefined;
	return scientificNotation(text) ?? `must be 6 to 20 digits${shown === undefined ? '' : ` (got "${shown}")`}`;
}
