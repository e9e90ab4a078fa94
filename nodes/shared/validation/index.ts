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
 * - Text given as a number is refused (it may have lost leading zeros).
 * - Nothing here reaches the network: these run before any request is sent.
 * - Every value is read one way (rule 7, docs/reliability.md): the readers
 *   are in ../values/ (amount.ts, phone.ts, text.ts); these blocks wrap them.
 *
 * reading.ts  how a value is read first ('' -> not given, trimming, optional(), group())
 * numbers.ts  amounts and whole numbers
 * text.ts     text, references, identifiers, account numbers, addresses, card data
 * formats.ts  currency and country codes, phone numbers, dates, oneOf, bool
 * messages.ts a zod error in words (describeIssue, describeIssues)
 */

export { group, optional } from './reading';
export { amount, integer, tokenizedAmount } from './numbers';
export {
	accountNumber,
	bankText,
	businessId,
	bvn,
	email,
	encryptedCardData,
	identifier,
	merchantId,
	onusReference,
	optionalBankText,
	optionalText,
	reference,
	text,
	TEXT_LIMITS,
	url,
} from './text';
export { bool, countryCode, currency, CURRENCIES, date, oneOf, phone } from './formats';
export { describeIssue, describeIssues, humanize, type InputProblems } from './messages';
