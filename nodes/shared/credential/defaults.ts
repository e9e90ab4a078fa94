import type { IDataObject } from 'n8n-workflow';

/**
 * One rule, in one place: a Merchant ID or Business ID left empty takes the
 * credential's default (Default Merchant ID / Default Business ID of the
 * PayOnUs API credential, read by ./read.ts). "Left empty" is undefined,
 * null or ''; a value that is set is kept as it is.
 *
 * Used by the action node (an operation's input, before validation; the
 * payout operations' merchant; its dropdowns), both triggers (Merchant ID)
 * and the payment page (Business).
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

/**
 * The raw input of an operation with the credential's defaults put in the
 * empty top-level `merchantId` / `businessId` fields it has (filters inside
 * a collection are not filled). The node runs this before validation, so a
 * missing business is reported with the other input problems, before
 * anything is sent.
 */
export function withCredentialDefaults(raw: IDataObject, defaults: CredentialDefaults): IDataObject {
	const filled: IDataObject = { ...raw };
	for (const name of DEFAULTED_FIELDS) {
		if (!(name in filled)) continue;
		const value = orCredentialDefault(filled[name], defaults, name);
		if (value !== undefined) filled[name] = value;
	}
	return filled;
}
