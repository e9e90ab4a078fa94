import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { Claims, type ClaimScope, type ClaimWindow, type Judgement } from '../shared/claim';
import { signedFieldText } from '../shared/signature';
import { referenceTime } from '../shared/signedFields';
import type { Verdict } from './emit';
import { eventReference, eventStatus, isSigned, SIGNED_FIELDS, type EventName, type Notification } from './notification';

/**
 * Step 4 of receive.ts (claim): repeats and held-back events, over the shared
 * claim mechanism (nodes/shared/claim/index.ts).
 *
 * Repeats. A repeat of the SIGNED fields (accountNumber, onusReference,
 * paymentStatus; for tokenization: link id and status) within 24 h is answered
 * 200 `{duplicate: true}` and starts nothing, judged by an in-process memory
 * (10,000 events per trigger node and mode) that is checked and updated
 * synchronously, so in ONE n8n process (regular mode, or queue mode where
 * only the main receives webhooks) exactly one of any number of concurrent
 * copies starts the workflow. The newest PERSISTED_KEYS keys (96-bit
 * digests) are also written to the workflow's static data, read back on
 * every request: that carries the memory over a restart and, best effort, to
 * other processes. Static data is loaded per request and written back whole,
 * so with several webhook processes (queue mode with webhook processors,
 * multi-main) two copies arriving on different processes close together can
 * BOTH start the workflow. There the guarantee is at-least-once: keep the
 * workflow idempotent per onusReference, as the specification asks. Test URL
 * deliveries use their own memory and never touch static data.
 *
 * Held back. An event the service does not confirm (confirm.ts,
 * tokenization.ts) starts ONE Unconfirmed execution; a later copy is
 * answered 200 without a run, after one read of the record: if the service
 * now confirms it (a legitimate retry), it goes to Confirmed. A tokenization
 * event (sent once) is never swallowed by an earlier forged copy.
 *
 * Past the memory's bounds
 * (docs/reliability.md#rule-3-an-event-is-new-by-what-changed): every
 * remembered key carries the date of its record's last change; a key let go (24 h,
 * 10,000 events, or left out of static data over a restart) raises the
 * memory's horizon to that date (nodes/shared/claim/index.ts). A confirmed
 * event the memory does not hold whose record last changed on or before the
 * horizon may have been handled already: it goes to Unconfirmed with that
 * reason instead of Confirmed (`judgeEvent`, used by confirm.ts). A record
 * that changed after the horizon (a payment made days after its account was
 * opened, a payout settled after a weekend) is Confirmed.
 */

/** Repeats of one event (signed fields) are suppressed for a day, up to 10,000 events per trigger. */
export const DEDUPE_WINDOW: ClaimWindow = { ttlMs: 24 * 60 * 60 * 1000, maxEntries: 10_000 };
/**
 * Keys also written to the workflow's static data. n8n reads the whole static
 * data with the workflow on every webhook request and writes it back after
 * each accepted event, so the list is kept short: it only has to carry the
 * most recent events over a restart (the in-process memory holds 10,000).
 */
export const PERSISTED_KEYS = 50;

/**
 * Events the service did not confirm (Unconfirmed, or refused as possibly
 * handled already): remembered for a day, up to 10,000 per trigger, so that
 * one such event starts ONE Unconfirmed execution, not one per copy.
 */
export const HELD_WINDOW: ClaimWindow = { ttlMs: 24 * 60 * 60 * 1000, maxEntries: 10_000 };

/** Events handled, in static data as `seenChanges` / `seenChangesHorizon`. */
const seenEvents = new Claims(DEDUPE_WINDOW, { keys: 'seenChanges', horizon: 'seenChangesHorizon', newest: PERSISTED_KEYS });
/** Events held back (in process only). */
const heldEvents = new Claims(HELD_WINDOW);

/** Test hook: forget every scope of the webhook trigger (a restart). */
export function resetSeenKeys(): void {
	seenEvents.clear();
	heldEvents.clear();
}

/**
 * Identity of an event for suppressing repeats. For a signed event: the
 * SIGNED fields only (accountNumber, onusReference, paymentStatus: the record
 * and its status), so a captured notification resent with another `type`,
 * amount or business (none of them signed) is the same event and starts
 * nothing new. For a tokenization notification (not signed): the link id and
 * status. A 96-bit digest (16 base64url characters) rather than the text, so
 * the list kept in static data, which n8n reads and parses on every webhook
 * request, stays a few kilobytes.
 */
export function dedupeKey(event: EventName, body: IDataObject): string {
	const identity = isSigned(event)
		? ['signed', ...SIGNED_FIELDS.map((f) => signedFieldText(body[f]))]
		: [event, eventReference(event, body), eventStatus(event, body)];
	return createHash('sha256').update(JSON.stringify(identity), 'utf8').digest().subarray(0, 12).toString('base64url');
}

/**
 * What dates an event the trigger does not read back (rule 3): a REFUND, or
 * any signed event with Confirm With the Service off, by the date stamped in
 * its signed onusReference (`<DDMMYYYY>-<HHMMSS>`: when the service issued
 * it, a creation date, so it dates a change no later than the change itself:
 * a replay is never taken for new, a late completion of an old record may go
 * to Unconfirmed); a tokenization notification with confirmation off, by
 * nothing. Undefined when nothing dates it.
 */
export function unreadDating(notification: Notification): { createdDate: string } | undefined {
	if (!isSigned(notification.event)) return undefined;
	const stamped = referenceTime(notification.body.onusReference);
	return stamped === undefined ? undefined : { createdDate: stamped };
}

/**
 * Claims the event: undefined for a repeat (answered `duplicate`). An event
 * to confirm is claimed now and kept once confirmed (settleEvent); any other
 * is claimed and kept at once, dated by `unreadDating`. `recheck`: held back before, so this copy only
 * re-checks (one read) and starts nothing new if still not confirmed.
 */
export function claimEvent(
	scope: ClaimScope,
	notification: Notification,
	confirming: boolean,
	now: number,
): { key: string; recheck: boolean } | undefined {
	const key = dedupeKey(notification.event, notification.body);
	if (!seenEvents.claim(scope, key, now)) return undefined;
	if (!confirming) seenEvents.keep(scope, key, unreadDating(notification));
	return { key, recheck: confirming && heldEvents.has(scope, key, now) };
}

/** For the record the service returned: may this change have been handled already (past the memory's bounds)? */
export function judgeEvent(scope: ClaimScope, record: IDataObject): Judgement {
	return seenEvents.judge(scope, record);
}

/** After the confirmation: keep, release or hold the key by the verdict. */
export function settleEvent(scope: ClaimScope, key: string, verdict: Verdict, now: number): void {
	switch (verdict.kind) {
		case 'confirmed':
			heldEvents.release(scope, key);
			seenEvents.keep(scope, key, verdict.record);
			return;
		case 'notConfirmed':
			// Released, so a later redelivery may still be confirmed (re-checked),
			// and held back afresh, so no copy starts a second Unconfirmed execution.
			seenEvents.release(scope, key);
			heldEvents.release(scope, key);
			heldEvents.claim(scope, key, now);
			return;
		case 'otherBusiness':
			// Like any filtered event, not remembered.
			heldEvents.release(scope, key);
			seenEvents.release(scope, key);
			return;
		case 'forged':
			seenEvents.release(scope, key);
			return;
	}
}

/**
 * Before the test event is posted (sample.ts): the Test URL's memory lets its
 * key go, so listening again shows the same payment again.
 */
export function forgetTestEvent(workflowId: string | undefined, nodeId: string, event: EventName, body: IDataObject): void {
	seenEvents.release({ workflowId, nodeId, mode: 'manual' }, dedupeKey(event, body));
}
