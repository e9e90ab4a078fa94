import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { getPayment, PATHS } from '../api';
import { toPayin } from '../records';
import {
	cardChargeBody,
	checked,
	dynamicAccountBody,
	eftBody,
	givenCustomer,
	mobileMoneyBody,
	payinKey,
	simulateBody,
	type CardChargeBody,
	type DynamicAccountBody,
	type EftBody,
	type MobileMoneyBody,
	type PayinKey,
	type SimulateBody,
} from './bodies';
import { postPayin } from './post';

/**
 * The payin calls the PayOnUs node's operations and the Payment Page both
 * make, typed. Each checks its input with its schema (./bodies.ts) before
 * anything is sent (a PayinInputError otherwise), then sends it; a payin is
 * sent through ./post.ts (never resent blindly; a lost answer is looked up
 * by reference; a reference already used is a 409 carrying the record that
 * holds it). Service errors pass up as the transport threw them. Each
 * returns the service's answer (amounts as numbers); what to show is the
 * caller's.
 */

/** One payin by its onusReference, in the record shape (nodes/shared/records.ts); a 404 is thrown. */
export async function getPayin(client: PayOnUsClient, businessId: string, onusReference: string): Promise<IDataObject> {
	const key = checked<PayinKey>(payinKey, { businessId, onusReference });
	return toPayin((await getPayment(client, key.businessId, key.onusReference)) ?? {});
}

/** A one-time NGN account the customer pays one exact amount into (sets up a collection). */
export async function createDynamicAccount(client: PayOnUsClient, input: DynamicAccountBody): Promise<IDataObject> {
	const body = checked<DynamicAccountBody>(dynamicAccountBody, input);
	return await postPayin(client, PATHS.dynamicAccount, {
		amount: body.amount,
		reference: body.reference,
		businessId: body.businessId,
		customer: givenCustomer(body.customer),
	});
}

/** A card charged (MOVES MONEY); the answer says which customer step it needs (authTypeRequired). */
export async function chargeCard(client: PayOnUsClient, input: CardChargeBody): Promise<IDataObject> {
	const body = checked<CardChargeBody>(cardChargeBody, input);
	return await postPayin(client, PATHS.cardPayments, {
		cardData: body.cardData,
		amount: body.amount,
		currency: body.currency,
		reference: body.reference,
		narration: body.narration ?? '',
		businessId: body.businessId,
		customer: givenCustomer(body.customer),
		...(body.redirectUrl ? { redirectUrl: body.redirectUrl } : {}),
	});
}

/** A mobile money prompt on the customer's phone (MOVES MONEY); the answer says whether an OTP comes first (otpRequired). */
export async function mobileMoneyCollection(client: PayOnUsClient, input: MobileMoneyBody): Promise<IDataObject> {
	const body = checked<MobileMoneyBody>(mobileMoneyBody, input);
	// The record must also show the phone the customer approves on (a payin's proof).
	return await postPayin(
		client,
		PATHS.mobileMoneyCollection,
		{
			amount: body.amount,
			reference: body.reference,
			businessId: body.businessId,
			narration: body.narration ?? '',
			momoNetwork: body.momoNetwork,
			customer: givenCustomer(body.customer),
			...(body.initiatingCode ? { initiatingCode: body.initiatingCode } : {}),
		},
		{ customerPhone: true },
	);
}

/** An EFT payin in ZAR (MOVES MONEY); the answer's redirectUrl is the bank page the customer authorises it on. */
export async function eftPayment(client: PayOnUsClient, input: EftBody): Promise<IDataObject> {
	const body = checked<EftBody>(eftBody, input);
	return await postPayin(client, PATHS.eftPayment, {
		amount: body.amount,
		reference: body.reference,
		narration: body.narration ?? '',
		businessId: body.businessId,
		bank: body.bank,
		customer: givenCustomer(body.customer),
		...(body.redirectUrl ? { redirectUrl: body.redirectUrl } : {}),
	});
}

/** Refused before sending: Simulate Payment with a production credential. */
export class SandboxOnlyError extends Error {
	constructor() {
		super(
			'Simulate Dynamic Account Payment only works in the sandbox, and this PayOnUs credential points at production. Use a sandbox credential; nothing was sent.',
		);
		this.name = 'SandboxOnlyError';
	}
}

/**
 * Sandbox only: a dynamic account paid, as if by the customer (moves no real
 * money). Refused before sending when the credential points at production;
 * a custom base URL (e.g. the local sandbox) is allowed: the service itself
 * refuses there if it is not a sandbox. Returns the body sent and the
 * service's answer (null when it sends none).
 */
export async function simulatePayment(
	client: PayOnUsClient,
	input: SimulateBody,
): Promise<{ sent: SimulateBody; answer: IDataObject | null }> {
	const body = checked<SimulateBody>(simulateBody, input);
	if (client.environment === 'production') throw new SandboxOnlyError();
	const sent: SimulateBody = {
		onusReference: body.onusReference,
		accountNumber: body.accountNumber,
		amount: body.amount,
		paymentStatus: body.paymentStatus,
		forDynamicAccount: body.forDynamicAccount,
	};
	const answer = await client.request<IDataObject | null>({ method: 'POST', path: PATHS.fundNgnAccount, body: { ...sent } });
	return { sent, answer };
}
