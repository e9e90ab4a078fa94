import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { CheckoutInputError, isWebAddress, methodOfChannel, withAttempt, customerName } from './input';
import { statusOf } from '../shared/errors';
import {
	completeCardPayment,
	createBankTransferPayin,
	createCardPayin,
	createEftPayin,
	createMobileMoneyPayin,
	findPayinByReference,
	isDuplicate,
	settle,
	verifyMobileMoneyOtp,
	type ErrorLike,
} from './service';
import { attemptReference, type Attempt, type CheckoutState } from './token';
import type { Latest, PageConfig, View, ViewKind } from './types';

/**
 * The payment steps of a checkout, one per method: start an attempt (one
 * payin, reference `<checkout reference>-<n>`), or complete it (card PIN or
 * OTP, mobile money OTP). A 409 (the reference is already held: double
 * submit, second tab) adopts the payin that holds it instead of creating
 * another. Each step ends on what the service then says (`current`).
 */

/** What a step needs of the checkout (checkout.ts implements it). */
export interface CheckoutSteps {
	readonly client: PayOnUsClient;
	readonly cfg: PageConfig;
	view(kind: ViewKind, state: CheckoutState, extra?: Partial<View>): View;
	/** The page for a state, after re-reading its attempts. */
	current(state: CheckoutState, message?: string, status?: number): Promise<View>;
	/** The page for a state already re-read. */
	afterRefresh(state: CheckoutState, latest: Latest | undefined, message?: string, status?: number): View;
	readAttempt(state: CheckoutState, attempt: Attempt): Promise<IDataObject | undefined>;
	/** The next attempt number (throws past the most attempts a checkout may make). */
	nextAttempt(state: CheckoutState): number;
	/** The page address that resumes this state (3-D Secure, EFT). */
	returnUrl(state: CheckoutState): string;
}

/** Adopts the record that already holds an attempt's reference (double submit, second tab). */
export async function adopt(c: CheckoutSteps, state: CheckoutState, attempt: Attempt, error: ErrorLike): Promise<View> {
	let record = error.context?.existingRecord as IDataObject | undefined;
	if (!record || typeof record.onusReference !== 'string') {
		record = await findPayinByReference(c.client, c.cfg.businessId, attemptReference(state, attempt.n));
	}
	if (!record || typeof record.onusReference !== 'string') throw error;
	const fresh =
		(await c.readAttempt(state, {
			...attempt,
			r: record.onusReference,
		})) ?? record;
	const m = methodOfChannel(fresh.paymentChannel) ?? attempt.m;
	const adopted: Attempt = {
		n: attempt.n,
		m,
		r: String(fresh.onusReference),
	};
	if (m === 'bank') {
		adopted.s = 'bank';
		adopted.acct = {
			no: String(fresh.accountNumber ?? ''),
			bank: String(fresh.bankName ?? ''),
			name: String(fresh.accountName ?? ''),
		};
	} else if (m === 'card') {
		const auth = fresh.authTypeRequired;
		adopted.s =
			auth === 'PIN' ? 'pin' : auth === 'OTP' ? 'otp' : auth === 'THREE_DS' ? '3ds' : undefined;
	} else if (m === 'momo') {
		adopted.s = 'momoWait';
	} else if (m === 'eft') {
		adopted.s = 'eft';
	}
	return await c.current(withAttempt({ ...state, m }, adopted));
}

export async function bank(c: CheckoutSteps, state: CheckoutState): Promise<View> {
	const n = c.nextAttempt(state);
	const attempt: Attempt = { n, m: 'bank', s: 'bank' };
	const settled = await settle(
		createBankTransferPayin(c.client, {
			businessId: c.cfg.businessId,
			amount: state.amt,
			reference: attemptReference(state, n),
			customerName: customerName(state),
			customerEmail: state.em,
			additionalFields: state.ph ? { customerPhone: state.ph } : {},
		}),
	);
	if (!settled.ok) {
		if (isDuplicate(settled.error)) return await adopt(c, state, attempt, settled.error);
		throw settled.error;
	}
	const data = settled.value;
	attempt.r = String(data.onusReference ?? '') || undefined;
	attempt.acct = {
		no: String(data.accountNumber ?? ''),
		bank: String(data.bankName ?? ''),
		name: String(data.accountName ?? ''),
	};
	return await c.current(withAttempt(state, attempt));
}

export async function card(c: CheckoutSteps, state: CheckoutState, form: Record<string, string>): Promise<View> {
	if (!c.cfg.methods.includes('card'))
		throw new CheckoutInputError('Card payments are not offered on this page');
	const cardData = String(form.cardData ?? '').trim();
	// RSA ciphertext is exactly as long as the key's modulus (256 bytes for
	// RSA-2048). Anything else (in particular Base64 of the card details in
	// clear, which is much shorter) is refused: card details in clear are
	// never forwarded.
	const bytes = c.cfg.cardCipherBytes;
	if (
		!/^[A-Za-z0-9+/]+={0,2}$/.test(cardData) ||
		cardData.length !== 4 * Math.ceil(bytes / 3) ||
		Buffer.from(cardData, 'base64').length !== bytes
	) {
		throw new CheckoutInputError(
			'Card: the card details were not encrypted by this page. Reload the page and try again (JavaScript is needed for card payments).',
		);
	}
	const n = c.nextAttempt(state);
	const attempt: Attempt = { n, m: 'card' };
	// The return address after 3-D Secure carries the attempt (its payin is
	// found by reference when the customer comes back).
	const returnState = withAttempt({ ...state, m: 'card' }, { n, m: 'card', s: '3ds' });
	const settled = await settle(
		createCardPayin(c.client, {
			businessId: c.cfg.businessId,
			cardData,
			amount: state.amt,
			currency: state.cur,
			reference: attemptReference(state, n),
			customerName: customerName(state),
			customerEmail: state.em,
			additionalFields: {
				narration: c.cfg.narration,
				redirectUrl: c.returnUrl(returnState),
				...(state.ph ? { customerPhone: state.ph } : {}),
			},
		}),
	);
	if (!settled.ok) {
		if (isDuplicate(settled.error)) return await adopt(c, state, attempt, settled.error);
		throw settled.error;
	}
	const data = settled.value;
	attempt.r = String(data.onusReference ?? '') || undefined;
	const auth = data.authTypeRequired;
	if (auth === 'PIN') attempt.s = 'pin';
	else if (auth === 'OTP') attempt.s = 'otp';
	else if (auth === 'THREE_DS') {
		attempt.s = '3ds';
		if (isWebAddress(data.redirectUrl)) attempt.u = data.redirectUrl;
		const next = withAttempt({ ...state, m: 'card' }, attempt);
		const url =
			typeof data.redirectUrl === 'string' && /^https?:\/\//.test(data.redirectUrl)
				? data.redirectUrl
				: undefined;
		if (url) return c.view('threeDs', next, { attempt, redirect: url });
		return await c.current(next);
	}
	const next = withAttempt({ ...state, m: 'card' }, attempt);
	if (data.paymentStatus === 'FAILED') {
		return c.afterRefresh(next, {
			attempt,
			record: { ...data, providerResponse: data.message },
		});
	}
	return await c.current(next);
}

export async function completeCard(
	c: CheckoutSteps,
	state: CheckoutState,
	kind: 'pin' | 'otp',
	form: Record<string, string>,
	latest: Latest | undefined,
): Promise<View> {
	const attempt = latest?.attempt;
	if (!attempt || attempt.m !== 'card' || attempt.s !== kind || !attempt.r)
		return c.afterRefresh(state, latest);
	const value = String(form.authData ?? '').trim();
	if (kind === 'pin' && !/^\d{4}$/.test(value))
		throw new CheckoutInputError('PIN: enter the 4 digits of your card PIN');
	if (kind === 'otp' && !/^\d{4,8}$/.test(value))
		throw new CheckoutInputError('Code: enter the code sent to your phone');
	// Sent once (service.ts): a POST is never retried.
	const settled = await settle(
		completeCardPayment(c.client, {
			onusReference: attempt.r,
			cardAuthType: kind.toUpperCase(),
			authData: value,
			businessId: c.cfg.businessId,
		}),
	);
	// 409: not awaiting completion any more (double submit); 400: refused.
	// Either way the payin's status, read next, says what happened.
	if (!settled.ok && statusOf(settled.error) !== 409 && statusOf(settled.error) !== 400)
		throw settled.error;
	return await c.current(state);
}

export async function momo(c: CheckoutSteps, state: CheckoutState, form: Record<string, string>): Promise<View> {
	if (!c.cfg.methods.includes('momo'))
		throw new CheckoutInputError('Mobile money is not offered on this page');
	const network = c.cfg.networks.find((x) => x.code === form.network);
	if (!network) throw new CheckoutInputError('Network: choose your mobile money network');
	const phone = String(form.phone ?? state.ph ?? '').replace(/[\s()-]/g, '');
	if (!/^\+[1-9]\d{6,14}$/.test(phone))
		throw new CheckoutInputError(
			'Mobile money number: international format, + and 7 to 15 digits',
		);
	const n = c.nextAttempt(state);
	const attempt: Attempt = { n, m: 'momo' };
	const settled = await settle(
		createMobileMoneyPayin(c.client, {
			businessId: c.cfg.businessId,
			momoNetwork: network.code,
			amount: state.amt,
			reference: attemptReference(state, n),
			customerName: customerName(state),
			customerEmail: state.em,
			customerPhone: phone,
			additionalFields: { narration: c.cfg.narration },
		}),
	);
	if (!settled.ok) {
		if (isDuplicate(settled.error)) return await adopt(c, state, attempt, settled.error);
		throw settled.error;
	}
	const data = settled.value;
	attempt.r = String(data.onusReference ?? '') || undefined;
	attempt.s = data.otpRequired === true ? 'momoOtp' : 'momoWait';
	return await c.current(withAttempt({ ...state, m: 'momo' }, attempt));
}

export async function momoOtp(
	c: CheckoutSteps,
	state: CheckoutState,
	form: Record<string, string>,
	latest: Latest | undefined,
): Promise<View> {
	const attempt = latest?.attempt;
	if (!attempt || attempt.m !== 'momo' || attempt.s !== 'momoOtp' || !attempt.r)
		return c.afterRefresh(state, latest);
	const otp = String(form.authData ?? '').trim();
	if (!/^\d{4,8}$/.test(otp))
		throw new CheckoutInputError('Code: enter the code sent to your phone');
	// Sent once (service.ts).
	const settled = await settle(
		verifyMobileMoneyOtp(c.client, {
			onusReference: attempt.r,
			otp,
			businessId: c.cfg.businessId,
		}),
	);
	if (!settled.ok) {
		if (statusOf(settled.error) === 400)
			return await c.current(
				state,
				'That code was not accepted. Check it and try again.',
				400,
			);
		if (statusOf(settled.error) !== 409) throw settled.error;
	}
	const moved = withAttempt(state, { ...attempt, s: 'momoWait' });
	return await c.current(moved);
}

export async function eft(c: CheckoutSteps, state: CheckoutState, form: Record<string, string>): Promise<View> {
	if (!c.cfg.methods.includes('eft'))
		throw new CheckoutInputError('EFT is not offered on this page');
	const bank = c.cfg.eftBanks.find((b) => b.code === form.bank);
	if (!bank) throw new CheckoutInputError('Bank: choose your bank');
	const n = c.nextAttempt(state);
	const attempt: Attempt = { n, m: 'eft', s: 'eft' };
	const returnState = withAttempt({ ...state, m: 'eft' }, { ...attempt });
	const settled = await settle(
		createEftPayin(c.client, {
			amount: state.amt as number,
			reference: attemptReference(state, n),
			narration: c.cfg.narration,
			businessId: c.cfg.businessId,
			bank: bank.code,
			redirectUrl: c.returnUrl(returnState),
			customer: {
				name: customerName(state),
				email: state.em,
				...(state.ph ? { phone: state.ph } : {}),
			},
		}),
	);
	if (!settled.ok) {
		if (isDuplicate(settled.error)) return await adopt(c, state, attempt, settled.error);
		throw settled.error;
	}
	const data = settled.value;
	attempt.r = String(data.onusReference ?? '') || undefined;
	if (isWebAddress(data.redirectUrl)) attempt.u = data.redirectUrl;
	const next = withAttempt({ ...state, m: 'eft' }, attempt);
	const url =
		typeof data.redirectUrl === 'string' && /^https?:\/\//.test(data.redirectUrl)
			? data.redirectUrl
			: undefined;
	if (url) return c.view('eft', next, { attempt, redirect: url, record: data });
	return await c.current(next);
}