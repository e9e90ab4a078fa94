import { z } from 'zod/v3';
import { readPhone, type PhoneOptions } from '../values/phone';
import { blankToUndefined, REQUIRED } from './reading';

/** Values of a fixed form: currency and country codes, phone numbers, dates, one of a list, yes/no. */

/**
 * The currencies the service documents: NGN, KES and ZAR (payment records),
 * USD (checkout, with NGN) and GHS (mobile money, public facts). Any other
 * code is refused before anything is sent.
 */
export const CURRENCIES = ['NGN', 'KES', 'ZAR', 'USD', 'GHS'] as const;

/** ISO 4217 currency code from CURRENCIES, e.g. NGN (upper-cased). */
export function currency() {
	return z.preprocess(
		(v) => {
			const t = blankToUndefined(v);
			return typeof t === 'string' ? t.toUpperCase() : t;
		},
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code such as NGN, KES or ZAR')
			.refine((c) => (CURRENCIES as readonly string[]).includes(c), `must be one of the currencies PayOnUs documents: ${CURRENCIES.join(', ')}`),
	);
}

/** ISO 3166-1 alpha-2 country code, e.g. NG (upper-cased). */
export function countryCode() {
	return z.preprocess(
		(v) => {
			const t = blankToUndefined(v);
			return typeof t === 'string' ? t.toUpperCase() : t;
		},
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.regex(/^[A-Z]{2}$/, 'must be a 2-letter country code such as NG, KE or ZA'),
	);
}

/**
 * International phone number: a leading + and 7 to 15 digits (E.164), read
 * by ../values/phone.ts (spaces and hyphens between digits dropped; local
 * numbers, 00 and numbers refused, naming E.164).
 */
export function phone(options: PhoneOptions = {}) {
	return z.preprocess(
		blankToUndefined,
		z.unknown().transform((value, ctx) => {
			if (value === undefined) {
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: REQUIRED });
				return z.NEVER;
			}
			const r = readPhone(value, options);
			if (!r.ok) {
				ctx.addIssue({ code: z.ZodIssueCode.custom, message: r.message });
				return z.NEVER;
			}
			return r.value;
		}),
	);
}

/** Calendar date written YYYY-MM-DD (checked to exist, e.g. no 2024-02-30). */
export function date() {
	return z.preprocess(
		(v) => {
			// n8n's date picker gives an ISO timestamp; keep its date part.
			const t = blankToUndefined(v);
			if (typeof t === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(t)) return t.slice(0, 10);
			return t;
		},
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.refine(isCalendarDate, 'must be a date written YYYY-MM-DD, e.g. 2024-05-31'),
	);
}

function isCalendarDate(value: string): boolean {
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	if (!m) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const dt = new Date(Date.UTC(y, mo - 1, d));
	return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** One of the given values (case-sensitive, as the service expects). */
export function oneOf<T extends string>(values: readonly [T, ...T[]]) {
	return z.preprocess(
		blankToUndefined,
		// zod refuses required_error/invalid_type_error beside an errorMap;
		// a missing value is reported "is required" by describeIssue.
		z.enum(values, {
			errorMap: (issue) => ({
				message:
					issue.code === 'invalid_type' && issue.received === 'undefined'
						? REQUIRED
						: `must be one of ${values.join(', ')}`,
			}),
		}),
	);
}

/** Boolean (n8n booleans; "true"/"false" text from expressions accepted). */
export function bool() {
	return z.preprocess(
		(v) => (v === 'true' ? true : v === 'false' ? false : blankToUndefined(v)),
		z.boolean({ invalid_type_error: 'must be true or false' }),
	);
}
