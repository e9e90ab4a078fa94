import { createPublicKey } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { completeCardPayment } from '../../shared/api';
import { statusOf } from '../../shared/errors';
import { cardCharge } from '../../PayOnUs/resources/payin/chargeCard';
import * as payins from '../../shared/payins';
import { bankPageOf, buyer, CheckoutInputError, isWebAddress, newAttempt, nextAttempt, withAttempt } from '../checkout/input';
import { attemptReference, type Attempt } from '../checkout/sealedState';
import type { View } from '../checkout/types';
import { returnUrl, view } from '../checkout/view';
import { CARD_JS } from '../render/assets';
import { alertBox, esc, hidden, type RenderOptions } from '../render/parts';
import { codeView, plainWait, toTheBank, waitView } from '../render/views';
import { inPage, settle, type PayOnUsCaller } from '../service';
import type { MethodStep, PageMethod } from './types';

/**
 * Card: the card details, RSA-encrypted in the browser, charged (Charge
 * Card); then the step the card needs (PIN, OTP, 3-D Secure at the bank).
 * Offered only with the node's Card Encryption Public Key set to a valid
 * RSA key (2048 bits or more): the key of the credential's environment, the
 * way a deployment supplies it (docs/payment-page.md says where to find it).
 */

/** What card payments need, in the words of the setup error (the node's setting, by its label). */
export const CARD_KEY_NEEDED =
	"the Card Encryption Public Key set to the environment's RSA public key (PEM, 2048 bits or more, from your PayOnUs dashboard)";

/** A PEM RSA public key of at least 2048 bits, normalised; '' when unusable. */
export function usablePublicKey(pem: string): string {
	const text = String(pem ?? '').trim();
	if (!/^-----BEGIN PUBLIC KEY-----[A-Za-z0-9+/=\s]+-----END PUBLIC KEY-----$/.test(text))
		return '';
	try {
		const key = createPublicKey(text);
		const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
		return key.asymmetricKeyType === 'rsa' && bits >= 2048 && bits <= 4096 ? text : '';
	} catch {
		return '';
	}
}

/** Modulus length of an RSA public key in bytes (= its ciphertext length). */
export function modulusBytes(pem: string): number {
	return Math.ceil((createPublicKey(pem).asymmetricKeyDetails?.modulusLength ?? 0) / 8);
}

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

/** The payin: the encrypted card data charged. */
export async function chargeCard(caller: PayOnUsCaller, body: payins.PayinBody<typeof cardCharge>): Promise<IDataObject> {
	return await inPage(payins.postPayin(caller.client, cardCharge, body));
}

/** The step a card's answer asks for (Attempt.s). */
function stepOf(auth: unknown): string | undefined {
	return auth === 'PIN' ? 'pin' : auth === 'OTP' ? 'otp' : auth === 'THREE_DS' ? '3ds' : undefined;
}

const charge: MethodStep = async (env, state, form, _latest, kit): Promise<View> => {
	if (!env.config.methods.includes('card')) throw new CheckoutInputError('Card payments are not offered on this page');
	const cardData = encryptedCardData(String(form.cardData ?? '').trim(), env.config.cardCipherBytes ?? 0);
	const n = nextAttempt(state);
	const attempt: Attempt = newAttempt(env, state, n, 'card');
	// The return address after 3-D Secure carries the attempt (its payin is
	// found by reference when the customer comes back).
	const returnState = withAttempt({ ...state, m: 'card' }, { ...newAttempt(env, state, n, 'card'), s: '3ds' });
	const result = await kit.createOnce(env, state, attempt, async () =>
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
		return await kit.current(env, next);
	}
	const next = withAttempt({ ...state, m: 'card' }, attempt);
	if (data.paymentStatus === 'FAILED') {
		return kit.nextView(env, next, { attempt, record: { ...data, providerResponse: data.message } });
	}
	return await kit.current(env, next);
};

/** The card's PIN or OTP, sent once (a POST is never retried); the payin's status, read next, says what happened. */
function complete(kind: 'pin' | 'otp'): MethodStep {
	return async (env, state, form, latest, kit) => {
		const attempt = latest?.attempt;
		if (!attempt || attempt.m !== 'card' || attempt.s !== kind || !attempt.r) return kit.nextView(env, state, latest);
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
		return await kit.current(env, state);
	};
}

/** The card's inputs have no name (never submitted); the script sends them encrypted as `cardData`. */
function cardForm(o: RenderOptions, view: View, amount: string): string {
	return `<h2 id="pay-h">Card details</h2>
${alertBox(view.message)}
<noscript><p class="alert">Card payments need JavaScript: your card details are encrypted in this browser before they are sent. Turn JavaScript on, or choose another method.</p></noscript>
<p id="card-nojs" class="muted">Loading the secure card form…</p>
<form id="card-form" method="post" action="?c=${esc(view.sealed)}" hidden novalidate>
${hidden(view.sealed, 'card')}<input type="hidden" name="cardData" id="cardData" value="">
<label for="cc-number">Card number</label><input id="cc-number" inputmode="numeric" autocomplete="cc-number" required aria-describedby="card-error">
<div class="row"><div><label for="cc-exp">Expiry (MM/YY)</label><input id="cc-exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required></div>
<div><label for="cc-csc">Security code</label><input id="cc-csc" inputmode="numeric" autocomplete="cc-csc" required></div></div>
<div class="alert" role="alert" id="card-error" hidden></div>
<p class="muted">Your card details are encrypted in this browser; only PayOnUs can read them.</p>
<button type="submit" data-label="Pay ${esc(amount)}">Pay ${esc(amount)}</button>
</form>
<script type="text/plain" id="card-key">${esc(o.config.cardPublicKey)}</script>`;
}

export const card: PageMethod = {
	id: 'card',
	option: { name: 'Card', description: 'Encrypted in the browser; PIN, OTP and 3-D Secure handled' },
	label: { name: 'Card', hint: 'Visa, Mastercard or Verve' },
	properties: [
		{
			displayName: 'Card Encryption Public Key',
			name: 'cardPublicKey',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			displayOptions: { show: { methods: ['card'] } },
			placeholder: '-----BEGIN PUBLIC KEY-----',
			description:
				"PayOnUs's RSA public key for the credential's environment (PEM, 2048 bits or more), from your PayOnUs dashboard; for a local sandbox, `npm run sandbox` prints it. The customer's browser encrypts the card details with it, so card numbers never reach n8n in clear. Without a valid key the page does not offer card.",
		},
	],
	needs: { what: 'card', needs: CARD_KEY_NEEDED, warn: true },
	offer: async ({ parameters }) => {
		const cardPublicKey = usablePublicKey(String(parameters.cardPublicKey ?? ''));
		return cardPublicKey ? { cardPublicKey, cardCipherBytes: modulusBytes(cardPublicKey) } : undefined;
	},
	channel: 'CARD',
	call: cardCharge,
	accountNameIsBuyer: true,
	payin: chargeCard,
	steps: { card: charge, pin: complete('pin'), otp: complete('otp') },
	stepViews: { pin: 'pin', otp: 'otp', '3ds': 'threeDs' },
	views: {
		pin: (o, view) => codeView(o, view, 'pin', 'Enter your card PIN', 'Your bank asks for the 4-digit PIN of this card.', 'Card PIN', true),
		otp: (o, view) => codeView(o, view, 'otp', 'Enter the code', 'Your bank sent a one-time code to your phone.', 'One-time code', false),
		threeDs: (o, view) =>
			waitView(o, view, plainWait('Verify with your bank', 'Your bank needs to confirm this payment (3-D Secure).', toTheBank(view))),
	},
	form: (o, view, amount) => ({ html: cardForm(o, view, amount), scripts: [CARD_JS] }),
	echo: [],
	adopted: (payin) => ({ s: stepOf(payin.authTypeRequired) }),
	notCompleted: 'The card payment was not approved.',
};
