import { amountHint, parseAmount } from '../../shared/values/amount';
import { formulaProblem } from '../../shared/values/text';
import { internationalPhone, phoneError } from './phone';
import type { AskMode, CheckoutEnv, PageConfig } from './types';
import { MAX_ATTEMPTS, type Attempt, type CheckoutState, type Method } from './sealedState';

/**
 * The checkout's pure rules on what the customer sends and on attempts:
 * form values checked (a CheckoutInputError is shown on the page with a
 * 400), addresses safe to follow. What every method's steps use (../methods/):
 * nothing here names a method.
 */

/** Payin statuses still waiting for the customer or the network. */
export const PENDING = new Set(['PENDING', 'PROCESSING']);

export class CheckoutInputError extends Error {
	/**
	 * Every field found wrong, by form field name (amount, email, name,
	 * phone, method), so the page can show each message at its field.
	 */
	readonly fields?: Record<string, string>;

	constructor(message: string, fields?: Record<string, string>) {
		super(message);
		if (fields && Object.keys(fields).length > 0) this.fields = fields;
	}
}

export function customerName(state: CheckoutState): string {
	if (state.nm) return state.nm;
	return (state.em ?? 'Customer').split('@')[0] || 'Customer';
}

/**
 * The buyer as a payin's `customer`: name, e-mail, and phone when given
 * (the call checks them again before anything is sent).
 */
export function buyer(state: CheckoutState): { name: string; email: string; phone?: string } {
	return { name: customerName(state), email: state.em ?? '', ...(state.ph ? { phone: state.ph } : {}) };
}

export function withAttempt(state: CheckoutState, attempt: Attempt): CheckoutState {
	const others = (state.a ?? []).filter((a) => a.n !== attempt.n);
	return { ...state, a: [...others, attempt].sort((x, y) => x.n - y.n) };
}

/** The next attempt number (throws past the most attempts a checkout may make). */
export function nextAttempt(state: CheckoutState): number {
	const n = (state.a ?? []).reduce((max, a) => Math.max(max, a.n), 0) + 1;
	if (n > MAX_ATTEMPTS) throw new CheckoutInputError('This checkout has had too many attempts. Please start a new one.');
	return n;
}

/** An attempt stamped with the amount, currency and business its payin is created for (the page changed since: ./terms.ts). */
export function newAttempt(env: Pick<CheckoutEnv, 'config'>, state: CheckoutState, n: number, m: Method): Attempt {
	return { n, m, ...(state.amt !== undefined ? { amt: state.amt } : {}), ...(state.cur ? { cur: state.cur } : {}), b: env.config.businessId };
}

/** An http(s) address (never a javascript: or data: URL from an answer). */
export function isWebAddress(value: unknown): value is string {
	return typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value);
}

/** The bank page a payin's answer sends the customer to (3-D Secure, EFT), when it gives one. */
export function bankPageOf(answer: { redirectUrl?: unknown }): string | undefined {
	const url = answer.redirectUrl;
	return typeof url === 'string' && /^https?:\/\//.test(url) ? url : undefined;
}

export function requiredText(value: string | undefined, label: string, max: number): string {
	const t = String(value ?? '').trim();
	if (t === '') throw new CheckoutInputError(`${label}: required`);
	if (t.length > max) throw new CheckoutInputError(`${label}: at most ${max} characters`);
	return t;
}

export function askValue(
	value: string | undefined,
	mode: AskMode,
	label: string,
	max: number,
): string | undefined {
	if (mode === 'no') return undefined;
	const t = String(value ?? '').trim();
	if (t === '') {
		if (mode === 'required') throw new CheckoutInputError(`${label}: required`);
		return undefined;
	}
	if (t.length > max) throw new CheckoutInputError(`${label}: at most ${max} characters`);
	return t;
}

/**
 * The amount the customer pays: the page's, or the one chosen within its
 * bounds, read by the shared amount reader (rule 7): "150,50" and "1,500"
 * are never guessed (a decimal comma read as a thousands separator made
 * 150,50 a payment of 15050); the buyer is told what to write.
 */
export function amountFrom(cfg: PageConfig, raw: string | undefined): number {
	if (cfg.amountMode === 'fixed') return cfg.amount;
	const text = String(raw ?? '').trim();
	const read = parseAmount(text);
	if (!read.ok && read.write)
		throw new CheckoutInputError(`Amount: ${amountHint(text, read.write)}, with a point before the cents and no thousands separators`);
	if (!read.ok) throw new CheckoutInputError('Amount: enter a number with at most 2 decimals');
	const n = read.value;
	if (!(n > 0) || n < cfg.minAmount || n > cfg.maxAmount) {
		throw new CheckoutInputError(
			`Amount: choose between ${cfg.minAmount} and ${cfg.maxAmount} ${cfg.currency}`,
		);
	}
	return n;
}

/** The start form read into the state: amount, email, then name and phone as the page asks them. */
export function withCustomer(
	cfg: PageConfig,
	state: CheckoutState,
	form: Record<string, string>,
): CheckoutState {
	const next: CheckoutState = { ...state, cur: cfg.currency };
	// Every field is checked, so the customer sees all that is wrong at once.
	const fields: Record<string, string> = {};
	const check = (field: string, read: () => void) => {
		try {
			read();
		} catch (error) {
			// The readers throw only input errors; anything else is still this field's.
			fields[field] = error instanceof CheckoutInputError ? error.message : `${field}: not valid`;
		}
	};
	check('amount', () => {
		next.amt = amountFrom(cfg, form.amount);
	});
	check('email', () => {
		next.em = requiredText(form.email, 'Email', 254);
		if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(next.em))
			throw new CheckoutInputError('Email: enter an address such as name@example.com');
	});
	check('name', () => {
		const name = askValue(form.name, cfg.askName, 'Name', 200);
		// The name reaches the service's records and their exports (rule 7, shared/values/text.ts).
		if (name && formulaProblem(name)) throw new CheckoutInputError(`Name: start with a letter (not ${JSON.stringify(name[0])})`);
		if (name) next.nm = name;
	});
	check('phone', () => {
		const raw = askValue(form.phone, cfg.askPhone, 'Phone', 24);
		if (raw) {
			const phone = internationalPhone(raw, cfg.currency);
			if (!phone) throw new CheckoutInputError(phoneError('Phone', cfg.currency));
			next.ph = phone;
		}
	});
	const messages = Object.values(fields);
	if (messages.length > 0) throw new CheckoutInputError(messages.join(' '), fields);
	return next;
}
