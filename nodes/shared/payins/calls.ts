import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { getPayment, PATHS } from '../api';
import { toPayin } from '../records';
import { checked, payinKey, simulateBody, type PayinKey, type SimulateBody } from './bodies';

/**
 * The payin calls that move no money, which the PayOnUs node's operations
 * and the Payment Page both make, typed. Each checks its input with its
 * schema (./bodies.ts) before anything is sent (a PayinInputError
 * otherwise). The money-moving payins are declared by their operations and
 * sent by ./post.ts. Service errors pass up as the transport threw them.
 */

/** One payin by its onusReference, in the record shape (nodes/shared/records.ts); a 404 is thrown. */
export async function getPayin(client: PayOnUsClient, businessId: string, onusReference: string): Promise<IDataObject> {
	const key = checked<PayinKey>(payinKey, { businessId, onusReference });
	return toPayin((await getPayment(client, key.businessId, key.onusReference)) ?? {});
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
