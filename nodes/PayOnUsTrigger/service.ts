import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { findCardToken, findLink, findPayment, findTransfer, getLink, getPayment } from '../shared/api';
import { statusOf } from '../shared/errors';
import { isSafeId } from './notification';

/**
 * Every read the PayOnUs Trigger makes of the service, in one place
 * (confirm.ts and tokenization.ts call these, never `client.request`
 * themselves). Each returns the service's record as read, or undefined when
 * the service has none; any other failure is thrown to the caller.
 */

/** How a confirmation reaches the service: the client (created on first use) and the Merchant ID to read with. */
export interface ServiceAccess {
	client: () => Promise<PayOnUsClient>;
	/** The trigger's Merchant ID, else the credential's default, else undefined. */
	merchantId: (client: PayOnUsClient) => string | undefined;
}

/** True for the transport's "404 Not Found". */
export function isNotFound(error: unknown): boolean {
	return statusOf(error) === 404;
}

/**
 * The payin holding this onusReference, or undefined:
 * GET /api/v1/payment-requests?onusReference=<ref> (the documented filter),
 * then, when that finds nothing and the notification names a business, the
 * per-business status query GET /api/v1/payment-requests/businesses/{id}.
 */
export async function readPayin(
	client: PayOnUsClient,
	onusReference: string,
	businessHint: string | undefined,
): Promise<IDataObject | undefined> {
	const found = await findPayment(client, onusReference, 20);
	if (found) return found;
	if (!isSafeId(businessHint)) return undefined;
	try {
		const record = await getPayment(client, businessHint, onusReference);
		return record && record.onusReference === onusReference ? record : undefined;
	} catch (error) {
		if (isNotFound(error)) return undefined;
		// Anything else (unreachable, 5xx...) is the caller's "could not be read".
		return await Promise.reject(error);
	}
}

/** The transfer holding this onusReference, or undefined: GET /api/v1/transfer-requests (needs a Merchant ID). */
export async function readTransfer(
	client: PayOnUsClient,
	merchantId: string,
	onusReference: string,
): Promise<IDataObject | undefined> {
	return await findTransfer(client, merchantId, onusReference, 30);
}

/**
 * A card tokenization link: GET /api/v1/card-tokenization-links/{id}?businessId=
 * (no Merchant ID needed). The record by id may not carry `cardTokenId`; the
 * search items do, so with a Merchant ID the link is also looked up in
 * GET /api/v1/card-tokenization-links?merchantId=&id= for its card token and
 * status. A 404 is thrown (the caller tells a made-up link from an outage).
 */
export async function readTokenizationLink(
	client: PayOnUsClient,
	linkId: string,
	businessId: string,
	merchantId: string | undefined,
): Promise<IDataObject | undefined> {
	let link = await getLink(client, businessId, linkId);
	if (link && (link.cardTokenId === undefined || link.cardTokenId === null) && merchantId) {
		const found = await findLink(client, merchantId, linkId, 5);
		if (found) link = { ...link, cardTokenId: found.cardTokenId, status: found.status ?? link.status };
	}
	return link;
}

/**
 * The card token a tokenization completion created, for its creation date
 * (the date of the completion, rule 3): GET /api/v1/card-tokens?merchantId=&id=
 * (needs a Merchant ID). Undefined when the search does not list it (deleted
 * tokens are not listed); any other failure is thrown.
 */
export async function readCardToken(
	client: PayOnUsClient,
	merchantId: string,
	cardTokenId: string,
): Promise<IDataObject | undefined> {
	return await findCardToken(client, merchantId, cardTokenId, 5);
}
