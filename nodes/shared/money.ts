/**
 * Money amounts read EXACTLY: what the user wrote is what is sent. Used by
 * the zod blocks of ./validation.ts (amount, tokenizedAmount) and by the bulk
 * transfer CSV rows.
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

export type AmountParse = { ok: true; value: number; text: string } | { ok: false; message: string };

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
