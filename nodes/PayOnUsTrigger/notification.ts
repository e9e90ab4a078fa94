import type { IDataObject } from 'n8n-workflow';

/**
 * What a PayOnUs notification is (spec, Events): its event names, the fields
 * its `hash` signs, the status and reference it reports. Pure; every step of
 * receive.ts reads notifications through these.
 */

/** Event names as the service spells them. */
export const EVENTS = {
	collection: 'COLLECTION',
	payout: 'PAYOUT',
	refund: 'REFUND',
	cardTokenizationLinkCompleted: 'card_tokenization_link.completed',
} as const;
export type EventName = (typeof EVENTS)[keyof typeof EVENTS];

/** A notification as read (read.ts): its event, its body, and when it came in. */
export interface Notification {
	event: EventName;
	body: IDataObject;
	receivedAt: Date;
}

/**
 * Which event a body is. COLLECTION and PAYOUT carry `type`; tokenization
 * carries `event`. The refund event's name is not in the specification: any
 * `type` containing REFUND is taken as one (and must be signed like a payout).
 */
export function classify(body: IDataObject): EventName | undefined {
	if (typeof body.event === 'string' && body.event.trim().toLowerCase() === EVENTS.cardTokenizationLinkCompleted) {
		return EVENTS.cardTokenizationLinkCompleted;
	}
	if (typeof body.type !== 'string') return undefined;
	const type = body.type.trim().toUpperCase();
	if (type === 'COLLECTION') return EVENTS.collection;
	if (type === 'PAYOUT') return EVENTS.payout;
	if (type.includes('REFUND')) return EVENTS.refund;
	return undefined;
}

/** Events whose authenticity is the `hash` header. */
export function isSigned(event: EventName): boolean {
	return event !== EVENTS.cardTokenizationLinkCompleted;
}

/** The fields the `hash` header covers (spec, Events). */
export const SIGNED_FIELDS = ['accountNumber', 'onusReference', 'paymentStatus'] as const;

/** The status an event reports (paymentStatus, or status for tokenization). */
export function eventStatus(event: EventName, body: IDataObject): string {
	const value = event === EVENTS.cardTokenizationLinkCompleted ? body.status : body.paymentStatus;
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The reference an event is about (onusReference, or the link id). */
export function eventReference(event: EventName, body: IDataObject): string {
	const value = event === EVENTS.cardTokenizationLinkCompleted ? body.cardTokenizationLinkId : body.onusReference;
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

const SAFE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** An id safe to put in a path segment or a query (link ids, business ids). */
export function isSafeId(value: unknown): value is string {
	return typeof value === 'string' && SAFE_ID.test(value);
}
