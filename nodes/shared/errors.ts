import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { subjectOfPath } from './format';
import type { MoneyOutcome } from './moneyMoving/options';
import { redactText, sanitizeBody } from './redact';

/**
 * The one error class. Every failure of a call to PayOnUs reaches the
 * operations, the triggers and n8n as a PayOnUsApiError: an n8n
 * NodeApiError (so n8n shows it as usual: message, description, httpCode,
 * context.itemIndex) that also carries, typed, what the code acts on: the
 * HTTP `status`, the service's own words, the `reference` of a money-moving
 * call and the outcome fields of its recovery (`outcome`, `existingRecord`).
 * The words of the money-moving outcomes (outcome unknown, different owner,
 * duplicate reference) are the contract's own: moneyMoving/errors.ts.
 *
 * Messages are plain sentences for workflow builders. Nothing here ever
 * returns the token, the client secret, the verification key or card data:
 * bodies and texts are cleaned (redact.ts) before they are put into an error.
 */

// ---------------------------------------------------------------- wording

/** What each status means, per the Errors table of the service specification. */
export const STATUS_MEANINGS: Record<number, string> = {
	400: 'a parameter is missing or invalid',
	401: 'the access token is missing, invalid or expired',
	403: 'permission refused (the API client lacks the authority, card tokenization is not enabled for the business, the card token belongs to another business, or this server\'s IP address is not whitelisted for payouts)',
	404: 'not found',
	409: 'conflict: the reference is already used for this business',
	410: 'the card token was deleted',
	422: 'the card token expired, or the business is not profiled on the card gateway',
	429: 'too many requests (the access token call allows 3 a minute)',
};

export function statusMeaning(status: number): string {
	if (STATUS_MEANINGS[status]) return STATUS_MEANINGS[status];
	if (status >= 500) return 'the service failed to process the request';
	if (status >= 400) return 'the request was refused';
	if (status >= 300) return 'the service answered with a redirect, which is not followed (set the Base URL to the final https address)';
	return 'unexpected status';
}

function errorEntryText(entry: unknown): string | undefined {
	if (typeof entry === 'string') return entry;
	if (entry && typeof entry === 'object') {
		const e = entry as IDataObject;
		const msg = e.message ?? e.defaultMessage ?? e.error ?? e.reason ?? e.description;
		const field = e.field ?? e.fieldName ?? e.property ?? e.path;
		if (typeof msg === 'string') return typeof field === 'string' ? `${field}: ${msg}` : msg;
		if (typeof field === 'string') return field;
	}
	return undefined;
}

/**
 * The service's own words from an error body: the envelope's `message` plus
 * the `errors` list (at the top or inside `data`, per public-facts.md), and
 * the other shapes an error body may take where the spec shows none
 * (transport/envelope.ts, statedError): `error` as text or object,
 * `errors` as an object of field -> words, `responseMessage`,
 * `errorMessage`, `error_description`, `detail`, and the stated code.
 */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const t = body.trim();
		if (t === '') return undefined;
		try {
			return serviceMessage(JSON.parse(t));
		} catch {
			return t.length > 300 ? `${t.slice(0, 300)}...` : t;
		}
	}
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const b = body as IDataObject;
	const parts: string[] = [];
	const add = (t: string | undefined) => {
		if (t !== undefined && t.trim() !== '' && !parts.includes(t.trim())) parts.push(t.trim());
	};
	const data = b.data && typeof b.data === 'object' && !Array.isArray(b.data) ? (b.data as IDataObject) : undefined;
	for (const m of [b.message, data?.message, b.error, data?.error, b.responseMessage, b.errorMessage, b.error_description, b.detail]) {
		if (typeof m === 'string') add(m);
		else if (m && typeof m === 'object' && !Array.isArray(m)) add(errorEntryText(m));
	}
	for (const list of [b.errors, data?.errors]) {
		if (Array.isArray(list)) for (const entry of list) add(errorEntryText(entry));
		else if (list && typeof list === 'object') {
			for (const [field, words] of Object.entries(list as IDataObject)) {
				const w = Array.isArray(words) ? words.filter((x) => typeof x === 'string').join(', ') : typeof words === 'string' ? words : undefined;
				if (w) add(`${field}: ${w}`);
			}
		}
	}
	const code = [b.responseCode, b.code, (b.error as IDataObject | undefined)?.code].find((c) => typeof c === 'string' || typeof c === 'number');
	const said = parts.join('; ');
	if (code !== undefined && !said.includes(String(code))) return said ? `${said} (code ${String(code)})` : `code ${String(code)}`;
	return said !== '' ? said : undefined;
}

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

function capitalized(text: string): string {
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
	const message = statusTitle(status, subjectOfPath(context.path), context.method, named);
	const descriptionParts: string[] = [statusHint(status, context.moneyMoving === true, named)];
	// The service's words say what is wrong (a field, a missing wallet...); a 409's own description says it instead.
	if (said && status !== 409) descriptionParts.push(`PayOnUs said: ${redactText(said, secrets).replace(/\.$/, '')}.`);
	return {
		status,
		message: redactText(message, secrets),
		description: redactText(descriptionParts.join(' '), secrets),
		said: said ? redactText(said, secrets) : undefined,
		body: sanitizeBody(body, secrets),
	};
}

const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ECONNABORTED: 'connection aborted',
	ENOTFOUND: 'host name not found',
	EAI_AGAIN: 'name lookup failed',
	ETIMEDOUT: 'timed out',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	EPIPE: 'connection closed while sending',
	EADDRNOTAVAIL: 'address not available',
};

/**
 * A network error code in words. (n8n replaces a whole error message that
 * merely contains a code such as ECONNREFUSED by a generic sentence, which
 * would hide our explanation: so messages never carry the raw code.)
 */
export function networkReason(code: string | undefined): string {
	if (!code) return 'network error';
	return NETWORK_WORDS[code.toUpperCase()] ?? code.toLowerCase().replace(/^e/, '').replace(/_/g, ' ');
}

// ------------------------------------------------------ the typed error

/** What went wrong with one HTTP attempt (transport/failure.ts reads it from what n8n threw). */
export type FailureKind = 'http' | 'timeout' | 'dropped' | 'unreachable' | 'auth' | 'token' | 'other';

export interface Failure {
	kind: FailureKind;
	status?: number;
	body?: unknown;
	code?: string;
	message?: string;
	/** The error was stated in the body of a 2xx answer (transport/envelope.ts); `status` is the stated one, if any. */
	stated?: boolean;
}


export interface PayOnUsApiErrorInit {
	message: string;
	description?: string;
	/** HTTP status of the answer (also an error status inside a 200 envelope). */
	status?: number;
	/** n8n's httpCode; defaults to the status. */
	httpCode?: string;
	kind?: FailureKind;
	/** The service's own words (already redacted). */
	serviceMessage?: string;
	/** The service's answer (already cleaned). */
	serviceResponse?: unknown;
	/** The merchant reference of a money-moving call. */
	reference?: string;
	outcome?: MoneyOutcome;
	/** The record holding the reference (already cleaned). */
	existingRecord?: IDataObject;
	/** "POST /api/v1/..." (for support; kept under details, never in the title). */
	request?: string;
}

/**
 * A failed call to PayOnUs. Named 'NodeApiError' like its parent: n8n tests
 * `error.name === 'NodeApiError'` (workflow-execute rethrow, redaction), so
 * it must look exactly like one. `context.serviceResponse`,
 * `context.existingRecord` and `context.outcome` are what n8n shows and what
 * the node copies into continueOnFail error items.
 */
export class PayOnUsApiError extends NodeApiError {
	readonly status?: number;
	readonly kind: FailureKind;
	readonly serviceMessage?: string;
	readonly reference?: string;
	readonly outcome?: MoneyOutcome;
	readonly existingRecord?: IDataObject;

	constructor(node: INode, init: PayOnUsApiErrorInit) {
		const httpCode = init.httpCode ?? (init.status !== undefined ? String(init.status) : undefined);
		const details: IDataObject = { message: init.message, httpCode: httpCode ?? null };
		if (init.serviceResponse !== undefined) details.serviceResponse = init.serviceResponse as IDataObject;
		if (init.existingRecord) details.existingRecord = init.existingRecord;
		if (init.outcome) details.outcome = init.outcome;
		if (init.serviceMessage) details.serviceMessage = init.serviceMessage;
		if (init.request) details.request = init.request;
		super(node, details as JsonObject, { message: init.message, description: init.description, httpCode });
		this.name = 'NodeApiError';
		const numeric = httpCode !== undefined && /^\d{3}$/.test(httpCode) ? Number(httpCode) : undefined;
		this.status = init.status ?? numeric;
		this.kind = init.kind ?? (this.status !== undefined ? 'http' : 'other');
		this.serviceMessage = init.serviceMessage;
		this.reference = init.reference;
		this.outcome = init.outcome;
		this.existingRecord = init.existingRecord;
		if (init.serviceResponse !== undefined) this.context.serviceResponse = init.serviceResponse as IDataObject;
		if (init.existingRecord) this.context.existingRecord = init.existingRecord;
		if (init.outcome) this.context.outcome = init.outcome;
		if (init.serviceMessage) this.context.serviceMessage = init.serviceMessage;
		if (init.request) this.context.request = init.request;
	}
}

/** What the transport knows of the call that failed, for the message. */
export interface FailedCall {
	method: string;
	path: string;
	baseUrl: string;
	timeoutMs: number;
	/** The merchant reference when the call moves money. */
	reference?: string;
	/** Strings never to show (client secret, verification key, token). */
	secrets: string[];
	/** The request's fields (body, query or form fields), for naming the field an error is about. */
	params?: IDataObject;
}

/**
 * The error for a failed attempt: a plain message (method, path, what the
 * status means) and the service's own words, never a secret.
 */
export function requestError(
	node: INode,
	f: Failure,
	call: FailedCall,
	extra?: { message?: string; description?: string; record?: IDataObject; outcome?: MoneyOutcome },
): PayOnUsApiError {
	const { secrets } = call;
	const where = `${call.method} ${call.path}`;
	let message: string;
	let description: string | undefined;
	let status: number | undefined;
	let said: string | undefined;
	let body: unknown;
	if ((f.kind === 'http' || f.kind === 'auth') && (f.status !== undefined || f.stated)) {
		const s = summarizeHttpError(f.status, f.body, {
			method: call.method,
			path: call.path,
			moneyMoving: call.reference !== undefined,
			secrets,
			params: call.params,
		});
		message = s.message;
		description = s.description;
		status = f.status;
		said = s.said;
		body = s.body;
	} else if (f.kind === 'token') {
		message = redactText(f.message ?? 'Could not get a PayOnUs access token', secrets);
		status = f.status;
	} else if (f.kind === 'timeout') {
		message = `PayOnUs did not answer within ${Math.round(call.timeoutMs / 1000)} s`;
		description = 'The service may be slow or unreachable. Try again later.';
	} else if (f.kind === 'dropped') {
		message = `The connection to PayOnUs dropped (${networkReason(f.code)})`;
		description = 'Try again later.';
	} else if (f.kind === 'unreachable') {
		message = `Could not reach PayOnUs at ${call.baseUrl} (${networkReason(f.code)})`;
		description = "Check the credential's Environment / Base URL and this server's network access.";
	} else {
		message = `The call to PayOnUs failed: ${redactText(f.message ?? 'unknown error', secrets)}`;
	}
	// A caller's own description is specific; on a 409 it says everything the generic
	// hint would (said twice, "nothing was sent again" read as a contradiction).
	if (extra?.description) description = description && status !== 409 ? `${extra.description} ${description}` : extra.description;
	if (extra?.message) message = redactText(extra.message, secrets);
	return new PayOnUsApiError(node, {
		message,
		description,
		status,
		kind: f.kind,
		serviceMessage: said,
		serviceResponse: body,
		reference: call.reference,
		existingRecord: extra?.record ? (sanitizeBody(extra.record, secrets) as IDataObject) : undefined,
		outcome: extra?.outcome,
		request: where,
	});
}

/** An error before any call (e.g. a credential setting that cannot work). */
export function setupError(node: INode, message: string): PayOnUsApiError {
	return new PayOnUsApiError(node, { message });
}

// ------------------------------------------------------- token call errors

/** `httpCode` of our token errors: n8n's NodeApiError keeps it (and drops `cause`). */
export const TOKEN_REJECTED_CODE = 'PAYONUS_TOKEN_REJECTED';
export const TOKEN_CALL_CODE = 'PAYONUS_TOKEN_CALL';
const REJECTED_SIGNAL = Symbol.for('n8n-nodes-payonus.tokenRejected');

/**
 * Thrown by preAuthentication for a transport call whose token was refused
 * and for which this process knows nothing newer: the transport then re-reads
 * the stored credential (another process may have stored a newer token) and
 * only then asks for a mint. Saves n8n's blind resend with the same token.
 */
export class TokenRejectedSignal extends Error {
	readonly httpCode = TOKEN_REJECTED_CODE;
	constructor() {
		super('PayOnUs refused the access token; the stored credential is checked for a newer one');
		this.name = 'TokenRejectedSignal';
		Object.defineProperty(this, REJECTED_SIGNAL, { value: true, enumerable: false });
	}
}

export function isTokenRejectedSignal(error: unknown): boolean {
	return !!error && typeof error === 'object' && (error as Record<symbol, unknown>)[REJECTED_SIGNAL] === true;
}

/** A token call that failed; the message is safe to show (no secret, no token). */
export class TokenCallError extends Error {
	readonly httpCode = TOKEN_CALL_CODE;
	constructor(
		message: string,
		readonly kind: 'rejected' | 'rateLimited' | 'unreachable' | 'unexpected',
		readonly httpStatus?: number,
		readonly retryAfterMs?: number,
	) {
		super(message);
		this.name = 'TokenCallError';
	}
}

// ------------------------------------------------ reading errors in operations

/** HTTP status of an error of the transport (undefined for any other error). */
export function statusOf(error: unknown): number | undefined {
	return error instanceof PayOnUsApiError ? error.status : undefined;
}

/**
 * Gives a service error of one status a title of the operation's own
 * (e.g. a 404 of Get Payment: which payment was not found); the error keeps
 * its status, description and details. Other errors pass unchanged.
 */
export function retitle(error: unknown, status: number, title: string, description?: string): unknown {
	if (statusOf(error) === status && error instanceof PayOnUsApiError) {
		error.message = title;
		if (description) error.description = description;
	}
	return error;
}

/** The most words an error title has (issue 31): longer explanations go to the description. */
export const MAX_TITLE_WORDS = 12;

export function wordCount(text: string): number {
	return text.split(/\s+/).filter((w) => w !== '').length;
}

/**
 * What a service error means for one call: a short title (at most
 * MAX_TITLE_WORDS words, naming the thing and the field) and one line on
 * what to do, which goes first in the description, before the details.
 */
export interface Meaning {
	title: string;
	todo: string;
}

/**
 * Gives a service error what it means for this call (the error keeps its
 * type, status and details, so n8n still shows the service's own words):
 * a Meaning sets the title and puts its what-to-do line first in the
 * description; a plain text of at most MAX_TITLE_WORDS words becomes the
 * title; a longer one is added to the description, after the line on what
 * to do, and the title stays the transport's (naming the thing and the
 * field). Errors of other statuses pass unchanged.
 */
export function explain(error: unknown, meanings: Partial<Record<number, string | Meaning>>): unknown {
	const status = statusOf(error);
	const meaning = status === undefined ? undefined : meanings[status];
	if (meaning && error instanceof PayOnUsApiError) {
		if (typeof meaning === 'object') {
			error.message = meaning.title;
			error.description = error.description ? `${meaning.todo} ${error.description}` : meaning.todo;
		} else if (wordCount(meaning) <= MAX_TITLE_WORDS) error.message = meaning;
		else {
			const sentence = `${capitalized(meaning.trim()).replace(/\.$/, '')}.`;
			error.description = error.description ? `${error.description} ${sentence}` : sentence;
		}
	}
	return error;
}
