import type { IDataObject } from 'n8n-workflow';
import { accountState } from '../accountState';
import { subjectOfPath } from '../format';
import { redactText, sanitizeBody } from '../redact';
import { serviceMessage } from './wording';

/**
 * Issue 31: an error of the service reads as the builder's thing, not our
 * internals: a short title (at most 12 words) naming the thing and the
 * field (`Business "BUS-9999" not found`), then one line on what to do,
 * then the details (the service's words). The field comes from the
 * service's words (an `errors` entry `field: ...` or a field it names), its
 * value from the request; test/unit/shared/errors.titles.test.ts walks every
 * operation x documented status.
 */

/** Request fields a service error may name, in the builder's words (values shown come from the request; card data never). */
const FIELD_LABELS: Record<string, string> = {
	businessId: 'Business',
	merchantId: 'Merchant',
	reference: 'Reference',
	merchantReference: 'Reference',
	cardTokenId: 'Stored card',
	walletId: 'Wallet',
	beneficiaryAccountNumber: 'Beneficiary account',
	beneficiaryAccountName: 'Beneficiary name',
	beneficiaryBankCode: 'Bank code',
	institutionCode: 'Bank code',
	accountNumber: 'Account number',
	currency: 'Currency',
	amount: 'Amount',
	onusReference: 'PayOnUs reference',
	momoNetwork: 'Mobile money network',
	eftBank: 'EFT bank',
	bank: 'Bank',
	countryCode: 'Country',
	transferType: 'Transfer type',
	narration: 'Narration',
	expiryMinutes: 'Expiry minutes',
	initiatingCode: 'Initiating code',
	'customer.phone': 'Customer phone',
	'customer.email': 'Customer email',
	'customer.name': 'Customer name',
	id: 'ID',
};

/** Words of the service that name a field without its key (checked in this order). */
const FIELD_WORDS: Array<[RegExp, string]> = [
	[/\bcard token\b|\bstored card\b/i, 'cardTokenId'],
	[/\bwallet\b/i, 'currency'],
	[/\bbusiness\b/i, 'businessId'],
	[/\bmerchant\b/i, 'merchantId'],
	[/\bbeneficiary\b/i, 'beneficiaryAccountNumber'],
	[/\breference\b/i, 'reference'],
	[/\bcurrency\b/i, 'currency'],
	[/\bamount\b/i, 'amount'],
];

/** A field an error names, with its label and the value the request sent (when it sent one). */
export interface NamedField {
	field: string;
	label: string;
	value?: string;
}

function valueAt(params: IDataObject | undefined, field: string): string | undefined {
	let v: unknown = params;
	for (const key of field.split('.')) v = v && typeof v === 'object' ? (v as IDataObject)[key] : undefined;
	if (typeof v === 'number' && Number.isFinite(v)) return String(v);
	if (typeof v !== 'string' || v.trim() === '') return undefined;
	const t = v.trim();
	return t.length > 40 ? `${t.slice(0, 37)}...` : t;
}

/**
 * A field with its label and the value the request sent under `sentAs`
 * (the first that holds one). `said`: the service's words, for a currency
 * the request does not carry (a mobile money payin): the code they name.
 */
function fieldOf(field: string, params: IDataObject | undefined, said?: string, sentAs: string[] = [field]): NamedField {
	let value: string | undefined;
	for (const key of sentAs) value ??= valueAt(params, key);
	if (field === 'currency' && said !== undefined) value ??= /\b(?!API\b)([A-Z]{3})\b/.exec(said)?.[1];
	return { field, label: FIELD_LABELS[field], value };
}

/** The field the service's words name (`errors` entries `field: ...` first, then the words), with the request's value. */
export function namedField(said: string | undefined, params?: IDataObject): NamedField | undefined {
	if (!said) return undefined;
	const pick = (field: string): NamedField => fieldOf(field, params, said);
	const keys = Object.keys(FIELD_LABELS);
	for (const part of said.split('; ')) {
		const m = /^([A-Za-z][\w.]*)\s*:/.exec(part);
		if (m && keys.includes(m[1])) return pick(m[1]);
	}
	for (const key of keys) if (key.length > 2 && new RegExp(`\\b${key.replace('.', '\\.')}\\b`).test(said)) return pick(key);
	for (const [words, key] of FIELD_WORDS) if (words.test(said)) return pick(key);
	return undefined;
}

/** The thing in a title: `Business "BUS-9999"` (in a hint: `Business ("BUS-9999")`), or the label alone. */
function thing(named: NamedField, valueInParentheses = false): string {
	if (named.value === undefined) return named.label;
	return valueInParentheses ? `${named.label} ("${named.value}")` : `${named.label} "${named.value}"`;
}

/** What to do next: one line, for every status (and for an error stated without one: `undefined` status). */
export function statusHint(status: number | undefined, moneyMoving: boolean, named?: NamedField): string {
	const field = named ? thing(named, true) : 'the field PayOnUs names below';
	if (status === undefined) return named ? `Correct ${field} as PayOnUs says below, then run the item again.` : 'Check the item against what PayOnUs says below, then run it again.';
	switch (status) {
		case 400:
			return `Correct ${field}, then run the item again.`;
		case 401:
			return 'Check the Client ID, Client Secret and Environment of the PayOnUs API credential.';
		case 403:
			return moneyMoving
				? "Check that the API client may do this and that this n8n server's outbound IP address is whitelisted on the PayOnUs dashboard for this environment."
				: 'Check that the API client may do this for this merchant and business.';
		case 404:
			return named?.field === 'currency'
				? 'Enable that currency\'s wallet for the business on the PayOnUs dashboard, or pay in a currency it has.'
				: named
					? `Check ${named.label}: it must exist in this environment (sandbox or production) and belong to this merchant.`
					: 'Check the reference or ID, and that it belongs to this business and to this environment (sandbox or production).';
		case 409:
			return moneyMoving
				? 'Nothing was sent again. Check the transaction that holds this reference (Get Transfer, Get Payment or the PayOnUs dashboard) before doing anything else.'
				: 'A reference can be used only once per business: give this one its own reference.';
		case 410:
			return 'Store the card again through a card tokenization link.';
		case 422:
			return 'Store the card again if its token expired, or ask PayOnUs to enable card payments for the business.';
		case 429:
			return 'Wait a minute before trying again.';
		default:
			if (status >= 500) return 'Try again later; check the transaction status before resending a payment.';
			if (status >= 300 && status < 400) return 'Set the Base URL of the credential to the final https address.';
			return 'Check the item against what PayOnUs says below, then run it again.';
	}
}


/** The text with its first letter upper-cased. */
export function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The title of a service error: what happened in a builder's words, at most
 * 12 words, naming the thing (and the field, when the service names one),
 * no service path. `status` undefined: an error the service stated without
 * a status (transport/envelope.ts).
 */
export function statusTitle(status: number | undefined, subject: string, method = 'GET', named?: NamedField): string {
	if (status === undefined) return named ? `PayOnUs refused the ${subject}: ${thing(named)}` : `PayOnUs refused the ${subject}`;
	switch (status) {
		case 400:
			return named ? `PayOnUs refused the ${subject}: ${thing(named)} is invalid` : `PayOnUs refused the ${subject}: a field is missing or invalid`;
		case 401:
			return "PayOnUs did not accept the credential's access token";
		case 403:
			return named ? `No permission for ${thing(named)} on this ${subject}` : `PayOnUs refused permission for this ${subject}`;
		case 404:
			// A currency not found is its wallet (the spec's wallet-not-found error).
			if (named?.field === 'currency') return named.value ? `${named.value} wallet not found for this business` : 'Wallet not found for this currency';
			if (named) return `${thing(named)} not found`;
			// A read: the thing itself is missing; a write: something it refers to (a wallet, a business...).
			return method === 'GET' ? `${capitalized(subject)} not found in PayOnUs` : `Something the ${subject} refers to was not found`;
		case 409:
			return named?.field === 'reference' && named.value !== undefined ? `${thing(named)} already used for this business` : 'Reference already used for this business';
		case 410:
			return named?.field === 'cardTokenId' && named.value !== undefined ? `${thing(named)} was deleted` : `The stored card of this ${subject} was deleted`;
		case 422:
			return named?.field === 'cardTokenId' && named.value !== undefined
				? `${thing(named)} expired, or cards are not enabled`
				: 'The card token expired, or the business cannot take card payments';
		case 429:
			return `Too many ${subject} requests to PayOnUs: wait a minute`;
		default:
			if (status >= 500) return `PayOnUs failed to process the ${subject} (server error ${status})`;
			if (status >= 300 && status < 400) return 'PayOnUs answered with a redirect, which is not followed';
			return `PayOnUs refused the ${subject} (HTTP ${status})`;
	}
}

export interface ServiceErrorSummary {
	status?: number;
	message: string;
	description?: string;
	/** The service's own words (redacted), when it said something. */
	said?: string;
	/** Cleaned body, safe to show. */
	body?: unknown;
}

/**
 * Builds the title and description for an error of the service: the title
 * names the thing (no path), the description says what to do in one line,
 * then the service's words. `status` undefined: an error the service
 * stated in a 2xx answer without a status.
 */
export function summarizeHttpError(
	status: number | undefined,
	body: unknown,
	context: { method: string; path: string; moneyMoving?: boolean; secrets?: Array<string | undefined>; params?: IDataObject },
): ServiceErrorSummary {
	const secrets = context.secrets ?? [];
	const said = serviceMessage(body);
	// 409: the reference of the request is the thing, whatever the words name; 410 and 422: the stored card sent, if one was.
	const card = fieldOf('cardTokenId', context.params);
	const named =
		status === 409
			? fieldOf('reference', context.params, undefined, ['reference', 'merchantReference'])
			: (status === 410 || status === 422) && card.value !== undefined
				? card
				: status === 401 || status === 429 || (status !== undefined && status >= 500)
					? undefined
					: namedField(said, context.params);
	// Issue 38: the state of an account (a balance too low, a wallet or business switched off, a limit reached...)
	// is the cause, and the title, before any field the words touch (accountState.ts).
	const subject = subjectOfPath(context.path);
	const stateful = status === undefined || (status >= 400 && status < 500 && status !== 401 && status !== 429);
	const state = stateful ? accountState(said, { subject, params: context.params }) : undefined;
	const message = state?.title ?? statusTitle(status, subject, context.method, named);
	const descriptionParts: string[] = [state?.todo ?? statusHint(status, context.moneyMoving === true, named)];
	// The service's words say what is wrong (a field, a missing wallet...); a 409's own description says it instead.
	if (said && (status !== 409 || state)) descriptionParts.push(`PayOnUs said: ${redactText(said, secrets).replace(/\.$/, '')}.`);
	return {
		status,
		message: redactText(message, secrets),
		description: redactText(descriptionParts.join(' '), secrets),
		said: said ? redactText(said, secrets) : undefined,
		body: sanitizeBody(body, secrets),
	};
}
