import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { findByReference, PAYMENT_REQUESTS } from '../shared/moneyMoving';
import { statusOf } from '../shared/errors';
import * as payins from '../shared/payins';
import { CheckoutInputError } from './checkout/input';

/**
 * Every call the Payment Page makes to the service, in one place, typed:
 * the payin calls of nodes/shared/payins (the ones the PayOnUs node's
 * operations make), each checking its body before anything is sent, with
 * the same money-moving safety (never resent blindly; a lost answer is
 * looked up by reference; a duplicate reference is a 409 carrying the record
 * that holds it). Errors pass up unchanged (the transport's messages are
 * already safe to show), but for a body a call refuses: `inPageWords`.
 */

/** What a call needs: the page's client (the bounded one of request/bounds.ts). */
export interface PayOnUsCaller {
	client: PayOnUsClient;
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The outcome of a call as a value. */
export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	try {
		return { ok: true, value: await promise };
	} catch (error) {
		return { ok: false, error };
	}
}

export interface ErrorLike {
	httpCode?: unknown;
	context?: { existingRecord?: unknown };
	message?: unknown;
	description?: unknown;
}

/** A 409: the reference is already held by a record (carried in `context.existingRecord` when known). */
export function isDuplicate(error: unknown): error is ErrorLike {
	return statusOf(error) === 409;
}

/**
 * A body a call refused, in the words the page shows the buyer (a 400 on
 * the page): `<field path>: <the schema's message>` of the first field,
 * e.g. "currency: must be one of the currencies PayOnUs documents...".
 * Any other error passes unchanged.
 */
export function inPageWords(error: unknown): unknown {
	if (!(error instanceof payins.PayinInputError)) return error;
	const issue = error.issues[0];
	return new CheckoutInputError(`${issue ? payins.issuePath(issue) : 'input'}: ${issue?.message ?? 'invalid'}`);
}

/** A call, its refused body in the page's words. */
async function inPage<T>(call: Promise<T>): Promise<T> {
	try {
		return await call;
	} catch (error) {
		throw inPageWords(error);
	}
}

// ---------- payins of the checkout ----------

/** The payin holding a merchant reference (for this business), or undefined. */
export async function findPayinByReference(
	caller: PayOnUsCaller,
	businessId: string,
	reference: string,
): Promise<IDataObject | undefined> {
	return await findByReference(caller.client, PAYMENT_REQUESTS, businessId, reference);
}

/** The payin by onusReference (Get Payment's record); undefined when PayOnUs answers 404. */
export async function getPayin(
	caller: PayOnUsCaller,
	businessId: string,
	onusReference: string,
): Promise<IDataObject | undefined> {
	const settled = await settle(inPage(payins.getPayin(caller.client, businessId, onusReference)));
	if (settled.ok) return settled.value;
	if (statusOf(settled.error) === 404) return undefined;
	throw settled.error;
}

/** Bank transfer: a one-time account to pay into. */
export async function createDynamicAccount(caller: PayOnUsCaller, body: payins.DynamicAccountBody): Promise<IDataObject> {
	return await inPage(payins.createDynamicAccount(caller.client, body));
}

/** TEST MODE only: the sandbox pretends the customer paid a dynamic account (refused with a production credential). */
export async function simulatePayment(caller: PayOnUsCaller, body: payins.SimulateBody): Promise<void> {
	await inPage(payins.simulatePayment(caller.client, body));
}

/** Card: the encrypted card data charged. */
export async function chargeCard(caller: PayOnUsCaller, body: payins.CardChargeBody): Promise<IDataObject> {
	return await inPage(payins.chargeCard(caller.client, body));
}

/** Mobile money: a prompt on the customer's phone. */
export async function mobileMoneyCollection(caller: PayOnUsCaller, body: payins.MobileMoneyBody): Promise<IDataObject> {
	return await inPage(payins.mobileMoneyCollection(caller.client, body));
}

/** EFT: the customer authorises the payment at their bank's page, then comes back to `redirectUrl`. */
export async function eftPayment(caller: PayOnUsCaller, body: payins.EftBody): Promise<IDataObject> {
	return await inPage(payins.eftPayment(caller.client, body));
}

/** The customer steps of a card payment (PIN/OTP) and a mobile money OTP: sent once, never retried. */
export { completeCardPayment, verifyMobileMoneyOtp } from '../shared/api';
