import type { IDataObject } from 'n8n-workflow';
import { describeValue } from '../parameters';

/**
 * Two rules, in one place:
 *
 * 1. A Merchant ID or Business ID left empty takes the credential's default
 *    (Default Merchant ID / Default Business ID of the PayOnUs API
 *    credential, read by ./read.ts). "Left empty" is undefined, null or '';
 *    a value that is set is kept as it is.
 * 2. A value that comes out empty is never filled in (docs/reliability.md,
 *    rule 5). A default (the credential's business or merchant, an
 *    operation's own such as Create Transfer's country from the currency)
 *    applies only when the builder left the field EMPTY IN THE EDITOR: the
 *    parameter as stored in the workflow, before any expression is
 *    evaluated (`this.getNode().parameters`). A field holding an expression
 *    (`{{ $json.businessId }}`, an AI tool's `$fromAI(...)`) that evaluates
 *    to nothing fails with EmptyFromExpressionError, naming the field, the
 *    expression and what it gave, before anything is sent.
 *
 * The action node applies both to every operation's input before validation
 * (withDefaults, from nodes/PayOnUs/run/input.ts). Its dropdowns, both
 * triggers (Merchant ID) and the payment page (Business) take the
 * credential's default with orCredentialDefault / merchantIdOf.
 */

/** The credential's defaults, never secrets (only the non-empty ones are set). */
export interface CredentialDefaults {
	merchantId?: string;
	businessId?: string;
}

/** The fields that take the credential's default when left empty. */
export const DEFAULTED_FIELDS = ['merchantId', 'businessId'] as const;
export type DefaultedField = (typeof DEFAULTED_FIELDS)[number];

/** The value itself when set, else the credential's default for that field, else undefined. */
export function orCredentialDefault<T>(
	value: T | undefined | null,
	defaults: CredentialDefaults,
	field: DefaultedField,
): T | string | undefined {
	if (value !== undefined && value !== null && value !== '') return value;
	return defaults[field] || undefined;
}

/** A node's Merchant ID parameter (text, trimmed), else the credential's default, else undefined. */
export function merchantIdOf(own: unknown, defaults: CredentialDefaults): string | undefined {
	return orCredentialDefault(String(own ?? '').trim(), defaults, 'merchantId');
}

const blank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A resource locator as stored ({ __rl, mode, value }): its value. */
function storedValue(stored: unknown): unknown {
	if (stored !== null && typeof stored === 'object' && !Array.isArray(stored) && 'value' in stored && ('__rl' in stored || 'mode' in stored)) {
		return (stored as IDataObject).value;
	}
	return stored;
}

/**
 * Whether the builder left a parameter empty in the editor: absent (n8n does
 * not store a parameter left at its empty default), null, '' or spaces, an
 * expression with nothing in it ("=", "={{ }}"), or a resource locator whose
 * value is one of these.
 */
export function leftEmptyInEditor(stored: unknown): boolean {
	const value = storedValue(stored);
	if (blank(value)) return true;
	if (typeof value !== 'string' || !value.startsWith('=')) return false;
	return value.slice(1).replace(/^\s*\{\{\s*\}\}\s*$/, '').trim() === '';
}

/** The expression of a stored parameter, as the builder sees it ("{{ $json.businessId }}"). */
function expressionOf(stored: unknown): string {
	const value = storedValue(stored);
	const text = typeof value === 'string' ? value.replace(/^=/, '') : JSON.stringify(value);
	return text.length > 120 ? `${text.slice(0, 120)}...` : text;
}

/** A field set in the editor (an expression, or $fromAI) whose value came out empty where a default would apply. */
export class EmptyFromExpressionError extends Error {
	readonly description: string;

	constructor(
		readonly field: string,
		readonly expression: string,
		readonly result: unknown,
		label: string,
		fills: string,
	) {
		super(`"${label}" came out empty: ${expression} gave ${describeValue(result)}`);
		this.name = 'EmptyFromExpressionError';
		this.description =
			`Nothing was sent. ${fills} applies only when "${label}" is left empty in the editor, never when an expression or an AI tool's $fromAI() gives nothing. ` +
			'Give this item a value (check the field the expression reads), or empty the field in the editor to use the default.';
	}
}

/** What fills a field left empty: the credential's defaults, or an operation's own (field: what fills it, in words). */
export interface DefaultsOf {
	credential: CredentialDefaults;
	/** Defaults an operation applies itself when a field is empty (e.g. countryCode: "the country of the currency"). */
	own?: Readonly<Record<string, string>>;
	/** The field's label, for messages. */
	label?: (field: string) => string;
}

/**
 * The raw input of an operation with rule 2 checked, then the credential's
 * defaults put in the empty top-level `merchantId` / `businessId` fields it
 * has (filters inside a collection are not filled). `stored` is the node's
 * parameters as saved (`getNode().parameters`); without it (undefined) only
 * rule 1 applies (operations that move no money, on node versions 1 to 3,
 * kept as they were). The node runs this before validation, so a missing business is
 * reported with the other input problems, before anything is sent.
 */
export function withDefaults(raw: IDataObject, stored: IDataObject | undefined, of: DefaultsOf): IDataObject {
	const label = of.label ?? ((field: string) => field);
	if (stored !== undefined) {
		const fills: Array<[string, string]> = [
			...DEFAULTED_FIELDS.map((name): [string, string] => [name, `The credential's Default ${name === 'businessId' ? 'Business' : 'Merchant'} ID`]),
			...Object.entries(of.own ?? {}).map(([name, what]): [string, string] => [name, `The default (${what})`]),
		];
		for (const [name, fill] of fills) {
			if (!(name in raw) || !blank(raw[name]) || leftEmptyInEditor(stored[name])) continue;
			throw new EmptyFromExpressionError(name, expressionOf(stored[name]), raw[name], label(name), fill);
		}
	}
	return withCredentialDefaults(raw, of.credential);
}

/** Rule 1 alone: the credential's defaults in the empty top-level merchantId / businessId (see withDefaults). */
export function withCredentialDefaults(raw: IDataObject, defaults: CredentialDefaults): IDataObject {
	const filled: IDataObject = { ...raw };
	for (const name of DEFAULTED_FIELDS) {
		if (!(name in filled)) continue;
		const value = orCredentialDefault(filled[name], defaults, name);
		if (value !== undefined) filled[name] = value;
	}
	return filled;
}
