import { bank } from './bank';
import { CheckoutInputError, offeredMethod, PENDING, withCustomer } from './input';
import { attemptView } from './nextView';
import { current } from './refresh';
import type { CheckoutState } from './sealedState';
import type { CheckoutEnv, Latest, View } from './types';
import { view } from './view';

/** The first two steps of a checkout: the start form (amount, customer), then the method. */

export async function start(env: CheckoutEnv, state: CheckoutState, form: Record<string, string>): Promise<View> {
	if (state.amt !== undefined && (state.a?.length ?? 0) > 0) {
		// The start form sent again (double submit, back button): show where the checkout is.
		return await current(env, state);
	}
	const next = withCustomer(env.config, state, form);
	const methods = env.config.methods;
	return await chooseMethod(env, next, form.method || (methods.length === 1 ? methods[0] : ''), undefined);
}

/** The method chosen: its form, or (bank transfer) its account at once. */
export async function chooseMethod(
	env: CheckoutEnv,
	state: CheckoutState,
	value: string | undefined,
	latest: Latest | undefined,
): Promise<View> {
	if (state.amt === undefined) throw new CheckoutInputError('Fill in the form first');
	const m = offeredMethod(env.config, value);
	// An open bank transfer is not thrown away: choosing it again shows it.
	if (m === 'bank' && latest?.attempt.m === 'bank' && latest.record && PENDING.has(String(latest.record.paymentStatus))) {
		return attemptView(env, { ...state, m: 'bank' }, latest.attempt, latest.record);
	}
	const next: CheckoutState = { ...state, m };
	if (m === 'bank') return await bank(env, next);
	return view(env, 'details', next);
}
