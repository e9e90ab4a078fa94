import type { IDataObject } from 'n8n-workflow';
import { compare } from '../../shared/moneyMoving/match';
import { unproven } from '../../shared/moneyMoving/proof';
import { methodById } from '../methods';
import { attemptReference, checkoutReference, type Attempt, type CheckoutState } from './sealedState';
import { attemptPrice } from './terms';

/**
 * When a checkout is paid (pure): only when Get Payment answers SUCCESSFUL
 * for one of its attempts and the record proves it is that attempt's payin
 * (rule 1, "a success is proven", shared/moneyMoving/proof.ts: a service
 * reference of the method's kind (its `proof`, ../methods/), and the checkout's reference, business,
 * amount and currency shown, an absent field never agreeing), with the full
 * amount paid. The browser's word (a return URL's `status=`, a click on
 * "I have paid") is never taken.
 */

/** Paid, or not (with the warning to log when a SUCCESSFUL payin does not match the checkout). */
export type PaidDecision = { paid: true } | { paid: false; warning?: string };

export function decidePaid(state: CheckoutState, attempt: Attempt, record: IDataObject, businessId: string): PaidDecision {
	if (record.paymentStatus !== 'SUCCESSFUL') return { paid: false };
	const problems = mismatches(state, attempt, record, businessId);
	if (problems.length === 0) return { paid: true };
	return {
		paid: false,
		warning: `PayOnUs Payment Page: payin ${String(record.onusReference)} of checkout ${checkoutReference(state)} is SUCCESSFUL but does not match the checkout (${problems.join(', ')}); not treated as paid`,
	};
}

/** Whether a SUCCESSFUL payin is this checkout's payment: the reasons it is not (empty: it is). */
export function mismatches(
	state: CheckoutState,
	attempt: Attempt,
	record: IDataObject,
	businessId: string,
): string[] {
	// The amount and currency this attempt's payin was created for (the checkout's, for attempts sealed before they carried them).
	const { amt, cur } = attemptPrice(state, attempt);
	const expected = { reference: attemptReference(state, attempt.n), businessId, amount: amt ?? NaN, ...(cur ? { currency: cur } : {}) };
	// What the record must show to be this attempt's payin (an absent field is never agreement), then its values.
	const problems = [...unproven(methodById(attempt.m)?.call.proof, record, { reference: expected.reference, expected }, 'record'), ...compare(expected, record)];
	if (amt === undefined) problems.push('the checkout has no amount');
	// SUCCESSFUL is not enough: the service must say the full amount was paid
	// (the spec lets a payin's amountPaid differ from its amount and says
	// nothing of a partial payment's status). No amountPaid: not decided.
	const paid = record.amountPaid;
	if (typeof paid !== 'number' || !Number.isFinite(paid))
		problems.push(`amountPaid ${paid === undefined ? 'missing' : String(paid)}`);
	else if (amt !== undefined && paid < amt) problems.push(`amountPaid ${paid} of ${amt}`);
	return problems;
}
