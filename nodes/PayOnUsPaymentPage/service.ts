import type { IDataObject, INode } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { PATHS } from '../shared/api';
import { findByReference, PAYMENT_REQUESTS } from '../shared/moneyMoving';
import { statusOf } from '../shared/errors';
import { isInvalidInput, postPayin, runOnce } from '../PayOnUs/run/once';
import { CheckoutInputError } from './checkout/input';

/**
 * Every call the Payment Page makes to the service, in one place. Payins are
 * created and read by the PayOnUs node's own operations, through its
 * runner's entry for another node (runOnce: the operation's schema, then its
 * handler, with the same money-moving safety: never resent blindly; a
 * duplicate reference is a 409 carrying the record that holds it). Errors
 * pass up unchanged (the transport's messages are already safe to show),
 * but for an input the operation refuses: `inPageWords`.
 */

/** What a call needs: the client, and the node the runner's errors name. */
export interface PayOnUsCaller {
	client: PayOnUsClient;
	node: INode;
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
 * An input an operation refused, in the words the page shows the buyer
 * (a 400 on the page): `<field path>: <the schema's message>` of the first
 * field, e.g. "currency: must be one of the currencies PayOnUs documents...".
 * Any other error passes unchanged.
 */
export function inPageWords(error: unknown): unknown {
	if (!isInvalidInput(error)) return error;
	const issue = error.issues[0];
	return new CheckoutInputError(`${issue?.path.join('.') ?? 'input'}: ${issue?.message ?? 'invalid'}`);
}

/** One operation of the PayOnUs node ('payin:getPayment'), its first record. */
async function run(caller: PayOnUsCaller, operation: string, input: IDataObject): Promise<IDataObject> {
	try {
		const [record] = await runOnce(caller, operation, input);
		return record ?? {};
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

/** Get Payment by onusReference; undefined when PayOnUs answers 404. */
export async function getPayin(
	caller: PayOnUsCaller,
	businessId: string,
	onusReference: string,
): Promise<IDataObject | undefined> {
	const settled = await settle(run(caller, 'payin:getPayment', { businessId, onusReference }));
	if (settled.ok) return settled.value;
	if (statusOf(settled.error) === 404) return undefined;
	throw settled.error;
}

/** Bank transfer: a one-time account (Create Dynamic Account). */
export async function createBankTransferPayin(caller: PayOnUsCaller, input: IDataObject): Promise<IDataObject> {
	return await run(caller, 'payin:createDynamicAccount', input);
}

/** TEST MODE only: the sandbox pretends the customer paid a dynamic account (the PayOnUs node's Simulate Payment). */
export async function simulateBankTransferPaid(caller: PayOnUsCaller, input: IDataObject): Promise<IDataObject> {
	return await run(caller, 'payin:simulatePayment', input);
}

/** Card: the encrypted card data charged (Charge Card). */
export async function createCardPayin(caller: PayOnUsCaller, input: IDataObject): Promise<IDataObject> {
	return await run(caller, 'payin:chargeCard', input);
}

/** Mobile money: a prompt on the customer's phone (Mobile Money Collection). */
export async function createMobileMoneyPayin(caller: PayOnUsCaller, input: IDataObject): Promise<IDataObject> {
	return await run(caller, 'payin:mobileMoneyCollection', input);
}

/**
 * EFT. The EFT operation has no return address (a new node parameter would
 * change the PayOnUs node): the payin goes through the money-moving request
 * that operation sends (postPayin, from the runner's entry), with
 * `redirectUrl` added.
 */
export async function createEftPayin(
	caller: PayOnUsCaller,
	body: Parameters<typeof postPayin>[2],
): Promise<IDataObject> {
	return await postPayin(caller.client, PATHS.eftPayment, body);
}

/** The customer steps of a card payment (PIN/OTP) and a mobile money OTP: sent once, never retried. */
export { completeCardPayment, verifyMobileMoneyOtp } from '../shared/api';
