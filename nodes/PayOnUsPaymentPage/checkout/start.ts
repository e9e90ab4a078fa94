import { methodById, type PageMethod } from '../methods';
import { CheckoutInputError, PENDING, withCustomer } from './input';
import { STEP_KIT } from './kit';
import { attemptView } from './nextView';
import { current } from './refresh';
import type { CheckoutState } from './sealedState';
import type { CheckoutEnv, Latest, PageConfig, View } from './types';
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

/** A method this page offers (else the customer is asked to choose one). */
function offeredMethod(cfg: PageConfig, value: string | undefined): PageMethod {
	const method = methodById(value);
	if (!method || !cfg.methods.includes(method.id)) throw new CheckoutInputError('Payment method: choose one of the methods offered');
	return method;
}

/** The method chosen: its form, or (a method that starts at once: bank transfer) its attempt at once. */
export async function chooseMethod(
	env: CheckoutEnv,
	state: CheckoutState,
	value: string | undefined,
	latest: Latest | undefined,
): Promise<View> {
	if (state.amt === undefined) throw new CheckoutInputError('Fill in the form first');
	const method = offeredMethod(env.config, value);
	const m = method.id;
	// An open attempt of a method that starts at once (a bank transfer) is not thrown away: choosing it again shows it.
	if (method.start && latest?.attempt.m === m && latest.record && PENDING.has(String(latest.record.paymentStatus))) {
		return attemptView(env, { ...state, m }, latest.attempt, latest.record);
	}
	const next: CheckoutState = { ...state, m };
	if (method.start) return await method.start(env, next, {}, undefined, STEP_KIT);
	return view(env, 'details', next);
}
