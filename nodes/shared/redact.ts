import type { IDataObject } from 'n8n-workflow';

/**
 * Redaction of everything that leaves this package in an error, a message or
 * a node output: sensitive keys dropped, card-like numbers masked, bearer
 * values masked, and the credential's secrets replaced by ***.
 */

const SENSITIVE_KEY = /authori[sz]ation|token|secret|password|passwd|verification.?key|apikey|api_key|carddata|cardnumber|^pan$|cvv|cvc|^pin$|^otp$/i;
/** 13 to 19 digits, possibly split by spaces or dashes: what a card number looks like. */
const CARD_LIKE = /\b(?:\d[ -]?){12,18}\d\b/g;
const BEARER = /bearer\s+[A-Za-z0-9._~+/=-]+/gi;

/** The service's own references: ONUS-<kind>-<13 digits>-<DDMMYYYY>-<HHMMSS>. */
const ONUS_REFERENCE = /\bONUS-[A-Z]{2,8}-\d{13}-\d{8}-\d{6}\b/g;

/** Masks bearer values, card-like numbers and any of the given secret strings. */
export function redactText(text: string, secrets: Array<string | undefined> = []): string {
	// A PayOnUs reference (ONUS-TRNF-1234567890123-23112026-120000: an id, a
	// date and a time) is not a card number: kept whole, so the user can find it.
	const kept: string[] = [];
	let out = text.replace(ONUS_REFERENCE, (m) => `\uE000${kept.push(m) - 1}\uE000`);
	out = out.replace(BEARER, 'Bearer ***').replace(CARD_LIKE, (m) => {
		const digits = m.replace(/\D/g, '');
		return digits.length >= 13 ? `****${digits.slice(-4)}` : m;
	});
	out = out.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => kept[Number(i)] ?? '');
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
