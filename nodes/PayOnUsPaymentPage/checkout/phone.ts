/**
 * Phone numbers as buyers type them: the local format of the page's country
 * (0722 123 456 on a KES page) or international (+254 722 123 456, 00254...,
 * 254722...). The page's currency names its country; a number is sent to
 * PayOnUs in international format (+ and digits). USD has no country: there
 * only international numbers are taken.
 */

interface Country {
	/** Country calling code. */
	code: string;
	/** Digits after the trunk 0 (local) or the calling code (international). */
	digits: number;
	/** Shown under the field: local first, then international. */
	example: [string, string];
	name: string;
}

const COUNTRIES: Record<string, Country> = {
	KES: { code: '254', digits: 9, example: ['0712 345 678', '+254 712 345 678'], name: 'Kenyan' },
	GHS: { code: '233', digits: 9, example: ['024 123 4567', '+233 24 123 4567'], name: 'Ghanaian' },
	NGN: { code: '234', digits: 10, example: ['0803 123 4567', '+234 803 123 4567'], name: 'Nigerian' },
	ZAR: { code: '27', digits: 9, example: ['082 123 4567', '+27 82 123 4567'], name: 'South African' },
};

/** The hint under a phone field of a page in `currency` (one place says it: the field's hint). */
export function phoneHint(currency: string | undefined): string {
	const c = COUNTRIES[currency ?? ''];
	if (!c) return 'With your country code, e.g. +1 202 555 0123';
	return `e.g. ${c.example[0]} or ${c.example[1]}`;
}

/**
 * The number in international format (+ and digits), or undefined when it is
 * not one the page can use (then the field's error refers to its hint).
 */
export function internationalPhone(raw: string | undefined, currency: string | undefined): string | undefined {
	let t = String(raw ?? '').replace(/[\s().-]/g, '');
	if (t.startsWith('00')) t = `+${t.slice(2)}`;
	const c = COUNTRIES[currency ?? ''];
	if (c) {
		if (/^0\d+$/.test(t) && t.length === c.digits + 1) t = `+${c.code}${t.slice(1)}`;
		else if (/^\d+$/.test(t) && t.startsWith(c.code) && t.length === c.code.length + c.digits) t = `+${t}`;
		// +254 0722...: the trunk 0 written after the calling code.
		else if (t.startsWith(`+${c.code}0`) && t.length === c.code.length + c.digits + 2) t = `+${c.code}${t.slice(c.code.length + 2)}`;
		if (t.startsWith(`+${c.code}`) && t.length !== c.code.length + c.digits + 1) return undefined;
	}
	return /^\+[1-9]\d{6,14}$/.test(t) ? t : undefined;
}

/** The field's error when a number cannot be used: what is wrong, pointing at the hint (the example is said once). */
export function phoneError(label: string, currency: string | undefined): string {
	const c = COUNTRIES[currency ?? ''];
	return c
		? `${label}: enter a ${c.name} number as in the example below, or another country's with its + code`
		: `${label}: enter the number with its country code, as in the example below`;
}
