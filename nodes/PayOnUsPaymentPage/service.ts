import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { findByReference, PAYMENT_REQUESTS } from '../shared/moneyMoving';
import { statusOf } from '../shared/errors';
import * as payins from '../shared/payins';
import { CheckoutInputError } from './checkout/input';

/**
 * The Payment Page's calls to the service, typed: reading a checkout's
 * payins here; each method's payin call in its module (./methods/), over
 * `inPage`. All are the payin calls of nodes/shared/payins (the ones the
 * PayOnUs node's operations make), each checking its body before anything is sent, with
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

/** A call, its refused body in the page's words (every payin call of the methods goes through it: ./methods/). */
export async function inPage<T>(call: Promise<T>): Promise<T> {
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
