import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { PATHS } from '../shared/api';
import { findByReference, PAYMENT_REQUESTS } from '../shared/moneyMoving';
import { statusOf } from '../shared/errors';
import type { OperationContext, PayOnUsOperation } from '../PayOnUs/resources/types';
import { chargeCard } from '../PayOnUs/resources/payin/chargeCard';
import { createDynamicAccount } from '../PayOnUs/resources/payin/createDynamicAccount';
import { getPayment } from '../PayOnUs/resources/payin/getPayment';
import { mobileMoneyCollection } from '../PayOnUs/resources/payin/mobileMoneyCollection';
import { postPayin } from '../PayOnUs/resources/payin/shared';
import { CheckoutInputError } from './input';

/**
 * Every call the Payment Page makes to the service, in one place. Payins are
 * created through the PayOnUs node's own operation handlers (same
 * validation, same money-moving safety: never resent blindly; a duplicate
 * reference is a 409 carrying the record that holds it). Errors pass up
 * unchanged: the transport's messages are already safe to show.
 */

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

function opCtx(client: PayOnUsClient): OperationContext {
	return {
		client,
		itemIndex: 0,
		item: {},
		getBinary: async () => {
			throw new Error('no binary data on the payment page');
		},
	};
}

/** Validates with the handler's own schema, then runs it. */
async function runOperation(
	client: PayOnUsClient,
	op: PayOnUsOperation,
	input: IDataObject,
): Promise<IDataObject> {
	const parsed = op.schema.safeParse(input);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new CheckoutInputError(
			`${issue?.path.join('.') ?? 'input'}: ${issue?.message ?? 'invalid'}`,
		);
	}
	const out = await op.execute(opCtx(client), parsed.data);
	return (Array.isArray(out) ? out[0] : out) ?? {};
}

// ---------- payins of the checkout ----------

/** The payin holding a merchant reference (for this business), or undefined. */
export async function findPayinByReference(
	client: PayOnUsClient,
	businessId: string,
	reference: string,
): Promise<IDataObject | undefined> {
	return await findByReference(client, PAYMENT_REQUESTS, businessId, reference);
}

/** Get Payment by onusReference; undefined when PayOnUs answers 404. */
export async function getPayin(
	client: PayOnUsClient,
	businessId: string,
	onusReference: string,
): Promise<IDataObject | undefined> {
	const settled = await settle(runOperation(client, getPayment, { businessId, onusReference }));
	if (settled.ok) return settled.value;
	if (statusOf(settled.error) === 404) return undefined;
	throw settled.error;
}

/** Bank transfer: a one-time account (Create Dynamic Account). */
export async function createBankTransferPayin(client: PayOnUsClient, input: IDataObject): Promise<IDataObject> {
	return await runOperation(client, createDynamicAccount, input);
}

/** Card: the encrypted card data charged (Charge Card). */
export async function createCardPayin(client: PayOnUsClient, input: IDataObject): Promise<IDataObject> {
	return await runOperation(client, chargeCard, input);
}

/** Mobile money: a prompt on the customer's phone (Mobile Money Collection). */
export async function createMobileMoneyPayin(client: PayOnUsClient, input: IDataObject): Promise<IDataObject> {
	return await runOperation(client, mobileMoneyCollection, input);
}

/**
 * EFT. The EFT operation's handler has no return address; the same
 * money-moving primitive it uses, with `redirectUrl` added.
 */
export async function createEftPayin(
	client: PayOnUsClient,
	body: Parameters<typeof postPayin>[2],
): Promise<IDataObject> {
	return await postPayin(client, PATHS.eftPayment, body);
}

/** The customer steps of a card payment (PIN/OTP) and a mobile money OTP: sent once, never retried. */
export { completeCardPayment, verifyMobileMoneyOtp } from '../shared/api';

// ---------- the sandbox's card key (config.ts) ----------

/** The local sandbox's card encryption key (GET /_sandbox/public-key); throws when it cannot be read. */
export async function readSandboxPublicKey(
	httpRequest: (options: IHttpRequestOptions) => Promise<unknown>,
	baseUrl: string,
): Promise<string> {
	const answer = (await httpRequest({
		method: 'GET',
		url: `${baseUrl}/_sandbox/public-key`,
		json: true,
		timeout: 10_000,
	})) as IDataObject;
	return String((answer?.data as IDataObject | undefined)?.publicKey ?? '');
}
