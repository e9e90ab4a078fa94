/**
 * Money amounts read EXACTLY and ONE way (rule 7, docs/reliability.md):
 * what the user wrote is what is sent, and a form that can be read two ways
 * is refused with the form to write, never guessed.
 *
 * Accepted (one reading only):
 * - a JS number (an n8n Number field, an expression or `$fromAI` giving a
 *   number, a number in an input item): read through its shortest decimal
 *   form, which is what JSON sends;
 * - text in plain notation: digits, optionally a point and 1 or 2 decimals
 *   (`1500`, `1500.5`, `1500.50`), edge spaces ignored.
 *
 * Refused, naming the form to write:
 * - a decimal comma: `150,50` (write 150.50). A comma followed by 1 or 2
 *   digits is never a thousands separator, but a comma is one elsewhere, so
 *   the reader does not take a comma for a point;
 * - thousands separators, which give two readings where the last group has
 *   3 digits: `1,500` and `1.500` are 1500 or 1.50 (1.500), so both forms are
 *   named; `1 500`, `1,500.50`, `1.500,50`, `1'500.50`, `1,50,000`: write
 *   1500, 1500.50, 150000;
 * - anything else that is not plain notation (exponent, sign, hex, a
 *   currency sign...), more than 2 decimals, 0 or less, more than MAX_AMOUNT.
 *
 * Used by the zod blocks of ../validation/ (every amount of every
 * operation, from the editor, an expression or `$fromAI`), the bulk transfer
 * rows (CSV and items) and the payment page's buyer amount.
 */

const REQUIRED = 'is required';

/**
 * Largest amount accepted anywhere (payins, payouts, bulk rows): 999,999,999,999.99
 * (12 integer digits, 2 decimals). Every amount up to it, written with at
 * most 2 decimals, is exactly what a JSON number carries to the service
 * (15 significant digits or fewer round-trip through a double), so what the
 * user wrote is what is sent. The spec states no maximum.
 */
export const MAX_AMOUNT_TEXT = '999999999999.99';
export const MAX_AMOUNT = 999_999_999_999.99;

/** Plain decimal notation: digits, optionally a point and 1 or 2 decimals. */
const PLAIN_AMOUNT = /^\d+(\.\d{1,2})?$/;

/**
 * A refusal: `message` reads after a field name (`"Amount" must ...`);
 * `write`, when the value was an amount written with separators, is the
 * form(s) to write instead (one: its only reading; two: both readings).
 */
export type AmountParse = { ok: true; value: number; text: string } | { ok: false; message: string; write?: string[] };

/** Compares two plain non-negative decimal texts exactly (no float). */
function compareDecimalText(a: string, b: string): number {
	const [ai, af = ''] = a.split('.');
	const [bi, bf = ''] = b.split('.');
	const aInt = ai.replace(/^0+(?=\d)/, '');
	const bInt = bi.replace(/^0+(?=\d)/, '');
	if (aInt.length !== bInt.length) return aInt.length < bInt.length ? -1 : 1;
	if (aInt !== bInt) return aInt < bInt ? -1 : 1;
	const width = Math.max(af.length, bf.length);
	const aF = af.padEnd(width, '0');
	const bF = bf.padEnd(width, '0');
	return aF === bF ? 0 : aF < bF ? -1 : 1;
}

/** Characters people put between digit groups: comma, point, spaces (also no-break and thin), apostrophes, underscore. */
const SEPARATOR = /[.,\s'\u2019_\u00a0\u202f\u2009]/;
const SEPARATED = /^\d+([.,\s'\u2019_\u00a0\u202f\u2009]\d+)+$/;

/** Whether digit groups are thousands groups: 1-3 digits, then groups of 3 (or the Indian 2s, then a last 3). */
function isGrouping(groups: string[]): boolean {
	if (groups.length < 2 || groups[0].length < 1 || groups[0].length > 3 || /^0/.test(groups[0])) return false;
	const rest = groups.slice(1);
	if (rest.every((g) => g.length === 3)) return true;
	return rest[rest.length - 1].length === 3 && rest.slice(0, -1).every((g) => g.length === 2) && groups[0].length <= 2;
}

/** `1.500` -> `1.50`, `150.5` -> `150.5`: a decimal reading as plain text, or undefined past 2 decimals. */
function plainDecimal(int: string, fraction: string): string | undefined {
	const trimmed = fraction.length > 2 ? fraction.replace(/0+$/, '').padEnd(2, '0') : fraction;
	if (trimmed.length > 2) return undefined;
	return `${int.replace(/^0+(?=\d)/, '')}.${trimmed}`;
}

/**
 * The plain forms an amount written with separators can stand for (the
 * readings a person or a spreadsheet of another locale may have meant), or
 * undefined when the text is not digits and separators.
 */
export function amountReadings(text: string): string[] | undefined {
	if (!SEPARATED.test(text)) return undefined;
	const groups = text.split(SEPARATOR);
	const marks = text.replace(/\d+/g, '').split('');
	const last = marks[marks.length - 1];
	const readings: string[] = [];
	// Every mark taken as a thousands separator (all of one kind).
	if (new Set(marks.map((m) => (/\s|[\u00a0\u202f\u2009]/.test(m) ? ' ' : m))).size === 1 && isGrouping(groups)) {
		readings.push(groups.join('').replace(/^0+(?=\d)/, ''));
	}
	// The last comma or point taken as the decimal mark, the marks before it as thousands separators.
	const fraction = groups[groups.length - 1];
	const earlier = marks.slice(0, -1);
	if ((last === '.' || last === ',') && !earlier.includes(last) && (earlier.length === 0 || isGrouping(groups.slice(0, -1)))) {
		const decimal = plainDecimal(groups.slice(0, -1).join(''), fraction);
		if (decimal !== undefined) readings.push(decimal);
	}
	return [...new Set(readings)];
}

const PLAIN_FORM = 'a number with a point before the decimals and no thousands separators';

/**
 * What to write instead of an amount with separators, after a field name
 * or a buyer's "Amount:": `write 150.50` or `"1,500" can be read as 1500 or
 * 1.50: write the one you mean`.
 */
export function amountHint(text: string, write: string[]): string {
	if (write.length === 1) return `write ${write[0]} (not "${clip(text)}")`;
	return `"${clip(text)}" can be read as ${write.join(' or ')}: write the one you mean`;
}

function clip(text: string): string {
	return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/**
 * Reads a money amount EXACTLY. Text is checked as written, before any
 * conversion: plain notation only (no exponent, sign, thousands separator or
 * hex), at most 2 decimals, greater than `min`, at most MAX_AMOUNT. A JS
 * number (n8n number fields) is checked through its shortest decimal form,
 * which is what JSON would send. The result is the number sent and the
 * canonical text it stands for; `String(value)` equals that text's value.
 */
export function parseAmount(value: unknown, options: { min?: number; minInclusive?: boolean } = {}): AmountParse {
	const min = options.min ?? 0;
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return { ok: false, message: 'must be a finite number' };
		text = String(value);
		if (/e/i.test(text)) {
			return Math.abs(value) < 1
				? { ok: false, message: 'must have at most 2 decimal places' }
				: { ok: false, message: `must be at most ${MAX_AMOUNT_TEXT}` };
		}
		if (value < 0) return { ok: false, message: options.minInclusive ? `must be at least ${min}` : `must be greater than ${min}` };
	} else if (typeof value === 'string') {
		text = value.trim();
		if (text === '') return { ok: false, message: REQUIRED };
	} else if (value === undefined || value === null) {
		return { ok: false, message: REQUIRED };
	} else {
		return { ok: false, message: `must be a number, not ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value}` };
	}
	const readings = typeof value === 'string' && !PLAIN_AMOUNT.test(text) ? amountReadings(text) : undefined;
	if (readings !== undefined && readings.length > 0) {
		const onlyDecimals = readings.length === 1 && /^\d+\.\d+$/.test(text);
		// 100.001: too many decimals, unless its point separates thousands (100001).
		if (onlyDecimals && !readings[0].includes('.')) {
			return { ok: false, message: `must have at most 2 decimal places, or be written ${readings[0]} if the point separates thousands`, write: readings };
		}
		return { ok: false, message: `must be ${PLAIN_FORM}: ${amountHint(text, readings)}`, write: readings };
	}
	if (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) && !PLAIN_AMOUNT.test(text)) {
		const unsigned = text.replace(/^[+-]/, '');
		if (text.startsWith('-')) return { ok: false, message: options.minInclusive ? `must be at least ${min}` : `must be greater than ${min}` };
		const dot = unsigned.indexOf('.');
		if (dot >= 0 && unsigned.length - dot - 1 > 2) return { ok: false, message: 'must have at most 2 decimal places' };
		return { ok: false, message: 'must be a number written as plain digits with an optional point and at most 2 decimals, e.g. 1500.50' };
	}
	if (!/\d/.test(text)) return { ok: false, message: 'must be a number' };
	if (!PLAIN_AMOUNT.test(text)) {
		return { ok: false, message: 'must be a number written as plain digits with an optional point and at most 2 decimals, e.g. 1500.50 (no exponent, sign, spaces or thousands separators)' };
	}
	if (compareDecimalText(text, MAX_AMOUNT_TEXT) > 0) return { ok: false, message: `must be at most ${MAX_AMOUNT_TEXT}` };
	const n = Number(text);
	if (options.minInclusive ? n < min : n <= min) {
		return { ok: false, message: options.minInclusive ? `must be at least ${min}` : `must be greater than ${min}` };
	}
	// Belt and braces: the number sent must stand for exactly the text read.
	if (compareDecimalText(String(n), text) !== 0) return { ok: false, message: 'cannot be sent exactly as a number' };
	return { ok: true, value: n, text };
}
