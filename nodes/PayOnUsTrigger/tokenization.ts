import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { changeOf, type Judgement } from '../shared/claim';
import type { Verdict } from './emit';
import { receivedItem } from './items';
import { isSafeId, type Notification } from './notification';
import { isNotFound, readCardToken, readTokenizationLink, type ServiceAccess } from './service';

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
 *
 * Rule 3 (docs/reliability.md#rule-3-an-event-is-new-by-what-changed): a
 * completion is dated by its card token's `createdDate` (the token is made
 * when the link completes), read from the token search (needs a Merchant
 * ID). A completion the trigger's memory no longer holds whose token was
 * created on or before the memory's horizon, or that nothing dates (no
 * Merchant ID, the token not listed), once the memory has let events go,
 * may have been handled already: Unconfirmed with that reason, never
 * Confirmed again.
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
	/** What dates the completion (rule 3): its card token's creation, when it could be read. */
	dated?: { createdDate: string };
	/** Why nothing dates it, when nothing does. */
	undated?: string;
}

/** The completion's date: its card token's `createdDate`, read from the service; else why it cannot be had. */
export async function dateCompletion(
	client: PayOnUsClient,
	cardTokenId: unknown,
	merchantId: string | undefined,
): Promise<Pick<TokenizationVerdict, 'dated' | 'undated'>> {
	if (!merchantId) return { undated: 'no Merchant ID to read its card token with' };
	if (!isSafeId(cardTokenId)) return { undated: 'the notification names no card token to read' };
	let token: IDataObject | undefined;
	try {
		token = await readCardToken(client, merchantId, cardTokenId);
	} catch (error) {
		return { undated: `its card token could not be read (${(error as Error).message})` };
	}
	if (!token) return { undated: 'the service does not list its card token' };
	const createdDate = changeOf({ createdDate: token.createdDate });
	return createdDate === undefined ? { undated: 'its card token carries no readable createdDate' } : { dated: { createdDate } };
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
		const confirmation = confirmLink(body, link, { tokenOptional: !merchantId });
		if (!confirmation.confirmed) return confirmation;
		return { ...confirmation, ...(await dateCompletion(client, body.cardTokenId, merchantId)) };
	} catch (error) {
		return unreadable(error);
	}
}

/** The verdict when the link (or the client to read it with) could not be had. */
export function unreadable(error: unknown): TokenizationVerdict {
	if (isNotFound(error)) return { confirmed: false, reason: 'link not found', forged: true };
	return { confirmed: false, reason: `could not read the link through the API (${(error as Error).message})` };
}

/**
 * What the link's verdict means for the event (pure). A confirmed link is
 * then judged by the memory past its bounds (`judge`, claim.ts) with the
 * completion's date (rule 3): on or before the horizon, or undated once the
 * memory has let events go, it may have been handled already.
 */
export function judgeLink(notification: Notification, verdict: TokenizationVerdict, judge: (record: IDataObject) => Judgement): Verdict {
	if (!verdict.confirmed) {
		// PayOnUs has no such link for that business: a made-up notification
		// (unsigned, anyone can post one). Logged, and no execution, so forged
		// posts cannot flood the execution list.
		if (verdict.forged === true || verdict.reason === 'link not found') return { kind: 'forged' };
		return { kind: 'notConfirmed', item: receivedItem(notification, 'none'), reason: verdict.reason ?? 'not confirmed' };
	}
	const item = receivedItem(notification, 'api');
	if (verdict.tokenChecked === false) {
		item.unsignedFields = ['cardTokenId'];
		item.cardTokenIdChecked = false;
	}
	const decision = judge(verdict.dated ?? {});
	if (decision.known) {
		const why = verdict.dated
			? decision.reason
			: `nothing dates this completion (${verdict.undated ?? 'no card token date'}) and this node's memory no longer covers every event: it may have been handled already`;
		return {
			kind: 'notConfirmed',
			item,
			reason: `not started again: ${why}. Check your records for card token ${String(notification.body.cardTokenId ?? '')} (link ${String(notification.body.cardTokenizationLinkId ?? '')})`,
		};
	}
	return {
		kind: 'confirmed',
		item,
		...(verdict.dated ? { record: verdict.dated } : {}),
		...(verdict.tokenChecked === false ? { cardTokenUnchecked: true } : {}),
	};
}

/** Confirms a tokenization notification through the API, and dates it for the memory (`judge`, claim.ts). */
export async function confirmLinkEvent(
	notification: Notification,
	service: ServiceAccess & { judge: (record: IDataObject) => Judgement },
): Promise<Verdict> {
	let verdict: TokenizationVerdict;
	try {
		const client = await service.client();
		verdict = await confirmTokenization(client, notification.body, service.merchantId(client));
	} catch (error) {
		verdict = unreadable(error);
	}
	return judgeLink(notification, verdict, service.judge);
}
