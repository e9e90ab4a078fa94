import type { IDataObject } from 'n8n-workflow';
import { findPayinByReference, isDuplicate, settle, type ErrorLike } from '../service';
import { methodById, methodOfChannel } from '../methods';
import { withAttempt } from './input';
import { current, readAttempt } from './refresh';
import { attemptReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv, View } from './types';

/**
 * An attempt's payin created once: reference `<checkout reference>-<n>`, so
 * a double submit, a reload or a second tab re-sends the same reference,
 * and the 409 that answers it adopts the payin that already holds it
 * instead of creating another.
 */

/** The payin created (`attempt.r` set from it), or the view of the payin adopted after a 409. */
export async function createOnce(
	env: CheckoutEnv,
	state: CheckoutState,
	attempt: Attempt,
	create: () => Promise<IDataObject>,
): Promise<{ created: IDataObject } | { adopted: View }> {
	const settled = await settle(create());
	if (!settled.ok) {
		if (isDuplicate(settled.error)) return { adopted: await adopt(env, state, attempt, settled.error) };
		throw settled.error;
	}
	attempt.r = String(settled.value.onusReference ?? '') || undefined;
	return { created: settled.value };
}

/** Adopts the record that already holds an attempt's reference (double submit, second tab). */
export async function adopt(env: CheckoutEnv, state: CheckoutState, attempt: Attempt, error: ErrorLike): Promise<View> {
	let record = error.context?.existingRecord as IDataObject | undefined;
	if (!record || typeof record.onusReference !== 'string') {
		record = await findPayinByReference(env, env.config.businessId, attemptReference(state, attempt.n));
	}
	if (!record || typeof record.onusReference !== 'string') throw error;
	const fresh = (await readAttempt(env, state, { ...attempt, r: record.onusReference })) ?? record;
	const m = methodOfChannel(fresh.paymentChannel) ?? attempt.m;
	return await current(env, withAttempt({ ...state, m }, adoptedAttempt(attempt.n, m, fresh)));
}

/** The attempt a payin found by its reference stands for: its method and the step its customer is on (the method's `adopted`). */
export function adoptedAttempt(n: number, m: Attempt['m'], payin: IDataObject): Attempt {
	return { n, m, r: String(payin.onusReference), ...methodById(m)?.adopted(payin) };
}
