import type { IDataObject } from 'n8n-workflow';
import { methodById, methodOfChannel } from '../methods';
import { paidItem } from './items';
import { mismatches } from './paid';
import { checkoutReference, type Attempt, type CheckoutState } from './sealedState';
import { askedNow } from './terms';
import type { PageConfig } from './types';

/**
 * A checkout's payment decided from the service's record alone (pure), for
 * the notification path (../request/notify.ts), where no buyer brings the
 * sealed state: the same decision as ./paid.ts (rule 1: SUCCESSFUL, a
 * service reference of the method's kind, the attempt's reference, the
 * page's business and currency, the full amount paid, an absent field never
 * agreeing) with what the sealed state would have said taken from what the
 * page itself sent the service when it created the payin: the amount (the
 * page created the payin with the checkout's amount) and the customer's
 * e-mail, phone and name as the service recorded them. The item is the
 * same Paid item (./items.ts), its customer fields from the record.
 */

export type RecordDecision =
	| { paid: true; item: IDataObject; checkoutRef: string }
	| { paid: false; reason: string; warning?: string };

export function paidFromRecord(
	record: IDataObject,
	attemptOf: { id: string; n: number },
	config: Pick<PageConfig, 'businessId' | 'currency' | 'methods' | 'amountMode' | 'amount' | 'minAmount' | 'maxAmount'>,
	now: number,
): RecordDecision {
	const state: CheckoutState = { v: 1, id: attemptOf.id, iat: 0, exp: 0, cur: config.currency, ...customerOf(record) };
	const ref = checkoutReference(state);
	const status = String(record.paymentStatus ?? 'missing');
	if (record.paymentStatus !== 'SUCCESSFUL') return { paid: false, reason: `payin is ${status}, not SUCCESSFUL` };
	const m = methodOfChannel(record.paymentChannel);
	if (!m || !config.methods.includes(m)) {
		const reason = `payin's paymentChannel ${String(record.paymentChannel)} is not a method this page offers`;
		return { paid: false, reason, warning: warning(record, ref, reason) };
	}
	if (typeof record.amount === 'number' && Number.isFinite(record.amount)) state.amt = record.amount;
	const attempt: Attempt = { n: attemptOf.n, m };
	const problems = mismatches(state, attempt, record, config.businessId);
	if (problems.length > 0) {
		const reason = `payin does not match the checkout (${problems.join(', ')})`;
		return { paid: false, reason, warning: warning(record, ref, reason) };
	}
	const item = paidItem(state, attempt, record, now);
	// paid at a price the page no longer asks: marked as the browser path marks it (./outcomes.ts)
	if (!askedNow(config, state.amt, state.cur)) item.pagePriceChanged = true;
	return { paid: true, item, checkoutRef: ref };
}

/** The customer fields the page sent with the payin, as the service recorded them. */
function customerOf(record: IDataObject): Pick<CheckoutState, 'em' | 'nm' | 'ph'> {
	const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
	// A bank transfer's accountName is the dynamic account's name, not the buyer's (its method says so).
	const accountName = methodById(methodOfChannel(record.paymentChannel))?.accountNameIsBuyer === false ? undefined : text(record.accountName);
	const name = text(record.customerName) ?? accountName;
	return { em: text(record.email) ?? text(record.customerEmail), nm: name, ph: text(record.mobileNumber) ?? text(record.customerPhone) };
}

function warning(record: IDataObject, ref: string, reason: string): string {
	return `PayOnUs Payment Page: payin ${String(record.onusReference)} of checkout ${ref}, forwarded from a notification, is not treated as paid: ${reason}`;
}
