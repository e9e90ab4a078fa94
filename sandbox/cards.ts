/**
 * Card data in the sandbox. `cardData` is Base64 of either
 *  - the plaintext layout `PAN|MM|YY|CVV` (YY may be YYYY), or
 *  - that plaintext RSA-OAEP encrypted (SHA-256, or SHA-1) with the sandbox
 *    public key served at GET /_sandbox/public-key (a fresh 2048-bit pair per process).
 * Test card numbers pick the path (see sandbox/README.md, "test cards").
 */
import { constants, generateKeyPairSync, privateDecrypt, type KeyObject } from 'node:crypto';
import { ApiError } from './errors';

export interface Card {
	pan: string;
	month: number;
	year: number;
	cvv: string;
}

export type CardBehaviour = 'SUCCESS' | 'PIN' | 'OTP' | 'THREE_DS' | 'DECLINE' | 'GATEWAY_ERROR' | 'CHARGE_DECLINE';

export const TEST_CARDS: Record<string, CardBehaviour> = {
	'4111111111111111': 'SUCCESS',
	'5399000000000008': 'PIN',
	'5399000000000016': 'OTP',
	'4000000000003220': 'THREE_DS',
	'4000000000000002': 'DECLINE',
	'4000000000000119': 'GATEWAY_ERROR',
	'4000000000000341': 'CHARGE_DECLINE',
};

export const TEST_PIN = '1234';
export const TEST_OTP = '123456';

let keys: { publicPem: string; privateKey: KeyObject } | undefined;

export function sandboxKeys(): { publicPem: string; privateKey: KeyObject } {
	if (!keys) {
		const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
		keys = { publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey: pair.privateKey };
	}
	return keys;
}

export function luhn(pan: string): boolean {
	let sum = 0;
	for (let i = 0; i < pan.length; i++) {
		let d = pan.charCodeAt(pan.length - 1 - i) - 48;
		if (i % 2 === 1) {
			d *= 2;
			if (d > 9) d -= 9;
		}
		sum += d;
	}
	return sum % 10 === 0;
}

const bad = (reason: string): never => {
	throw new ApiError(400, `cardData ${reason}`, [`cardData: ${reason}`]);
};

export function parsePlain(text: string, field = 'cardData'): Card {
	const parts = text.trim().split('|');
	if (parts.length !== 4) bad('must decode to PAN|MM|YY|CVV');
	const [pan, mm, yy, cvv] = parts.map((p) => p.trim());
	return checkCard(pan, mm, yy, cvv, field);
}

export function checkCard(pan: string, mm: string, yy: string, cvv: string, field = 'cardData'): Card {
	const fail = (reason: string): never => {
		throw new ApiError(400, `${field} ${reason}`, [`${field}: ${reason}`]);
	};
	const digits = pan.replace(/[\s-]/g, '');
	if (!/^\d{12,19}$/.test(digits)) fail('card number must have 12 to 19 digits');
	if (!luhn(digits)) fail('card number fails the Luhn check');
	if (!/^\d{1,2}$/.test(mm) || Number(mm) < 1 || Number(mm) > 12) fail('expiry month must be 01-12');
	if (!/^(\d{2}|\d{4})$/.test(yy)) fail('expiry year must be YY or YYYY');
	if (!/^\d{3,4}$/.test(cvv)) fail('cvv must have 3 or 4 digits');
	const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
	return { pan: digits, month: Number(mm), year, cvv };
}

export function decodeCardData(cardData: string): Card {
	if (!/^[A-Za-z0-9+/=_-]+$/.test(cardData)) bad('must be Base64');
	const buf = Buffer.from(cardData, 'base64');
	const text = buf.toString('utf8');
	if (/^[\d\s-]{12,23}\|/.test(text)) return parsePlain(text);
	const { privateKey } = sandboxKeys();
	for (const oaepHash of ['sha256', 'sha1']) {
		try {
			const plain = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, buf);
			return parsePlain(plain.toString('utf8'));
		} catch (error) {
			if (error instanceof ApiError) throw error;
		}
	}
	return bad('is neither Base64 of PAN|MM|YY|CVV nor RSA-OAEP encrypted with the sandbox public key');
}

export function maskPan(pan: string): string {
	return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}

/** Last day of the card's expiry month, `YYYY-MM-DD`. */
export function expiryDate(card: Card): string {
	const last = new Date(Date.UTC(card.year, card.month, 0));
	return last.toISOString().slice(0, 10);
}

export function isExpired(card: Card, nowMs: number): boolean {
	return Date.UTC(card.year, card.month, 1) <= nowMs;
}

export function behaviour(pan: string): CardBehaviour {
	return TEST_CARDS[pan] ?? 'SUCCESS';
}
