import type { IDataObject } from 'n8n-workflow';
import { attemptReference, checkoutReference, type Attempt, type CheckoutState } from './sealedState';

/**
 * The items the page hands n8n, built from what the service said (pure).
 * Output names are public: saved workflows read them.
 */

function customer(state: CheckoutState): IDataObject {
	return {
		customerEmail: state.em ?? '',
		...(state.nm ? { customerName: state.nm } : {}),
		...(state.ph ? { customerPhone: state.ph } : {}),
	};
}

/** "Paid": the SUCCESSFUL payin as Get Payment answered it, with the checkout's fields. */
export function paidItem(state: CheckoutState, attempt: Attempt, record: IDataObject, now: number): IDataObject {
	const item: IDataObject = { ...record };
	// The record names of the other payment outputs (nodes/shared/records.ts on money-edges).
	if (item.merchantReference === undefined && item.reference !== undefined)
		item.merchantReference = item.reference;
	if (item.amount === undefined && item.transactionAmount !== undefined)
		item.amount = item.transactionAmount;
	delete item.redirectUrl; // our own return address (holds a checkout token)
	item.merchantCheckoutReference = checkoutReference(state);
	item.paymentMethod = attempt.m;
	item.customerEmail = state.em ?? '';
	if (state.nm) item.customerName = state.nm;
	if (state.ph) item.customerPhone = state.ph;
	item.checkoutAttempt = attempt.n;
	item.confirmedWith = 'Get Payment';
	item.confirmedAt = new Date(now).toISOString();
	return item;
}

export type NotPaidOutcome = 'failed' | 'expired';

/** "Not Paid": a failed attempt (its payin) or an expired checkout (its attempts). */
export function notPaidItem(
	state: CheckoutState,
	businessId: string,
	outcome: NotPaidOutcome,
	now: number,
	attempt?: Attempt,
	record?: IDataObject,
): IDataObject {
	let item: IDataObject;
	if (outcome === 'failed' && attempt && record) {
		item = { ...record };
		delete item.redirectUrl;
		if (item.merchantReference === undefined && item.reference !== undefined)
			item.merchantReference = item.reference;
		item.reason = String(record.providerResponse ?? record.message ?? 'failed');
		item.paymentMethod = attempt.m;
		item.checkoutAttempt = attempt.n;
	} else {
		item = {
			businessId,
			amount: state.amt,
			currency: state.cur,
			expiredAt: new Date(state.exp).toISOString(),
			attempts: (state.a ?? []).map((a) => ({
				checkoutAttempt: a.n,
				paymentMethod: a.m,
				merchantReference: attemptReference(state, a.n),
				onusReference: a.r ?? null,
			})),
		};
	}
	item.merchantCheckoutReference = checkoutReference(state);
	item.outcome = outcome;
	Object.assign(item, customer(state));
	item.observedAt = new Date(now).toISOString();
	return item;
}

/** The key a Not Paid item is emitted once under. */
export function notPaidKey(state: CheckoutState, outcome: NotPaidOutcome, attempt?: Attempt): string {
	const ref = checkoutReference(state);
	return outcome === 'failed' ? `${ref}:failed:${attempt?.n}` : `${ref}:expired`;
}
