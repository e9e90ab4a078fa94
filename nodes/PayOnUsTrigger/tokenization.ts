import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import type { Verdict } from './emit';
import { receivedItem } from './items';
import type { Notification } from './notification';
import { isNotFound, readTokenizationLink, type ServiceAccess } from './service';

/**
 * Step 5 of receive.ts for a card tokenization notification ("Confirm
 * Tokenization Through the API"). These notifications are not signed: by
 * default the link is read by id (businessId only, no Merchant ID needed)
 * and the event is Confirmed only if the link is COMPLETED for the same
 * business and, when a Merchant ID allows reading it, the same card token
 * (else `cardTokenIdChecked: false`). A link PayOnUs does not have (404) is
 * a made-up notification (`forged`): a warning, no execution. Anything else
 * (another status, business or token; the API unreachable) goes to Not
 * Confirmed (PayOnUs sends this event once and never retries).
 */

export interface LinkConfirmation {
	confirmed: boolean;
	reason?: string;
	/** False when the link record carried no card token to compare with (the event's cardTokenId is then unverified). */
	tokenChecked?: boolean;
}

/**
 * Decides whether a fetched tokenization link confirms the event: the link
 * must be COMPLETED, of the same business, and, when the record carries a
 * card token, name the same one. With `tokenOptional` (no way to read the
 * card token: the link record by id carries none in the spec and the search
 * needs a Merchant ID), a COMPLETED link of the same business confirms the
 * event with `tokenChecked: false`.
 */
export function confirmLink(
	body: IDataObject,
	link: IDataObject | undefined,
	options: { tokenOptional?: boolean } = {},
): LinkConfirmation {
	if (link === undefined || link === null) return { confirmed: false, reason: 'link not found' };
	if (String(link.status ?? '').toUpperCase() !== 'COMPLETED') {
		return { confirmed: false, reason: `link status is ${String(link.status ?? 'unknown')}` };
	}
	if (link.id !== undefined && String(link.id) !== String(body.cardTokenizationLinkId)) {
		return { confirmed: false, reason: 'link id differs' };
	}
	if (link.businessId !== undefined && String(link.businessId) !== String(body.businessId)) {
		return { confirmed: false, reason: 'business differs' };
	}
	if (link.cardTokenId === undefined || link.cardTokenId === null) {
		if (options.tokenOptional) return { confirmed: true, tokenChecked: false };
		return { confirmed: false, reason: 'link carries no card token' };
	}
	if (String(link.cardTokenId) !== String(body.cardTokenId ?? '')) {
		return { confirmed: false, reason: 'card token differs' };
	}
	return { confirmed: true, tokenChecked: true };
}

export interface TokenizationVerdict extends LinkConfirmation {
	/** PayOnUs has no such link for that business. */
	forged?: boolean;
}

/** Reads the link back and compares it with the notification. A 404 marks a made-up notification; any other failure is "could not read". */
export async function confirmTokenization(
	client: PayOnUsClient,
	body: IDataObject,
	merchantId: string | undefined,
): Promise<TokenizationVerdict> {
	const linkId = body.cardTokenizationLinkId as string;
	const businessId = String(body.businessId ?? '');
	try {
		const link = await readTokenizationLink(client, linkId, businessId, merchantId);
		return confirmLink(body, link, { tokenOptional: !merchantId });
	} catch (error) {
		return unreadable(error);
	}
}

/** The verdict when the link (or the client to read it with) could not be had. */
export function unreadable(error: unknown): TokenizationVerdict {
	if (isNotFound(error)) return { confirmed: false, reason: 'link not found', forged: true };
	return { confirmed: false, reason: `could not read the link through the API (${(error as Error).message})` };
}

/** What the link's verdict means for the event (pure). */
export function judgeLink(notification: Notification, verdict: TokenizationVerdict): Verdict {
	if (!verdict.confirmed) {
		// PayOnUs has no such link for that business: a made-up notification
		// (unsigned, anyone can post one). Logged, and no execution, so forged
		// posts cannot flood the execution list.
		if (verdict.forged === true || verdict.reason === 'link not found') return { kind: 'forged' };
		return { kind: 'notConfirmed', item: receivedItem(notification, 'none'), reason: verdict.reason ?? 'not confirmed' };
	}
	const item = receivedItem(notification, 'api');
	if (verdict.tokenChecked !== false) return { kind: 'confirmed', item };
	item.unsignedFields = ['cardTokenId'];
	item.cardTokenIdChecked = false;
	return { kind: 'confirmed', item, cardTokenUnchecked: true };
}

/** Confirms a tokenization notification through the API. */
export async function confirmLinkEvent(notification: Notification, service: ServiceAccess): Promise<Verdict> {
	let verdict: TokenizationVerdict;
	try {
		const client = await service.client();
		verdict = await confirmTokenization(client, notification.body, service.merchantId(client));
	} catch (error) {
		verdict = unreadable(error);
	}
	return judgeLink(notification, verdict);
}
