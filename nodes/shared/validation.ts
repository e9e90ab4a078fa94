import { z } from 'zod';
import { parseAmount } from './money';

/**
 * zod building blocks for the inputs of every PayOnUs operation.
 *
 * Messages are written to be appended to a field name: the node reports a
 * failure as `Item 3: "amount" must be greater than 0`, so each message here
 * starts with a verb ("must ...", "is required").
 *
 * Conventions:
 * - Text is trimmed; an empty text counts as "not given" (n8n sends '' for a
 *   field left empty), so `optionalText()` turns '' into undefined and a
 *   required field left empty fails with "is required".
 * - Numbers given as text by an expression ("100.50") are accepted.
 * - Nothing here reaches the network: these run before any request is sent.
 * - Amounts are read exactly by ./money.ts (parseAmount).
 */

const REQUIRED = 'is required';

/** '' / null / whitespace -> undefined; other text trimmed. */
function blankToUndefined(value: unknown): unknown {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'string') {
		const trimmed = value.trim();
		return trimmed === '' ? undefined : trimmed;
	}
	return value;
}

/** Accepts numbers and numeric text; '' / null -> undefined. */
function toNumber(value: unknown): unknown {
	const v = blankToUndefined(value);
	if (typeof v === 'string' && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v)) return Number(v);
	return v;
}

function requiredNumber() {
	return z.number({ required_error: REQUIRED, invalid_type_error: 'must be a number' }).finite('must be a finite number');
}

function amountSchema(options: { min?: number; minInclusive?: boolean }) {
	return z.unknown().transform((value, ctx) => {
		const r = parseAmount(typeof value === 'string' && value.trim() === '' ? undefined : value, options);
		if (!r.ok) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: r.message });
			return z.NEVER;
		}
		return r.value;
	});
}

/**
 * A money amount: greater than 0, at most 2 decimal places, at most
 * MAX_AMOUNT, read exactly (see parseAmount).
 */
export function amount() {
	return amountSchema({ min: 0 });
}

/** Amount of a tokenized card charge: the spec's minimum is 1. */
export function tokenizedAmount() {
	return amountSchema({ min: 1, minInclusive: true });
}

/** Whole number in a range (page size, limit, expiry minutes...). */
export function integer(min: number, max?: number) {
	let schema = requiredNumber().int('must be a whole number').gte(min, `must be at least ${min}`);
	if (max !== undefined) schema = schema.lte(max, `must be at most ${max}`);
	return z.preprocess(toNumber, schema);
}

/**
 * Length limits of free text (the spec gives one only for the tokenization
 * merchantReference, 100; the others are this package's, documented in the
 * docs/action-node.md#input-limits): names 100, narrations 255, any other free text 255.
 */
export const TEXT_LIMITS = { name: 100, narration: 255, default: 255 } as const;

/** Message for a value that is not text (an object from an expression...). */
function notText(value: unknown): string {
	if (Array.isArray(value)) return 'must be text, not a list';
	if (value !== null && typeof value === 'object') return 'must be text, not an object';
	return 'must be text';
}

function textSchema(maxLength: number, required: boolean) {
	return z.unknown().superRefine((value, ctx) => {
		if (value === undefined) {
			if (required) ctx.addIssue({ code: z.ZodIssueCode.custom, message: REQUIRED });
			return;
		}
		if (typeof value !== 'string') {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: notText(value) });
			return;
		}
		if (value.length > maxLength) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be at most ${maxLength} characters (got ${value.length})` });
		}
	}) as unknown as z.ZodType<string>;
}

/** Required text, trimmed, at most `maxLength` characters (default 255). */
export function text(maxLength: number = TEXT_LIMITS.default) {
	return z.preprocess(blankToUndefined, textSchema(maxLength, true));
}

/** Optional text: '' becomes undefined (not sent); at most `maxLength` characters (default 255). */
export function optionalText(maxLength: number = TEXT_LIMITS.default) {
	return z.preprocess(blankToUndefined, textSchema(maxLength, false).optional());
}

/** Makes any of these blocks optional ('' / null -> undefined, then not validated). */
export function optional<T extends z.ZodTypeAny>(schema: T) {
	return z.preprocess(blankToUndefined, schema.optional());
}

/**
 * A merchant reference (`reference` / `merchantReference`): unique per
 * business. The spec states a 100-character maximum for tokenization
 * references and no limit elsewhere; 100 is used everywhere, and only
 * printable characters without spaces are accepted so a reference can be
 * looked up again safely.
 */
export function reference(maxLength = 100) {
	return z.preprocess(
		blankToUndefined,
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.min(1, REQUIRED)
			.max(maxLength, `must be at most ${maxLength} characters`)
			.regex(/^[\x21-\x7e]+$/, 'must contain no spaces or special characters (letters, digits and symbols like - _ . / only)'),
	);
}

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

/** International phone number: a leading + and 7 to 15 digits (E.164). */
export function phone() {
	return z.preprocess(
		blankToUndefined,
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.regex(/^\+[1-9]\d{6,14}$/, 'must be in international format: + followed by 7 to 15 digits, e.g. +2348012345678'),
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

/** E-mail address. */
export function email() {
	return z.preprocess(
		blankToUndefined,
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.max(254, 'must be at most 254 characters')
			.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address such as name@example.com'),
	);
}

/** http(s) address. */
export function url() {
	return z.preprocess(
		blankToUndefined,
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.max(2048, 'must be at most 2048 characters')
			.refine((v) => {
				try {
					const u = new URL(v);
					return u.protocol === 'https:' || u.protocol === 'http:';
				} catch {
					return false;
				}
			}, 'must be a web address starting with https://'),
	);
}

/**
 * An identifier the service issued (business id, merchant id, token id...):
 * non-empty text without spaces or slashes (it may end up in a path).
 */
export function identifier(example = 'BUS-2001') {
	return z.preprocess(
		blankToUndefined,
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.regex(/^[^\s/?#]+$/, `must be an identifier without spaces or slashes, e.g. ${example}`)
			.max(100, 'must be at most 100 characters'),
	);
}

export const businessId = () => identifier('BUS-2001');
export const merchantId = () => identifier('MER-1001');

/** A service reference such as ONUS-NUB-1234567890123-31052024-101500. */
export function onusReference() {
	return identifier('ONUS-NUB-1234567890123-31052024-101500');
}

/** Bank account number: digits only, 6 to 20. */
export function accountNumber() {
	return z.preprocess(
		blankToUndefined,
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.regex(/^\d{6,20}$/, 'must be 6 to 20 digits'),
	);
}

/** Nigerian Bank Verification Number: 11 digits. */
export function bvn() {
	return z.preprocess(
		blankToUndefined,
		z.string({ required_error: REQUIRED, invalid_type_error: 'must be text' }).regex(/^\d{11}$/, 'must be 11 digits'),
	);
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

/**
 * An n8n collection (object) whose missing/empty value counts as {}. Nested
 * blocks keep their own messages; their path is reported as "customer.email".
 */
export function group<T extends z.ZodRawShape>(shape: T) {
	return z.preprocess((v) => (v === null || v === undefined || v === '' ? {} : v), z.object(shape));
}

/** "beneficiaryAccountName" -> "Beneficiary Account Name" (when no field label is known). */
export function humanize(name: string): string {
	const words = name
		.replace(/([a-z\d])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.trim();
	const titled = words.charAt(0).toUpperCase() + words.slice(1);
	return titled.replace(/\b(Id|Bvn|Otp|Url|Eft)\b/g, (w) => w.toUpperCase());
}

function issueMessage(issue: z.ZodIssue): string {
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return REQUIRED;
	if (issue.code === 'invalid_type' && issue.expected === 'string' && issue.received === 'object') return 'must be text, not an object';
	if (issue.code === 'invalid_type' && issue.expected === 'string' && issue.received === 'array') return 'must be text, not a list';
	if (issue.code === 'unrecognized_keys') return `has unknown fields: ${issue.keys.join(', ')}`;
	return issue.message;
}

/**
 * Turns a zod error into one sentence naming the field: `"amount" must be
 * greater than 0` (the first issue; internal names). The node itself uses
 * describeIssues (field labels, every field).
 */
export function describeIssue(error: z.ZodError): { field: string; message: string } {
	const issue = error.issues[0];
	const field = issue.path.length > 0 ? issue.path.join('.') : 'input';
	return { field, message: `"${field}" ${issueMessage(issue)}` };
}

export interface InputProblems {
	/** Short title: the one problem, or how many fields and which. */
	title: string;
	/** Every problem, one sentence each (undefined when the title says it all). */
	description?: string;
	/** One sentence per invalid field, in the order of the form. */
	problems: string[];
	/** The internal path of the first invalid field ("filters.toDate"). */
	field: string;
}

/**
 * Every invalid field of one item at once, named by the label the user sees
 * in the node (`label` maps an internal path such as "filters.toDate" to
 * "To Date"; without it the name is humanized). One problem per field.
 */
export function describeIssues(error: z.ZodError, label: (path: string) => string = (p) => humanize(p.split('.').pop() ?? p)): InputProblems {
	const seen = new Set<string>();
	const problems: string[] = [];
	const labels: string[] = [];
	let first = '';
	for (const issue of error.issues) {
		const path = issue.path.length > 0 ? issue.path.join('.') : '';
		if (seen.has(path)) continue;
		seen.add(path);
		if (problems.length === 0) first = path || 'input';
		const name = path ? label(path) : 'Input';
		labels.push(name);
		problems.push(`"${name}" ${issueMessage(issue)}`);
	}
	if (problems.length === 1) return { title: problems[0], problems, field: first };
	return {
		title: `${problems.length} fields to fix: ${labels.join(', ')}`,
		description: problems.map((p) => `${p}.`).join(' '),
		problems,
		field: first,
	};
}

/**
 * Card details encrypted for the service: RSA-encrypted and Base64-encoded
 * (the spec's `cardData`). Raw card numbers are refused outright. Messages
 * never repeat the value.
 */
export function encryptedCardData() {
	return z.preprocess(
		blankToUndefined,
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.refine(
				(s) => !/^[\d\s-]{12,23}$/.test(s),
				'looks like a raw card number: encrypt the card details with the PayOnUs RSA public key and give the Base64 result; never put raw card numbers in a workflow',
			)
			.refine(
				(s) => /^[A-Za-z0-9+/]+={0,2}$/.test(s) && s.length % 4 === 0 && s.length >= 88,
				'must be the card details RSA-encrypted with the PayOnUs public key and Base64-encoded (at least 88 characters of A-Z, a-z, 0-9, + and /)',
			),
	);
}
