import type { IDataObject } from 'n8n-workflow';
import { toPayin, toTransfer } from '../shared/records';
import { EVENTS, SIGNED_FIELDS, type EventName, type Notification } from './notification';

/**
 * The items the workflow gets (full; webhook() simplifies them when
 * Simplify is on). Pure. The hash covers accountNumber, onusReference and
 * paymentStatus only: items list those in `verifiedFields` and every other
 * field of the notification in `unsignedFields`; an item confirmed with the
 * service drops from `unsignedFields` what the service's record confirmed.
 */

export type VerifiedBy = 'signature' | 'api' | 'none';

const NODE_FIELDS = new Set(['event', 'verified', 'verifiedBy', 'receivedAt', 'verifiedFields', 'unsignedFields']);

/**
 * One output item. The payload as sent (minus anything named like a secret),
 * plus what the node knows about it. Never the hash header or the key.
 * A signed event lists the fields the hash covers in `verifiedFields` and
 * every other field of the notification in `unsignedFields` (anyone on the
 * way could have changed those); an unverified event lists all its fields
 * as unsigned.
 */
export function toItem(event: EventName, body: IDataObject, verifiedBy: VerifiedBy, receivedAt: Date): IDataObject {
	const payload: IDataObject = {};
	for (const [name, value] of Object.entries(body)) {
		if (['hash', 'verificationkey', 'webhookverificationkey'].includes(name.toLowerCase())) continue;
		payload[name] = value;
	}
	const shaped = event === EVENTS.cardTokenizationLinkCompleted ? payload : event === EVENTS.payout ? toTransfer(payload) : toPayin(payload);
	const item: IDataObject = {
		...shaped,
		event,
		verified: verifiedBy !== 'none',
		verifiedBy,
		receivedAt: receivedAt.toISOString(),
	};
	if (verifiedBy === 'signature') {
		// The hash covers these three fields only; say so next to the data.
		item.verifiedFields = [...SIGNED_FIELDS];
		item.unsignedFields = Object.keys(shaped).filter((k) => !(SIGNED_FIELDS as readonly string[]).includes(k) && !NODE_FIELDS.has(k));
	} else if (verifiedBy === 'none') {
		item.unsignedFields = Object.keys(shaped).filter((k) => !NODE_FIELDS.has(k));
	}
	return item;
}

/** The item of a notification as received (read.ts), verified by its signature or not at all. */
export function receivedItem(notification: Notification, verifiedBy: VerifiedBy): IDataObject {
	return toItem(notification.event, notification.body, verifiedBy, notification.receivedAt);
}

/** Fields of the item that come from the service when an event is confirmed (and the record carries them). */
export function confirmedFields(record: IDataObject): string[] {
	const fields = Object.keys(record).filter((k) => record[k] !== undefined && record[k] !== null);
	if (fields.includes('amount') || fields.includes('amountPaid')) fields.push('transactionAmount');
	return fields;
}

/**
 * The item of a confirmed event: the notification (minus secrets), then the
 * service's record over it, so amount, currency, business and status are
 * the service's. `transactionAmount` (the notification's name, read by saved
 * workflows) is set to the service's value too: amountPaid for a payin when
 * known, else amount. What the notification said, where it differs, is kept
 * under `notificationDiffers` for the operator.
 */
export function confirmedItem(payload: IDataObject, record: IDataObject, event: EventName): IDataObject {
	const serviceAmount =
		event === EVENTS.collection && typeof record.amountPaid === 'number' && record.amountPaid > 0
			? record.amountPaid
			: record.amount;
	const item: IDataObject = { ...payload, ...record };
	item.transactionAmount = serviceAmount;
	// A field the service's record does not carry (a transfer record without
	// businessId, say) is not confirmed: it is dropped from the item rather
	// than passed on from the unsigned notification (still listed under
	// `notification`, for the operator).
	for (const field of ['amount', 'currency', 'businessId'] as const) {
		if (record[field] === undefined || record[field] === null) delete item[field];
	}
	if (event === EVENTS.payout && payload.accountNumber !== undefined) item.accountNumber = payload.accountNumber;
	const differs: IDataObject = {};
	const compare: Array<[string, unknown, unknown]> = [
		['transactionAmount', payload.transactionAmount, serviceAmount],
		['amount', payload.amount, record.amount],
		['currency', payload.currency, record.currency],
		['businessId', payload.businessId, record.businessId],
	];
	for (const [name, said, actual] of compare) {
		if (said !== undefined && actual !== undefined && String(said) !== String(actual)) {
			differs[name] = { notification: said as IDataObject[string], service: actual as IDataObject[string] };
		}
	}
	if (Object.keys(differs).length > 0) item.notificationDiffers = differs;
	const unconfirmed: IDataObject = {};
	for (const field of ['amount', 'currency', 'businessId'] as const) {
		if ((record[field] === undefined || record[field] === null) && payload[field] !== undefined) unconfirmed[field] = payload[field];
	}
	if (Object.keys(unconfirmed).length > 0) item.notification = unconfirmed;
	return item;
}

/**
 * The Confirmed item of a signed event the service's record confirmed:
 * `confirmedBy: 'api'`, and everything the service confirmed is no longer
 * "unsigned".
 */
export function recordConfirmedItem(received: IDataObject, record: IDataObject, event: EventName): IDataObject {
	const item: IDataObject = { ...confirmedItem(received, record, event), confirmed: true, confirmedBy: 'api' };
	const confirmedNames = confirmedFields(record);
	item.unsignedFields = (received.unsignedFields as string[]).filter((f) => !confirmedNames.includes(f));
	return item;
}

/** The Unconfirmed item: the event as received, with why the service did not confirm it. */
export function unconfirmedItem(item: IDataObject, reason: string): IDataObject {
	return { ...item, confirmed: false, confirmation: { confirmed: false, reason } };
}
