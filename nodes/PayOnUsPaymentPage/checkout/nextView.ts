import type { IDataObject } from 'n8n-workflow';
import { methodById, viewOfStep } from '../methods';
import { PENDING } from './input';
import { emitNotPaid } from './outcomes';
import { checkoutReference, MAX_ATTEMPTS, type Attempt, type CheckoutState } from './sealedState';
import { attemptPrice } from './terms';
import type { CheckoutEnv, Latest, View } from './types';
import { view } from './view';

/** Which view a checkout shows once its attempts were re-read (./refresh.ts). */

export function isExpired(env: Pick<CheckoutEnv, 'now'>, state: CheckoutState): boolean {
	return env.now() > state.exp;
}

/** The view of a checkout that is not paid: expired, a form, the open attempt's step, or closed. */
export function nextView(
	env: CheckoutEnv,
	state: CheckoutState,
	latest: Latest | undefined,
	message?: string,
	status?: number,
): View {
	if (isExpired(env, state)) {
		emitNotPaid(env, state, 'expired');
		return view(env, 'expired', state);
	}
	if (state.amt === undefined) return view(env, 'start', state, { message, status });
	if (!latest) return view(env, 'details', state, { message, status });
	const { attempt, record } = latest;
	// The customer chose another method after this attempt (e.g. card
	// instead of an open bank transfer): its form. The open attempt is
	// still read on every request, so paying it still counts.
	if (state.m && state.m !== attempt.m) return view(env, 'details', state, { message, status });
	const payinStatus = String(record?.paymentStatus ?? '');
	if (!record || payinStatus === 'FAILED') {
		const why = notCompleted(attempt, record);
		if ((state.a?.length ?? 0) >= MAX_ATTEMPTS) return view(env, 'closed', state, { message: why });
		return view(
			env,
			'details',
			{ ...state, m: state.m ?? attempt.m },
			{ message: message ?? `${why} You can try again, or choose another way to pay.`, attempt, status },
		);
	}
	if (PENDING.has(payinStatus) || payinStatus === 'SUCCESSFUL') {
		return attemptView(env, state, attempt, record, message, status);
	}
	return view(env, 'processing', state, { attempt, record, message, status });
}

/** An open attempt: the step its customer is on. */
export function attemptView(
	env: CheckoutEnv,
	state: CheckoutState,
	attempt: Attempt,
	record: IDataObject,
	message?: string,
	status?: number,
): View {
	const kind = viewOfStep(attempt.s) ?? 'processing';
	return view(env, kind, state, { attempt, record, message, status });
}

/** The paid checkout: its receipt, or where the page's settings send the customer. */
export function paidView(env: CheckoutEnv, state: CheckoutState, paid: { attempt: Attempt; record: IDataObject }): View {
	// The receipt shows what was paid: the paid attempt's amount (an attempt from before a price change keeps its own).
	const done: CheckoutState = {
		...state,
		...attemptPrice(state, paid.attempt),
		a: state.a?.map((a) => (a.n === paid.attempt.n ? { ...a, s: 'paid' } : a)),
	};
	const extra: Partial<View> = { attempt: paid.attempt, record: paid.record };
	if (env.config.onSuccess === 'redirect' && env.config.redirectUrl) {
		const u = new URL(env.config.redirectUrl);
		u.searchParams.set('merchantCheckoutReference', checkoutReference(state));
		extra.redirect = u.toString();
	}
	return view(env, 'paid', done, extra);
}

/** After "I have paid" while the payin still waits: say so. */
export function notYet(latest: Latest | undefined): string | undefined {
	const status = String(latest?.record?.paymentStatus ?? '');
	return PENDING.has(status)
		? 'We have not received the payment yet. It can take a minute; this page checks again by itself.'
		: undefined;
}

/**
 * Why an attempt did not complete, in full sentences that do not blame the
 * buyer: no money was taken; the provider's reason is quoted only when it
 * says something the buyer can act on (not "Declined by customer", which
 * reads as an accusation, and may be a timeout or a cancelled prompt).
 */
export function notCompleted(attempt: Attempt, record: IDataObject | undefined): string {
	const what = methodById(attempt.m)?.notCompleted ?? 'The payment did not go through.';
	const reason = String(record?.providerResponse ?? record?.message ?? '').trim();
	const quoted = reason && !/customer|user|cancel/i.test(reason) ? ` Reason given: ${reason.replace(/[.\s]+$/, '')}.` : '';
	return `${what}${quoted} No money was taken.`;
}
