import type { IDataObject } from 'n8n-workflow';

/**
 * The words of a failure, before any error is built: what each HTTP status
 * means (the spec's Errors table), the service's own words read from an
 * error body in any of its shapes, and a network error code in words.
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
