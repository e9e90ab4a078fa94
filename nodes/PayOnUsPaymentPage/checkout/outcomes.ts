import type { IDataObject } from 'n8n-workflow';
import { notPaidItem, notPaidKey, paidItem, type NotPaidOutcome } from './items';
import { checkoutReference, type Attempt, type CheckoutState } from './sealedState';
import type { CheckoutEnv } from './types';

/**
 * What a checkout hands the workflow, as a request sees it: the Paid item
 * (once per checkout) and, with the option on, a Not Paid item (a failed
 * attempt, or an expired checkout the customer had filled in; a visitor who
 * never gave an e-mail is not a checkout). Whether this request is the one
 * that emits it is the page's claim (../request/emittedCheckouts.ts).
 */

export function emitPaid(env: Pick<CheckoutEnv, 'emit' | 'now'>, state: CheckoutState, attempt: Attempt, record: IDataObject): void {
	env.emit(paidItem(state, attempt, record, env.now()), checkoutReference(state));
}

/**
 * Only as far as a request sees it: a checkout nobody opens again is never
 * looked at (the node has no timers; PENDING payins with references PP-...
 * can be found with List Payments).
 */
export function emitNotPaid(
	env: Pick<CheckoutEnv, 'emitNotPaid' | 'now' | 'config'>,
	state: CheckoutState,
	outcome: NotPaidOutcome,
	attempt?: Attempt,
	record?: IDataObject,
): void {
	if (!env.emitNotPaid || state.amt === undefined) return;
	const item = notPaidItem(state, env.config.businessId, outcome, env.now(), attempt, record);
	env.emitNotPaid(item, notPaidKey(state, outcome, attempt));
}
