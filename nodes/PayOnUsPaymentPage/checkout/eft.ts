import { eftPayment } from '../service';
import { createOnce } from './adopt';
import { bankPageOf, buyer, CheckoutInputError, isWebAddress, nextAttempt, withAttempt } from './input';
import { current } from './refresh';
import { attemptReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv, View } from './types';
import { returnUrl, view } from './view';

/** EFT (ZAR): the customer authorises the payment at their bank's page, then comes back to the page. */
export async function eft(env: CheckoutEnv, state: CheckoutState, form: Record<string, string>): Promise<View> {
	if (!env.config.methods.includes('eft')) throw new CheckoutInputError('EFT is not offered on this page');
	const bank = env.config.eftBanks.find((b) => b.code === form.bank);
	if (!bank) throw new CheckoutInputError('Bank: choose your bank');
	const n = nextAttempt(state);
	const attempt: Attempt = { n, m: 'eft', s: 'eft' };
	const returnState = withAttempt({ ...state, m: 'eft' }, { ...attempt });
	const result = await createOnce(env, state, attempt, async () =>
		await eftPayment(env, {
			amount: state.amt as number,
			reference: attemptReference(state, n),
			narration: env.config.narration,
			businessId: env.config.businessId,
			bank: bank.code,
			redirectUrl: returnUrl(env, returnState),
			customer: buyer(state),
		}),
	);
	if ('adopted' in result) return result.adopted;
	const data = result.created;
	if (isWebAddress(data.redirectUrl)) attempt.u = data.redirectUrl;
	const next = withAttempt({ ...state, m: 'eft' }, attempt);
	const url = bankPageOf(data);
	if (url) return view(env, 'eft', next, { attempt, redirect: url, record: data });
	return await current(env, next);
}
