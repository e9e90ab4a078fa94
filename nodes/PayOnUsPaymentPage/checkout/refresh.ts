import type { IDataObject } from 'n8n-workflow';
import { findPayinByReference, getPayin } from '../service';
import { nextView, paidView } from './nextView';
import { emitNotPaid, emitPaid } from './outcomes';
import { decidePaid } from './paid';
import { attemptReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv, Latest, View } from './types';

/**
 * Every request re-reads the checkout's attempts from PayOnUs (Get Payment
 * by onusReference, or the payment list by merchant reference while the
 * onusReference is not known yet), then decides (./paid.ts): the first paid
 * attempt emits the Paid item, a FAILED one a Not Paid item.
 */

/** The payin of one attempt, or undefined when PayOnUs has none (learns the attempt's onusReference). */
export async function readAttempt(env: CheckoutEnv, state: CheckoutState, attempt: Attempt): Promise<IDataObject | undefined> {
	// In the business it was made in (the page's business may have changed since: ./terms.ts).
	const businessId = attempt.b ?? env.config.businessId;
	let onusReference = attempt.r;
	if (!onusReference) {
		const listed = await findPayinByReference(env, businessId, attemptReference(state, attempt.n));
		if (!listed || typeof listed.onusReference !== 'string') return undefined;
		onusReference = listed.onusReference;
		attempt.r = onusReference;
	}
	return await getPayin(env, businessId, onusReference);
}

export interface Refreshed {
	state: CheckoutState;
	paid?: { attempt: Attempt; record: IDataObject };
	latest?: Latest;
}

/** Re-reads every attempt, oldest first, up to the paid one; emits what it finds. */
export async function refresh(env: CheckoutEnv, state: CheckoutState): Promise<Refreshed> {
	const attempts = (state.a ?? []).map((a) => ({ ...a }));
	const next: CheckoutState = { ...state, a: attempts };
	let latest: Latest | undefined;
	for (const attempt of attempts) {
		const record = await readAttempt(env, next, attempt);
		if (record) {
			const decision = decidePaid(next, attempt, record, attempt.b ?? env.config.businessId);
			if (decision.paid) {
				emitPaid(env, next, attempt, record);
				return { state: next, paid: { attempt, record }, latest: { attempt, record } };
			}
			if (decision.warning) env.warn(decision.warning);
		}
		if (record?.paymentStatus === 'FAILED') emitNotPaid(env, next, 'failed', attempt, record);
		// An attempt from before the page's price changed (./terms.ts) is read, never continued.
		if (!attempt.x) latest = { attempt, record };
	}
	return { state: next, latest };
}

/** What the page shows for a state, after re-reading it. */
export async function current(env: CheckoutEnv, state: CheckoutState, message?: string, status?: number): Promise<View> {
	const r = await refresh(env, state);
	if (r.paid) return paidView(env, r.state, r.paid);
	return nextView(env, r.state, r.latest, message, status);
}
