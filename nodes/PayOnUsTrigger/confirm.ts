import { sleep, type IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { changeOf, type Judgement } from '../shared/claim';
import { toPayin, toTransfer } from '../shared/records';
import type { Verdict } from './emit';
import type { Check, Route } from './filter';
import { receivedItem, recordConfirmedItem } from './items';
import { unreadDating } from './claim';
import { EVENTS, eventReference, type EventName, type Notification } from './notification';
import { readPayin, readTransfer, type ServiceAccess } from './service';
import { confirmLinkEvent } from './tokenization';

/**
 * Step 5 of receive.ts (confirm), "Confirm With the Service" (on by
 * default): a signed COLLECTION or PAYOUT gets its 200 at once, then is
 * re-read through the API by its (signed) onusReference before the workflow
 * gets it, and the Confirmed output gets the SERVICE's amount, currency,
 * business and status (what the notification said, where it differs, under
 * `notificationDiffers`: items.ts); the Only Business IDs filter uses the
 * service's business. The signature only covers accountNumber +
 * onusReference + paymentStatus; amount, currency, business and type are
 * not signed and may have been changed on the way. When the service does
 * not confirm it (no such record, another status after 3 reads over about
 * 3 s, unreachable, no Merchant ID for a payout) the event goes to the
 * second output, Unconfirmed, with `confirmation.reason` (emit.ts), and is
 * held back (claim.ts). A card tokenization notification is confirmed by
 * reading its link (tokenization.ts).
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

/** Re-reads of a signed event whose record is missing or in another status (tests shorten the pause). */
export const CONFIRM_TIMING = {
	attempts: 3,
	pauseMs: 1000,
	sleep: async (ms: number) => await sleep(ms),
};

export interface Confirmation {
	confirmed: boolean;
	/** Why not confirmed (shown on the "Unconfirmed" item and in the log). */
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

/**
 * What the service's answer means for the event (pure). In this order: not
 * confirmed; confirmed, but last changed on or before the memory's horizon
 * (`judge`, claim.ts: it may have been handled already); for a business the
 * filter cannot check or does not select; else Confirmed.
 */
export function judgeRecord(
	notification: Notification,
	confirmation: Confirmation,
	judge: (record: IDataObject) => Judgement,
	businessIds: string[],
): Verdict {
	const { event, body } = notification;
	const received = receivedItem(notification, 'signature');
	const record = confirmation.record;
	if (!confirmation.confirmed || !record) {
		const item = record ? { ...received, serviceRecord: record } : received;
		return { kind: 'notConfirmed', item, reason: confirmation.reason ?? 'not confirmed' };
	}
	// Past the memory's bounds, the date of the record's last change decides (claim.ts).
	const decision = judge(record);
	if (decision.known) {
		return {
			kind: 'notConfirmed',
			item: { ...received, serviceRecord: record },
			reason: `not started again: ${decision.reason}. Check your records for ${eventReference(event, body)}`,
		};
	}
	if (businessIds.length > 0) {
		if (record.businessId === undefined || record.businessId === null) {
			// The filter cannot be checked against the service: not confirmed.
			return {
				kind: 'notConfirmed',
				item: received,
				reason: "the service's record carries no businessId, so the Only Business IDs filter cannot be checked against it",
			};
		}
		if (!businessIds.includes(String(record.businessId))) return { kind: 'otherBusiness', businessId: String(record.businessId) };
	}
	return { kind: 'confirmed', item: recordConfirmedItem(received, record, event), record };
}

/**
 * An event the trigger does not read back (a REFUND, Confirm With the
 * Service off, a tokenization notification with its confirmation off),
 * judged by the memory past its bounds (pure): dated by its signed
 * onusReference's stamp (claim.ts `unreadDating`), or by nothing. On or
 * before the memory's horizon, or undated once the memory has let events
 * go: it may have been handled already (Unconfirmed, fail closed). Else it
 * goes on as received.
 */
export function judgeUnread(notification: Notification, check: Check, judge: (record: IDataObject) => Judgement): Verdict {
	const item = receivedItem(notification, check === 'none' ? 'none' : 'signature');
	const dating = unreadDating(notification);
	const decision = judge(dating ?? {});
	if (!decision.known) return { kind: 'confirmed', item };
	const why =
		dating && changeOf(dating) !== undefined
			? `it is not read back from the service, so the date stamped in its signed onusReference dates it: ${decision.reason}`
			: `nothing dates it (it is not read back from the service) and this node's memory no longer covers every event: it may have been handled already`;
	return { kind: 'notConfirmed', item, reason: `not started again: ${why}. Check your records for ${eventReference(notification.event, notification.body)}` };
}

/** What confirming needs: the service, the memory's judgement past its bounds (claim.ts), and whether this copy only re-checks a held event. */
export interface ConfirmContext extends ServiceAccess {
	judge: (record: IDataObject) => Judgement;
	/** Held back before: one read instead of CONFIRM_TIMING.attempts. */
	recheck: boolean;
}

/** Reads the record of a signed event back; a client that cannot be had is "could not be read". */
async function readBack(notification: Notification, context: ConfirmContext): Promise<Confirmation> {
	try {
		const client = await context.client();
		return await confirmSigned(client, notification.event, notification.body, {
			merchantId: context.merchantId(client),
			sleep: CONFIRM_TIMING.sleep,
			attempts: context.recheck ? 1 : CONFIRM_TIMING.attempts,
			pauseMs: CONFIRM_TIMING.pauseMs,
		});
	} catch (error) {
		return { confirmed: false, reason: `the service could not be read (${(error as Error).message})` };
	}
}

/** Confirms an event with the service: its record (signed events) or its link (tokenization). */
export async function confirmEvent(notification: Notification, route: Route, context: ConfirmContext): Promise<Verdict> {
	if (route.check === 'link') return await confirmLinkEvent(notification, context);
	return judgeRecord(notification, await readBack(notification, context), context.judge, route.businessIds);
}
