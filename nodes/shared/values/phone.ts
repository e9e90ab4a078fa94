/**
 * Phone numbers read one way (rule 7, docs/reliability.md; the spec's
 * Formats: "international format with leading plus").
 *
 * Accepted: E.164, a `+`, the country code and the number, 7 to 15 digits
 * in all; spaces and hyphens between the digits are dropped (`+254 700-000000`
 * is +254700000000: one reading).
 *
 * Refused, naming E.164:
 * - a local number (`0803 123 4567`): which country it belongs to is not
 *   written (the page reads local numbers because its currency names the
 *   country, ../../PayOnUsPaymentPage/checkout/phone.ts);
 * - `00` or digits without `+`, unless `country` is given and the digits
 *   start with its calling code (a mobile money transfer to KE:
 *   254700000000 can only be +254700000000): elsewhere `234...` may be an
 *   international number or a local one;
 * - `(0)` after the country code (`+44 (0)20...`), brackets and dots: the
 *   trunk 0 is either dropped or not;
 * - a number (not text): see ./text.ts.
 */

import { notTextMessage } from './text';

/** Calling codes of the countries PayOnUs and its mobile money networks serve (alpha-2 -> code). */
export const CALLING_CODES: Record<string, string> = {
	NG: '234',
	GH: '233',
	KE: '254',
	ZA: '27',
	UG: '256',
	TZ: '255',
	RW: '250',
	ZM: '260',
	MW: '265',
	MZ: '258',
	ZW: '263',
	CI: '225',
	SN: '221',
	CM: '237',
	BJ: '229',
	ET: '251',
	EG: '20',
};

const E164 = /^\+[1-9]\d{6,14}$/;

export type PhoneRead = { ok: true; value: string } | { ok: false; message: string };

export interface PhoneOptions {
	/** Alpha-2 country the number belongs to, when the request names it (a mobile money transfer's Country Code). */
	country?: string;
	/** How the message starts after the field name (default "must be in international format"). */
	lead?: string;
}

/** The message naming E.164, with the number to write when it can be told. */
function e164Message(lead: string, write?: string): string {
	return `${lead}: + followed by 7 to 15 digits, e.g. +2348012345678${write ? ` (write ${write})` : ''}`;
}

/** Reads a phone number; `value` is text (trimmed, not empty) or a value that is not text. */
export function readPhone(value: unknown, options: PhoneOptions = {}): PhoneRead {
	const lead = options.lead ?? 'must be in international format';
	if (typeof value !== 'string') return { ok: false, message: notTextMessage(value) };
	const compact = value.trim().replace(/(?<=\d|^\+)[\s-]+(?=\d)/g, '');
	if (E164.test(compact)) return { ok: true, value: compact };
	const code = options.country ? CALLING_CODES[options.country.toUpperCase()] : undefined;
	if (code && /^\d+$/.test(compact)) {
		// The country's code and the number without its +: one reading in this country.
		if (compact.startsWith(code) && E164.test(`+${compact}`)) return { ok: true, value: compact };
		// A local number with its trunk 0: the country is named, so what to write can be said.
		if (/^0\d{6,13}$/.test(compact)) return { ok: false, message: e164Message(lead, `+${code}${compact.slice(1)}`) };
	}
	if (/^00[1-9]\d{6,14}$/.test(compact)) return { ok: false, message: e164Message(lead, `+${compact.slice(2)}`) };
	return { ok: false, message: e164Message(lead) };
}
