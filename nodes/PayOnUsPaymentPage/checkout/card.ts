import { chargeCard, completeCardPayment, settle } from '../service';
import { statusOf } from '../../shared/errors';
import { createOnce } from './adopt';
import { bankPageOf, buyer, CheckoutInputError, isWebAddress, nextAttempt, withAttempt } from './input';
import { nextView } from './nextView';
import { current } from './refresh';
import { attemptReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv, Latest, View } from './types';
import { returnUrl, view } from './view';

/**
 * Card: the card details, RSA-encrypted in the browser, charged (Charge
 * Card); then the step the card needs (PIN, OTP, 3-D Secure at the bank).
 */

/** The RSA ciphertext the page's script made, or a refusal: card details in clear are never forwarded. */
export function encryptedCardData(cardData: string, cipherBytes: number): string {
	// RSA ciphertext is exactly as long as the key's modulus (256 bytes for
	// RSA-2048). Anything else (in particular Base64 of the card details in
	// clear, which is much shorter) is refused.
	if (
		!/^[A-Za-z0-9+/]+={0,2}$/.test(cardData) ||
		cardData.length !== 4 * Math.ceil(cipherBytes / 3) ||
		Buffer.from(cardData, 'base64').length !== cipherBytes
	) {
		throw new CheckoutInputError(
			'Card: the card details were not encrypted by this page. Reload the page and try again (JavaScript is needed for card payments).',
		);
	}
	return cardData;
}

export async function card(env: CheckoutEnv, state: CheckoutState, form: Record<string, string>): Promise<View> {
	if (!env.config.methods.includes('card')) throw new CheckoutInputError('Card payments are not offered on this page');
	const cardData = encryptedCardData(String(form.cardData ?? '').trim(), env.config.cardCipherBytes);
	const n = nextAttempt(state);
	const attempt: Attempt = { n, m: 'card' };
	// The return address after 3-D Secure carries the attempt (its payin is
	// found by reference when the customer comes back).
	const returnState = withAttempt({ ...state, m: 'card' }, { n, m: 'card', s: '3ds' });
	const result = await createOnce(env, state, attempt, async () =>
		await chargeCard(env, {
			businessId: env.config.businessId,
			cardData,
			amount: state.amt as number,
			currency: state.cur as string,
			reference: attemptReference(state, n),
			narration: env.config.narration,
			redirectUrl: returnUrl(env, returnState),
			customer: buyer(state),
		}),
	);
	if ('adopted' in result) return result.adopted;
	const data = result.created;
	const auth = data.authTypeRequired;
	if (auth === 'PIN') attempt.s = 'pin';
	else if (auth === 'OTP') attempt.s = 'otp';
	else if (auth === 'THREE_DS') {
		attempt.s = '3ds';
		if (isWebAddress(data.redirectUrl)) attempt.u = data.redirectUrl;
		const next = withAttempt({ ...state, m: 'card' }, attempt);
		const url = bankPageOf(data);
		if (url) return view(env, 'threeDs', next, { attempt, redirect: url });
		return await current(env, next);
	}
	const next = withAttempt({ ...state, m: 'card' }, attempt);
	if (data.paymentStatus === 'FAILED') {
		return nextView(env, next, { attempt, record: { ...data, providerResponse: data.message } });
	}
	return await current(env, next);
}

/** The card's PIN or OTP, sent once (a POST is never retried); the payin's status, read next, says what happened. */
export async function completeCard(
	env: CheckoutEnv,
	state: CheckoutState,
	kind: 'pin' | 'otp',
	form: Record<string, string>,
	latest: Latest | undefined,
): Promise<View> {
	const attempt = latest?.attempt;
	if (!attempt || attempt.m !== 'card' || attempt.s !== kind || !attempt.r) return nextView(env, state, latest);
	const value = String(form.authData ?? '').trim();
	if (kind === 'pin' && !/^\d{4}$/.test(value)) throw new CheckoutInputError('PIN: enter the 4 digits of your card PIN');
	if (kind === 'otp' && !/^\d{4,8}$/.test(value)) throw new CheckoutInputError('Code: enter the code sent to your phone');
	const settled = await settle(
		completeCardPayment(env.client, {
			onusReference: attempt.r,
			cardAuthType: kind.toUpperCase(),
			authData: value,
			businessId: env.config.businessId,
		}),
	);
	// 409: not awaiting completion any more (double submit); 400: refused.
	// Either way the payin's status, read next, says what happened.
	if (!settled.ok && statusOf(settled.error) !== 409 && statusOf(settled.error) !== 400) throw settled.error;
	return await current(env, state);
}
