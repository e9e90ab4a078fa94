import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { toPayin, toTransfer } from '../shared/records';
import { EVENTS, type EventName } from './delivery';
import { readPayin, readTransfer } from './service';

/**
 * "Confirm with the service": a signed COLLECTION or PAYOUT notification is
 * re-read through the API by its onusReference (a signed field) before the
 * workflow gets it, and the item carries the SERVICE's amount, currency,
 * business and status. The signature only covers accountNumber +
 * onusReference + paymentStatus; amount, currency, business and type are
 * not signed and may have been changed on the way.
 *
 * Reads (service.ts): a COLLECTION by readPayin (the documented
 * onusReference filter, then the per-business status query), a PAYOUT by
 * readTransfer (needs a Merchant ID: the node's, else the credential's
 * default). A record counts only if its onusReference is the signed one.
 *
 * Confirmed when the record is found and its status equals the signed
 * paymentStatus. A different status is re-read a few times (the service may
 * write the record just after sending the notification); then, like a
 * missing record or an unreachable service, the event is NOT confirmed.
 */

export interface Confirmation {
	confirmed: boolean;
	/** Why not confirmed (shown on the "Not Confirmed" item and in the log). */
	reason?: string;
	/** The service's record (record shape), when found. */
	record?: IDataObject;
}

export interface ConfirmOptions {
	merchantId?: string;
	/** Reads when the status differs or the record is missing. Default 3. */
	attempts?: number;
	/** Pause between reads (ms, times the attempt number). Default 1000. */
	pauseMs?: number;
	sleep: (ms: number) => Promise<void>;
}

function status(record: IDataObject): string {
	return String(record.paymentStatus ?? record.status ?? '').toUpperCase();
}

/** Re-reads the record of a signed event and compares it with the signed fields. */
export async function confirmSigned(
	client: PayOnUsClient,
	event: EventName,
	body: IDataObject,
	options: ConfirmOptions,
): Promise<Confirmation> {
	const reference = String(body.onusReference ?? '');
	const signedStatus = String(body.paymentStatus ?? '').toUpperCase();
	if (event !== EVENTS.collection && event !== EVENTS.payout) {
		return { confirmed: false, reason: `${event} notifications cannot be read back through the API` };
	}
	if (event === EVENTS.payout && !options.merchantId) {
		return {
			confirmed: false,
			reason: "no Merchant ID to read the transfer with: set Merchant ID on the trigger or Default Merchant ID on the credential",
		};
	}
	const attempts = Math.max(1, options.attempts ?? 3);
	const pauseMs = options.pauseMs ?? 1000;
	let last: Confirmation = { confirmed: false, reason: 'not read' };
	for (let attempt = 1; attempt <= attempts; attempt++) {
		let record: IDataObject | undefined;
		try {
			record =
				event === EVENTS.collection
					? await readPayin(client, reference, typeof body.businessId === 'string' ? body.businessId : undefined)
					: await readTransfer(client, options.merchantId as string, reference);
		} catch (error) {
			return { confirmed: false, reason: `the service could not be read (${(error as Error).message})` };
		}
		if (!record) {
			last = {
				confirmed: false,
				reason: `the service has no ${event === EVENTS.collection ? 'payin' : 'transfer'} ${reference}`,
			};
		} else {
			const shaped = event === EVENTS.collection ? toPayin(record) : toTransfer(record);
			if (status(shaped) === signedStatus) return { confirmed: true, record: shaped };
			last = {
				confirmed: false,
				reason: `the service says ${reference} is ${status(shaped) || 'without status'}, the notification says ${signedStatus}`,
				record: shaped,
			};
		}
		if (attempt < attempts) await options.sleep(pauseMs * attempt);
	}
	return last;
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
