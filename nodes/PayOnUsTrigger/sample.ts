import { sleep, type IDataObject, type IHookFunctions } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { LISTS, readList } from '../shared/api';
import { computeWebhookHash } from '../shared/signature';
import { keyProblem } from '../shared/signedFields';
import { merchantIdOf } from '../shared/credential/defaults';
import { readCredential } from '../shared/credential/read';
import { splitList, statusSelected, type TriggerFilters } from '../shared/triggerOptions';
import { createClient } from '../shared/transport';
import { nodeFilters } from './filter';
import { EVENTS, type EventName } from './notification';

/**
 * "Send Test Event" (the PayOnUs Trigger's test event). PayOnUs posts
 * notifications to ONE Webhook URL per environment, set on its dashboard
 * (the production URL), and has no API to send one on demand. So while the
 * editor listens for a test event, the node itself posts one to its own
 * Test URL: the most recent real payment of the account, read from the API,
 * written as the notification PayOnUs sends for it (COLLECTION for a payin,
 * PAYOUT for a payout) and signed with the credential's Webhook
 * Verification Key. It then goes through everything a real notification
 * goes through (signature, filters, Confirm With the Service), so the item
 * in the editor is exactly what a real notification of that payment
 * gives. Nothing is sent to PayOnUs and no money moves: the only calls to
 * the service are reads.
 *
 * Where the node cannot find a notified payment (none SUCCESSFUL yet, only tokenization
 * or refund events selected, a payout without Merchant ID), it sends
 * nothing and the editor keeps listening for a real notification.
 */

/** How many of the newest records are read to find the most recent one (the list's order is not specified). */
export const SAMPLE_SCAN = 50;

/** Pause before posting, so the editor is listening when the event arrives. Tests set it to 0. */
export const SAMPLE_TIMING = { delayMs: 1000 };

/** The newest record by creation date (then by last update), of those given. */
export function newestRecord(records: IDataObject[]): IDataObject | undefined {
	const time = (r: IDataObject) => {
		const t = Date.parse(String(r.createdDate ?? r.lastUpdatedDate ?? ''));
		return Number.isFinite(t) ? t : -Infinity;
	};
	let best: IDataObject | undefined;
	for (const record of records) {
		if (best === undefined || time(record) > time(best)) best = record;
	}
	return best;
}

/**
 * The notification PayOnUs sends for a record: the fields of the
 * specification's webhook (type, the three signed fields, amount as
 * `transactionAmount`) and the record's other fields as the service has them.
 */
export function sampleNotification(event: EventName, record: IDataObject): IDataObject {
	const payout = event === EVENTS.payout;
	const accountNumber = payout ? (record.beneficiaryAccountNumber ?? record.accountNumber) : record.accountNumber;
	const amount = payout ? record.amount : (record.amountPaid || record.amount);
	const body: IDataObject = {
		id: record.id,
		type: event,
		currency: record.currency,
		businessId: record.businessId,
		accountNumber: accountNumber ?? '',
		onusReference: record.onusReference,
		paymentStatus: record.paymentStatus,
		paymentChannel: record.paymentChannel,
		transactionAmount: amount,
		merchantReference: record.merchantReference ?? record.reference,
		narration: record.narration,
		createdDate: record.createdDate,
	};
	for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name];
	return body;
}

export interface Sample {
	event: EventName;
	body: IDataObject;
}

/** Picks the event and the record to send: the newest payin (or payout) the node's filters let through. */
export async function findSample(
	client: PayOnUsClient,
	events: string[],
	filters: Partial<TriggerFilters>,
	merchantId: string | undefined,
): Promise<Sample | undefined> {
	const { statuses = [], businessIds = [] } = filters;
	// Only payments PayOnUs notifies: a payin once SUCCESSFUL (COLLECTION), a
	// payout in its final status (PAYOUT); never a pending one.
	const wanted = (r: IDataObject, notified: string[]) =>
		typeof r.onusReference === 'string' &&
		notified.includes(String(r.paymentStatus ?? '').toUpperCase()) &&
		statusSelected(r.paymentStatus, statuses) &&
		(businessIds.length === 0 || businessIds.includes(String(r.businessId ?? '')));
	if (events.includes(EVENTS.collection)) {
		const records = await readList(client, LISTS.payments, {}, { limit: SAMPLE_SCAN, pageSize: SAMPLE_SCAN });
		const latest = newestRecord(records.filter((r) => wanted(r, ['SUCCESSFUL'])));
		if (latest) return { event: EVENTS.collection, body: sampleNotification(EVENTS.collection, latest) };
	}
	if (events.includes(EVENTS.payout) && merchantId) {
		const records = await readList(client, LISTS.transfers, { merchantId }, { limit: SAMPLE_SCAN, pageSize: SAMPLE_SCAN });
		const latest = newestRecord(records.filter((r) => wanted(r, ['SUCCESSFUL', 'FAILED'])));
		if (latest) return { event: EVENTS.payout, body: sampleNotification(EVENTS.payout, latest) };
	}
	return undefined;
}

/**
 * Posts the sample to the node's Test URL (runs after create() returned;
 * every failure is logged, none reaches the editor's listening call).
 * `beforeSend` lets the node clear its test-mode repeat memory for it.
 */
export async function sendTestEvent(
	ctx: IHookFunctions,
	beforeSend: (sample: Sample) => void,
): Promise<Sample | undefined> {
	const name = ctx.getNode().name;
	try {
		const events = splitList(ctx.getNodeParameter('events', []) as unknown);
		const filters = nodeFilters((n, fallback) => ctx.getNodeParameter(n, fallback));
		// One read of the credential: the client's and the key's.
		const credential = await readCredential(ctx);
		const client = await createClient(ctx, { credential });
		const merchantId = merchantIdOf(ctx.getNodeParameter('merchantId', ''), client.defaults);
		const sample = await findSample(client, events, filters, merchantId);
		if (!sample) {
			ctx.logger.info(
				`${name}: no payment found to send as a test event (selected events: ${events.join(', ') || 'none'}); waiting for a notification from PayOnUs`,
			);
			return undefined;
		}
		const key = credential?.webhookVerificationKey ?? '';
		const problem = keyProblem(key);
		if (problem !== undefined) {
			ctx.logger.warn(`${name}: the credential ${problem}, so no test event was sent`);
			return undefined;
		}
		const url = ctx.getNodeWebhookUrl('default');
		if (!url) return undefined;
		beforeSend(sample);
		if (SAMPLE_TIMING.delayMs > 0) await sleep(SAMPLE_TIMING.delayMs);
		await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			headers: {
				'content-type': 'text/plain',
				hash: computeWebhookHash(sample.body, key),
				'user-agent': 'n8n-nodes-payonus test event',
			},
			body: JSON.stringify(sample.body),
			json: false,
			timeout: 30_000,
		});
		return sample;
	} catch (error) {
		ctx.logger.warn(`${name}: the test event could not be sent (${(error as Error).message})`);
		return undefined;
	}
}
