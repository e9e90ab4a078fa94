import type { IDataObject } from 'n8n-workflow';
import { notPaidItem, notPaidKey, paidItem, type NotPaidOutcome } from './items';
import { checkoutReference, type Attempt, type CheckoutState } from './sealedState';
import { askedNow, attemptPrice } from './terms';
import type { CheckoutEnv } from './types';

/**
 * What a checkout hands the workflow, as a request sees it: the Paid item
 * (once per checkout) and, with the option on, a Not Paid item (a failed
 * attempt, or an expired checkout the customer had filled in; a visitor who
 * never gave an e-mail is not a checkout). Whether this request is the one
 * that emits it is the page's claim (../request/emittedCheckouts.ts).
 */

/**
 * A payment made at a price the page no longer asks (the merchant changed it
 * after the buyer's payin was created, or the business: ./terms.ts) is money the buyer paid:
 * it is emitted like any other, with `pagePriceChanged: true` (its `amount`
 * is what the buyer was asked and paid), never dropped.
 */
export function emitPaid(env: Pick<CheckoutEnv, 'emit' | 'now' | 'config'>, state: CheckoutState, attempt: Attempt, record: IDataObject): void {
	const item = paidItem(state, attempt, record, env.now());
	const { amt, cur } = attemptPrice(state, attempt);
	if (!askedNow(env.config, amt, cur) || (attempt.b !== undefined && attempt.b !== env.config.businessId)) item.pagePriceChanged = true;
	env.emit(item, checkoutReference(state));
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
