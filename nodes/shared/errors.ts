import type { IDataObject } from 'n8n-workflow';

/**
 * Service errors -> plain messages for workflow builders. Nothing here ever
 * returns the token, the client secret, the verification key or card data:
 * bodies are cleaned (sensitive keys dropped, card-like numbers masked,
 * bearer values masked) before they are put into an error.
 */

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

const SENSITIVE_KEY = /authori[sz]ation|token|secret|password|passwd|verification.?key|apikey|api_key|carddata|cardnumber|^pan$|cvv|cvc|^pin$|^otp$/i;
/** 13 to 19 digits, possibly split by spaces or dashes: what a card number looks like. */
const CARD_LIKE = /\b(?:\d[ -]?){12,18}\d\b/g;
const BEARER = /bearer\s+[A-Za-z0-9._~+/=-]+/gi;

/** Masks bearer values, card-like numbers and any of the given secret strings. */
export function redactText(text: string, secrets: Array<string | undefined> = []): string {
	let out = text.replace(BEARER, 'Bearer ***').replace(CARD_LIKE, (m) => {
		const digits = m.replace(/\D/g, '');
		return digits.length >= 13 ? `****${digits.slice(-4)}` : m;
	});
	for (const s of secrets) {
		if (typeof s === 'string' && s.length >= 4) out = out.split(s).join('***');
	}
	return out;
}

/** Deep copy of a response body without sensitive keys and with strings redacted. */
export function sanitizeBody(value: unknown, secrets: Array<string | undefined> = [], depth = 0): unknown {
	if (depth > 8) return '[truncated]';
	if (typeof value === 'string') return redactText(value, secrets).slice(0, 2000);
	if (Array.isArray(value)) return value.slice(0, 50).map((v) => sanitizeBody(v, secrets, depth + 1));
	if (value && typeof value === 'object') {
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value as IDataObject)) {
			if (SENSITIVE_KEY.test(k)) continue;
			out[k] = sanitizeBody(v, secrets, depth + 1) as IDataObject;
		}
		return out;
	}
	return value;
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
 * the `errors` list (at the top or inside `data`, per public-facts.md).
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
	if (!body || typeof body !== 'object') return undefined;
	const b = body as IDataObject;
	const parts: string[] = [];
	const data = b.data && typeof b.data === 'object' && !Array.isArray(b.data) ? (b.data as IDataObject) : undefined;
	for (const m of [b.message, data?.message, b.error, data?.error]) {
		if (typeof m === 'string' && m.trim() !== '' && !parts.includes(m.trim())) parts.push(m.trim());
	}
	const lists = [b.errors, data?.errors].filter(Array.isArray) as unknown[][];
	for (const list of lists) {
		for (const entry of list) {
			const t = errorEntryText(entry);
			if (t && !parts.includes(t)) parts.push(t);
		}
	}
	return parts.length > 0 ? parts.join('; ') : undefined;
}

/** What to do next, for the statuses where there is a useful hint. */
export function statusHint(status: number, moneyMoving: boolean): string | undefined {
	switch (status) {
		case 400:
			return 'Check the fields named above and the formats in the node description.';
		case 401:
			return 'Check the Client ID, Client Secret and Environment of the PayOnUs API credential.';
		case 403:
			return moneyMoving
				? 'Check that the API client may do this and that this n8n server\'s outbound IP address is whitelisted on the PayOnUs dashboard for this environment.'
				: 'Check that the API client may do this for this merchant and business.';
		case 404:
			return 'Check the identifiers (merchant, business, reference, id) and that they belong to this environment.';
		case 409:
			return moneyMoving
				? 'The reference is already used for this business: check the outcome of the transaction holding it (Get Transfer / List Payments by reference, the wallet ledger, or the PayOnUs dashboard) before doing anything else.'
				: 'A reference can be used only once per business.';
		case 429:
			return 'Wait a minute before trying again.';
		default:
			return status >= 500 ? 'Try again later; check the transaction status before resending a payment.' : undefined;
	}
}

export interface ServiceErrorSummary {
	status?: number;
	message: string;
	description?: string;
	/** Cleaned body, safe to show. */
	body?: unknown;
}

/** Builds the plain message and description for an HTTP error from the service. */
export function summarizeHttpError(
	status: number,
	body: unknown,
	context: { method: string; path: string; moneyMoving?: boolean; secrets?: Array<string | undefined> },
): ServiceErrorSummary {
	const secrets = context.secrets ?? [];
	const said = serviceMessage(body);
	const message = `PayOnUs ${context.method} ${context.path} failed with ${status}: ${statusMeaning(status)}`;
	const descriptionParts: string[] = [];
	if (said) descriptionParts.push(`The service said: ${redactText(said, secrets)}`);
	const hint = statusHint(status, context.moneyMoving === true);
	if (hint) descriptionParts.push(hint);
	return {
		status,
		message: redactText(message, secrets),
		description: descriptionParts.length > 0 ? descriptionParts.join(' ') : undefined,
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
