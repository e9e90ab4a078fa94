import { z } from 'zod/v3';
import { accountNumberProblem, formulaProblem, lookAlike, notTextMessage as notText, scientificNotation } from '../values/text';
import { asText, blankToUndefined, REQUIRED } from './reading';

/**
 * Text: free text and text that reaches a bank, references and identifiers
 * the service issued, account numbers, e-mail and web addresses, encrypted
 * card data.
 */

/**
 * Length limits of free text (the spec gives one only for the tokenization
 * merchantReference, 100; the others are this package's, documented in the
 * docs/action-node.md#input-limits): names 100, narrations 255, any other free text 255.
 */
export const TEXT_LIMITS = { name: 100, narration: 255, default: 255 } as const;

function textSchema(maxLength: number, required: boolean, bank = false) {
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
			return;
		}
		const formula = bank ? formulaProblem(value) : undefined;
		if (formula) ctx.addIssue({ code: z.ZodIssueCode.custom, message: formula });
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

/**
 * Text that reaches a bank or the service's records (a beneficiary's or
 * customer's name, a narration): as text(), and never starting like a
 * spreadsheet formula (= + - @, a tab or a line break: ../values/text.ts).
 */
export function bankText(maxLength: number = TEXT_LIMITS.default) {
	return z.preprocess(blankToUndefined, textSchema(maxLength, true, true));
}

/** Optional bankText(): '' becomes undefined (not sent). */
export function optionalBankText(maxLength: number = TEXT_LIMITS.default) {
	return z.preprocess(blankToUndefined, textSchema(maxLength, false, true).optional());
}

/**
 * A merchant reference (`reference` / `merchantReference`): unique per
 * business. The spec states a 100-character maximum for tokenization
 * references and no limit elsewhere; 100 is used everywhere, and only
 * printable characters without spaces are accepted so a reference can be
 * looked up again safely.
 *
 * Read one way (rule 7): edge spaces are dropped (a reference holds no
 * space, so that is its only reading); a character outside plain ASCII (a
 * Cyrillic "А", a full-width digit, an invisible zero-width space: look-
 * alikes the service and a bank may read as other characters or not at
 * all) is refused, naming it; the case is kept as written and compared
 * exactly; a number is refused (../values/text.ts); a start a spreadsheet
 * runs as a formula (= + - @) is refused.
 */
export function reference(maxLength = 100) {
	return asText(
		z
			.string({ required_error: REQUIRED, invalid_type_error: 'must be text' })
			.min(1, REQUIRED)
			.max(maxLength, `must be at most ${maxLength} characters`)
			.superRefine((value, ctx) => {
				const odd = lookAlike(value);
				const message = 'must contain no spaces or special characters (letters, digits and symbols like - _ . / only)';
				if (odd) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${message}: ${odd} is not a plain letter, digit or symbol; retype it` });
				else if (!/^[\x21-\x7e]+$/.test(value)) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
				else {
					const formula = formulaProblem(value);
					if (formula) ctx.addIssue({ code: z.ZodIssueCode.custom, message: formula });
				}
			}),
	);
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
	return asText(
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

/** Text checked by `problem` (a reader of ../values/), a number refused (keep it as text). */
function textRead(problem: (text: string) => string | undefined) {
	return asText(
		z.string({ required_error: REQUIRED, invalid_type_error: 'must be text' }).superRefine((value, ctx) => {
			const message = problem(value);
			if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
		}),
	);
}

/** Bank account number: digits only, 6 to 20, given as text (../values/text.ts accountNumberProblem). */
export function accountNumber() {
	return textRead((t) => accountNumberProblem(t));
}

/** Nigerian Bank Verification Number: 11 digits, given as text. */
export function bvn() {
	return textRead((t) => (/^\d{11}$/.test(t) ? undefined : (scientificNotation(t) ?? 'must be 11 digits')));
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
