import { mobileMoneyCollection, settle, verifyMobileMoneyOtp } from '../service';
import { statusOf } from '../../shared/errors';
import { createOnce } from './adopt';
import { buyer, CheckoutInputError, nextAttempt, withAttempt } from './input';
import { internationalPhone, phoneError } from './phone';
import { nextView } from './nextView';
import { current } from './refresh';
import { attemptReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv, Latest, View } from './types';

/** Mobile money: a prompt on the customer's phone (a mobile money collection), with an OTP first on some networks. */

export async function momo(env: CheckoutEnv, state: CheckoutState, form: Record<string, string>): Promise<View> {
	if (!env.config.methods.includes('momo')) throw new CheckoutInputError('Mobile money is not offered on this page');
	const network = env.config.networks.find((x) => x.code === form.network);
	if (!network) throw new CheckoutInputError('Network: choose your mobile money network');
	const phone = internationalPhone(form.phone ?? state.ph, env.config.currency);
	if (!phone) {
		const why = phoneError('Mobile money number', env.config.currency);
		throw new CheckoutInputError(why, { phone: why });
	}
	const n = nextAttempt(state);
	// The number and network prompted, shown while the page waits (and for a resend).
	const attempt: Attempt = { n, m: 'momo', ph: phone, net: network.code };
	const result = await createOnce(env, state, attempt, async () =>
		await mobileMoneyCollection(env, {
			businessId: env.config.businessId,
			momoNetwork: network.code,
			amount: state.amt as number,
			reference: attemptReference(state, n),
			narration: env.config.narration,
			customer: { ...buyer(state), phone },
		}),
	);
	if ('adopted' in result) return result.adopted;
	attempt.s = result.created.otpRequired === true ? 'momoOtp' : 'momoWait';
	return await current(env, withAttempt({ ...state, m: 'momo' }, attempt));
}

/** The network's OTP, sent once; then the page waits for the approval on the phone. */
export async function momoOtp(
	env: CheckoutEnv,
	state: CheckoutState,
	form: Record<string, string>,
	latest: Latest | undefined,
): Promise<View> {
	const attempt = latest?.attempt;
	if (!attempt || attempt.m !== 'momo' || attempt.s !== 'momoOtp' || !attempt.r) return nextView(env, state, latest);
	const otp = String(form.authData ?? '').trim();
	if (!/^\d{4,8}$/.test(otp)) throw new CheckoutInputError('Code: enter the code sent to your phone');
	const settled = await settle(verifyMobileMoneyOtp(env.client, { onusReference: attempt.r, otp, businessId: env.config.businessId }));
	if (!settled.ok) {
		if (statusOf(settled.error) === 400)
			return await current(env, state, 'That code was not accepted. Check it and try again.', 400);
		if (statusOf(settled.error) !== 409) throw settled.error;
	}
	return await current(env, withAttempt(state, { ...attempt, s: 'momoWait' }));
}
