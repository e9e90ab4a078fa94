import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'crypto';

/**
 * The checkout's sealed state: everything about one checkout that cannot be
 * read back from PayOnUs, sealed into the page (URL `?c=` and a hidden form
 * field).
 *
 * Where checkout state lives (see docs/payment-page.md):
 *  - PayOnUs is the source of truth for money: each attempt's payin has the
 *    merchant reference `<checkout reference>-<attempt number>`, so any n8n
 *    process (main or webhook processor in queue mode) can re-read it.
 *  - What PayOnUs cannot tell us (the checkout id, its expiry, the amount the
 *    customer chose, the customer's fields, which attempts were started and
 *    with which method) travels sealed in the page. No process memory, no
 *    database row: a reload, a second tab or another n8n process sees the
 *    same state.
 *
 * Sealed with AES-256-GCM (authenticated encryption: a sealed state that was
 * altered does not open, and the customer's fields are not readable in the URL). The
 * key is derived with HMAC-SHA256 from the credential's client secret and the
 * workflow and node ids, so a sealed state only opens on the node that
 * sealed it.
 * Rotating the client secret invalidates open checkouts (their payins stay
 * readable in PayOnUs).
 */

/** A payment method's id (../methods/index.ts registers them: bank, card, momo, eft): sealed as is, never renamed. */
export type Method = string;

/** One attempt to pay (one payin at PayOnUs, reference `<ref>-<n>`). */
export interface Attempt {
	/** Attempt number, from 1. */
	n: number;
	m: Method;
	/** onusReference once known (else found by merchant reference). */
	r?: string;
	/** Step the customer is on, one of its method's `stepViews` ('pin', 'otp', '3ds', 'momoOtp', 'momoWait', 'eft', 'bank'; 'paid' on the receipt). */
	s?: string;
	/** Bank transfer: account to show (number, bank, name). */
	acct?: { no: string; bank: string; name: string };
	/** 3-D Secure or EFT: the bank page the customer is sent to. */
	u?: string;
	/** Mobile money: the number (international) and the network code prompted. */
	ph?: string;
	net?: string;
	/** The amount and currency its payin was created for (checkout/terms.ts); absent on attempts sealed before 1.x: the checkout's. */
	amt?: number;
	cur?: string;
	/** The business its payin was made in (absent: the page's). */
	b?: string;
	/**
	 * 1: made before the page's price changed (checkout/terms.ts). Still read
	 * on every request, so money paid to it is recognised; never shown or
	 * continued.
	 */
	x?: 1;
}

/**
 * What a refused form or a notice carries from a POST to the GET it is
 * redirected to (post/redirect/get, checkout/flash.ts): shown once on the
 * view of kind `k`, never sent to PayOnUs.
 */
export interface Flash {
	k: string;
	/** Message (an error, or a notice when `n` is 1). */
	m?: string;
	n?: 1;
	/** Errors by field, and the values to show again. */
	e?: Record<string, string>;
	f?: Record<string, string>;
	/** HTTP status of the page (400: the form was refused). */
	s?: number;
}

export interface CheckoutState {
	v: 1;
	/** Checkout id: 32 hex chars bound to the page (./pageBound.ts); 24 random ones before. */
	id: string;
	/** Issued at / expires at (epoch ms). */
	iat: number;
	exp: number;
	/** Set once the customer submitted the first form. */
	amt?: number;
	cur?: string;
	em?: string;
	nm?: string;
	ph?: string;
	/** Method the customer is choosing details for (card form, network, bank). */
	m?: Method;
	/** Attempts, oldest first. */
	a?: Attempt[];
	/**
	 * The page's price terms when this state was sealed (checkout/terms.ts):
	 * a state whose terms are not the page's now starts again.
	 */
	p?: string;
	/** A refused form or a notice, for the GET after a POST (checkout/flash.ts). */
	f?: Flash;
}

/** Most attempts (payins) one checkout may create. */
export const MAX_ATTEMPTS = 5;

export function newCheckoutId(): string {
	return randomBytes(12).toString('hex');
}

/** The checkout's merchantCheckoutReference. */
export function checkoutReference(state: Pick<CheckoutState, 'id'>): string {
	return `PP-${state.id}`;
}

/** Merchant reference of one attempt's payin. */
export function attemptReference(state: Pick<CheckoutState, 'id'>, n: number): string {
	return `${checkoutReference(state)}-${n}`;
}

export function deriveKey(secret: string, scope: string): Buffer {
	return createHmac('sha256', secret).update(`payonus-payment-page/v1|${scope}`).digest();
}

const b64url = (buf: Buffer): string => buf.toString('base64url');

export function seal(state: CheckoutState, key: Buffer): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', key, iv);
	const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
	return `1.${b64url(Buffer.concat([iv, cipher.getAuthTag(), body]))}`;
}

const SEALED_SHAPE = /^1\.[A-Za-z0-9_-]{40,8000}$/;

/** The state sealed in `sealed`, or undefined when it is malformed, altered or from another node. */
export function open(sealed: unknown, key: Buffer): CheckoutState | undefined {
	if (typeof sealed !== 'string' || !SEALED_SHAPE.test(sealed)) return undefined;
	try {
		const raw = Buffer.from(sealed.slice(2), 'base64url');
		if (raw.length < 29) return undefined;
		const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
		decipher.setAuthTag(raw.subarray(12, 28));
		const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString(
			'utf8',
		);
		const state = JSON.parse(text) as CheckoutState;
		if (!state || state.v !== 1 || typeof state.id !== 'string' || !/^[0-9a-f]{24}(?:[0-9a-f]{8})?$/.test(state.id))
			return undefined;
		if (typeof state.iat !== 'number' || typeof state.exp !== 'number') return undefined;
		return state;
	} catch {
		return undefined;
	}
}
