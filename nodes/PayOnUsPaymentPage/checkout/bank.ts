import { createDynamicAccount, simulatePayment } from '../service';
import { nextView } from './nextView';
import { createOnce } from './adopt';
import { buyer, nextAttempt, PENDING, withAttempt } from './input';
import { current } from './refresh';
import { attemptReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv, Latest, View } from './types';

/** Bank transfer: a one-time account to pay into (a dynamic account); the page then waits for the transfer. */
export async function bank(env: CheckoutEnv, state: CheckoutState): Promise<View> {
	const n = nextAttempt(state);
	const attempt: Attempt = { n, m: 'bank', s: 'bank' };
	const result = await createOnce(env, state, attempt, async () =>
		await createDynamicAccount(env, {
			businessId: env.config.businessId,
			amount: state.amt as number,
			reference: attemptReference(state, n),
			customer: buyer(state),
		}),
	);
	if ('adopted' in result) return result.adopted;
	const data = result.created;
	attempt.acct = {
		no: String(data.accountNumber ?? ''),
		bank: String(data.bankName ?? ''),
		name: String(data.accountName ?? ''),
	};
	return await current(env, withAttempt(state, attempt));
}

/**
 * TEST MODE only: "Simulate the customer paying" the open bank transfer
 * (the spec's sandbox simulate endpoint, the call the PayOnUs node's Simulate
 * Payment operation makes); the payin's status, read next, says what happened.
 * Outside the sandbox, or without an open bank transfer: the page as it is.
 */
export async function simulatePaid(env: CheckoutEnv, state: CheckoutState, latest: Latest | undefined): Promise<View> {
	const attempt = latest?.attempt;
	const open = attempt?.m === 'bank' && attempt.r && PENDING.has(String(latest?.record?.paymentStatus));
	if (!env.testMode || !open || !attempt.r) return nextView(env, state, latest);
	await simulatePayment(env, {
		onusReference: attempt.r,
		accountNumber: attempt.acct?.no ?? String(latest?.record?.accountNumber ?? ''),
		amount: state.amt as number,
		paymentStatus: 'SUCCESSFUL',
		forDynamicAccount: true,
	});
	return await current(env, state);
}
