import {
	NodeConnectionTypes,
	sleep,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { createClient } from '../shared/transport';
import type { PayOnUsClient } from '../shared/clientInterface';
import { heldKeysFor, readPersistedKeys, seenKeysFor, type SeenWindow } from '../shared/dedupe';
import { merchantIdOf } from '../shared/credential/defaults';
import { readFilters, splitList } from '../shared/triggerOptions';
import { signatureValid } from './authenticity';
import { confirmedFields, confirmSigned, confirmedItem } from './confirm';
import {
	EVENTS,
	classify,
	dedupeKey,
	eventReference,
	filteredOut,
	isSafeId,
	isSigned,
	parseBody,
	toItem,
	type EventName,
} from './delivery';
import { triggerProperties } from './properties';
import { sendTestEvent } from './sample';
import { simplifyItems, simplifyOn } from '../shared/triggerSimplify';
import { confirmTokenization, unreadable, type TokenizationVerdict } from './tokenization';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';
import { booleanParameter } from '../shared/parameters';

/*
 * What this trigger guarantees (n8n 2.8.4):
 *
 * Answer first. Every request is answered by this node itself, before n8n
 * does anything slow: an accepted event gets 200 `{received: true}` and the
 * node returns `{ noWebhookResponse: true, workflowData }`, so n8n starts the
 * execution (writes it to the database, etc.) after PayOnUs has its answer
 * (n8n 2.8.4 webhook-helpers executeWebhook: noWebhookResponse resolves the
 * request without a second answer, then WorkflowRunner.run still runs for the
 * returned workflowData). With plain 'onReceived' n8n would answer only after
 * creating the execution. The cost: if n8n then fails to create the execution
 * (database down), PayOnUs already has its 200 and the event is remembered as
 * seen, so it is not started by a repeat either; n8n logs the error (its
 * uncaught-error handler) and the poll trigger or a status query reconciles
 * it, as the specification says webhooks are not the sole source of truth.
 *
 * Authenticity. COLLECTION, PAYOUT and REFUND start the workflow only with a
 * `hash` header equal to SHA-256(accountNumber + onusReference +
 * paymentStatus + key); anything else gets 401 and starts nothing. The hash
 * covers those three fields only: items list them in `verifiedFields` and
 * every other field of the notification in `unsignedFields`. Malformed,
 * empty, non-object or larger-than-256-KiB bodies, and unknown events, get
 * 400. (With Content-Type application/json, n8n itself parses the body
 * first and answers 422 to malformed JSON before this node runs.) Other
 * methods than POST get n8n's 404.
 *
 * Confirmation (confirm.ts, tokenization.ts; every read in service.ts). With "Confirm With the Service" (on by
 * default), a signed COLLECTION or PAYOUT gets its 200 at once, then is
 * re-read through the API by its (signed) onusReference; the Verified output
 * gets the SERVICE's amount, currency, business and status (what the
 * notification said, where it differs, under `notificationDiffers`), and the
 * business filter uses the service's business. When the service does not
 * confirm it (no such record, another status after 3 reads over about 3 s,
 * unreachable, no Merchant ID for a payout) the event goes to the second
 * output, "Not Confirmed", with `confirmation.reason`, and a warning is
 * logged: an execution exists for the operator to see, and a workflow wired
 * to output 1 only never pays on it. Such an event is held back (HELD_WINDOW):
 * it starts ONE Not Confirmed execution; a later copy is answered 200 without
 * a run, after one read of the record: if the service now confirms it (a
 * legitimate retry), it goes to Verified.
 *
 * Past the memory's bounds (docs/reliability.md#bounds-of-what-the-nodes-remember): every remembered key carries
 * the service record's createdDate; a key let go (24 h, 10,000 events, or
 * left out of static data over a restart) raises the memory's horizon to
 * that date. A confirmed event the memory does not hold whose record was
 * created on or before the horizon may have been handled already: it goes
 * to Not Confirmed with that reason instead of Verified (shared/dedupe.ts). Card tokenization notifications are not
 * signed: by default the link is read by id (businessId only, no Merchant ID
 * needed) and the event is Verified only if the link is COMPLETED for the same
 * business and, when a Merchant ID allows reading it, the same card token
 * (else `cardTokenIdChecked: false`). A link PayOnUs does not have (404) is a
 * made-up notification: a warning, no execution. Anything else (another
 * status, business or token; the API unreachable) goes to Not Confirmed
 * (PayOnUs sends this event once and never retries).
 *
 * Repeats. A repeat of the SIGNED fields (accountNumber, onusReference,
 * paymentStatus; for tokenization: link id and status) within 24 h is answered
 * 200 `{duplicate: true}` and starts nothing, judged by an in-process memory
 * (10,000 events per trigger node and mode) that is checked and updated
 * synchronously, so in ONE n8n process (regular mode, or queue mode where
 * only the main receives webhooks) exactly one of any number of concurrent
 * copies starts the workflow. The newest PERSISTED_KEYS keys (96-bit
 * digests) are also written to the workflow's static data, read back on
 * every request: that carries the
 * memory over a restart and, best effort, to other processes. Static data is
 * loaded per request and written back whole, so with several webhook
 * processes (queue mode with webhook processors, multi-main) two copies
 * arriving on different processes close together can BOTH start the
 * workflow. There the guarantee is at-least-once: keep the workflow
 * idempotent per onusReference, as the specification asks. Test URL
 * deliveries use their own memory and never touch static data.
 */

/** Re-reads of a signed event whose record is missing or in another status (tests shorten the pause). */
export const CONFIRM_TIMING = {
	attempts: 3,
	pauseMs: 1000,
	sleep: async (ms: number) => await sleep(ms),
};

/** Repeats of one event (type, reference, status) are suppressed for a day, up to 10,000 events per trigger. */
export const DEDUPE_WINDOW: SeenWindow = { ttlMs: 24 * 60 * 60 * 1000, maxEntries: 10_000 };
/**
 * Keys also written to the workflow's static data. n8n reads the whole static
 * data with the workflow on every webhook request and writes it back after
 * each accepted event, so the list is kept short: it only has to carry the
 * most recent events over a restart (the in-process memory holds 10,000).
 */
export const PERSISTED_KEYS = 50;

/**
 * Events the service did not confirm (Not Confirmed, or refused as possibly
 * handled already): remembered for a day, up to 10,000 per trigger, so that
 * one such event starts ONE Not Confirmed execution, not one per copy.
 */
export const HELD_WINDOW: SeenWindow = { ttlMs: 24 * 60 * 60 * 1000, maxEntries: 10_000 };
/** The trigger's clock (tests move it). */
export const TRIGGER_CLOCK = { now: (): number => Date.now() };

/** The events on the canvas, as the Events list names them. */
const SUBTITLE =
	'={{$parameter["events"].join(", ").replace("card_tokenization_link.completed", "Card Tokenization").replace("COLLECTION", "Collection").replace("PAYOUT", "Payout").replace("REFUND", "Refund")}}';

/**
 * Output names on the canvas (not saved in workflows: connections are by
 * index). A pair that reads as opposites and fits under the node.
 */
export const OUTPUT_NAMES = ['Confirmed', 'Unconfirmed'];

export class PayOnUsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs Trigger',
		name: 'payOnUsTrigger',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['trigger'],
		// 1.1: Simplify (on by default); version 1 keeps its full items.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: SUBTITLE,
		description: 'Starts the workflow when PayOnUs sends a verified payment notification',
		defaults: { name: 'PayOnUs Trigger' },
		inputs: [],
		// Output 2 (added): events that could not be confirmed through the API.
		// Saved workflows keep their connections on output 1.
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: OUTPUT_NAMES,
		credentials: [{ name: 'payOnUsApi', required: true, testedBy: 'payOnUsApiTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = { credentialTest: CREDENTIAL_TEST_METHODS };

	webhookMethods = {
		default: {
			// PayOnUs has no API to register a webhook URL: the user pastes it on the
			// dashboard. A missing verification key is reported per notification
			// (see authenticity.ts), not here.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				// Listening for a test event: PayOnUs only notifies the Production
				// URL, so the node sends itself the latest payment (sample.ts).
				if (this.getMode() === 'manual' && this.getNodeParameter('testEvent', 'latestPayment') === 'latestPayment') {
					const scope = `${this.getWorkflow().id ?? ''}:${this.getNode().id}:manual`;
					// Not awaited: the editor starts listening now, the event follows.
					void sendTestEvent(this, (sample) =>
						seenKeysFor(scope, DEDUPE_WINDOW).forget(dedupeKey(sample.event, sample.body)),
					);
				}
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const result = await PayOnUsTrigger.prototype.receive.call(this);
		const simplify = simplifyOn(this.getNode().typeVersion, this.getNodeParameter('simplify', true));
		if (!simplify || !result.workflowData) return result;
		return { ...result, workflowData: result.workflowData.map((items) => simplifyItems(items)) };
	}

	/** Reads one notification and decides what it starts (items in full; webhook() simplifies them). */
	async receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const now = TRIGGER_CLOCK.now();
		const receivedAt = new Date(now);
		const req = this.getRequestObject();
		const res = this.getResponseObject();
		const answer = (status: number, body: IDataObject): IWebhookResponseData => {
			res.status(status).json(body);
			return { noWebhookResponse: true };
		};
		// An accepted event: 200 now, the execution after (see the header comment).
		// The item is built before answering, so nothing here can fail once the
		// answer is out.
		const accept = (item: IDataObject): IWebhookResponseData => {
			res.status(200).json({ received: true });
			return { noWebhookResponse: true, workflowData: [[{ json: item }], []] };
		};
		const duplicate = () => answer(200, { received: true, duplicate: true });

		// 1. Body: raw bytes first (the service sends JSON as text/plain).
		const request = req as typeof req & { rawBody?: Buffer; readRawBody?: () => Promise<void> };
		if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function') {
			try {
				await request.readRawBody();
			} catch {
				return answer(400, { received: false, message: 'Body could not be read' });
			}
		}
		const declared = Number(req.headers['content-length']);
		const parsed = parseBody(
			request.rawBody,
			this.getBodyData(),
			Number.isFinite(declared) ? declared : undefined,
		);
		if (!parsed.ok) return answer(parsed.rejection.status, { received: false, message: parsed.rejection.message });
		const body = parsed.body;

		const event: EventName | undefined = classify(body);
		if (event === undefined) return answer(400, { received: false, message: 'Not a PayOnUs notification' });

		// 2. Authenticity of signed events, before anything else is decided.
		if (isSigned(event)) {
			if (!(await signatureValid(this, body, req.headers.hash))) {
				return answer(401, { received: false, message: 'Signature missing or wrong' });
			}
		} else if (!isSafeId(body.cardTokenizationLinkId)) {
			return answer(400, { received: false, message: 'cardTokenizationLinkId missing or malformed' });
		}

		// 3. Filters. The status is signed; the business is not, so with
		// confirmation on it is checked against the service's record (step 5).
		const events = splitList(this.getNodeParameter('events', []) as unknown);
		if (!events.includes(event)) return answer(200, { received: true, ignored: 'event not selected' });
		const { statuses, businessIds } = readFilters(this.getNodeParameter('options', {}) as IDataObject);
		// The two confirmation switches, read strictly (an expression giving "" or
		// "yes" is no clear answer). Unreadable, a switch takes its strict side,
		// confirmation ON, and the log says why: refusing the notification instead
		// would lose a tokenization event (sent once, never retried).
		const get = (name: string, fallback: unknown) => this.getNodeParameter(name, fallback) as unknown;
		const strictSwitch = (name: string): boolean => {
			try {
				return booleanParameter(get, name, true);
			} catch (error) {
				this.logger.warn(`PayOnUs Trigger: ${(error as Error).message}; confirming with the service as if it were on`);
				return true;
			}
		};
		const confirmWithService = strictSwitch('confirmWithService');
		const confirmTokenizationSwitch = strictSwitch('confirmTokenization');
		const confirmSignedEvent = (event === EVENTS.collection || event === EVENTS.payout) && confirmWithService;
		const why = filteredOut(event, body, { statuses, businessIds: confirmSignedEvent ? [] : businessIds });
		if (why !== undefined) return answer(200, { received: true, ignored: why });

		// 4. Repeats: in-process memory first, static data as a carried-over hint.
		const mode = this.getMode();
		const scope = `${this.getWorkflow().id ?? ''}:${this.getNode().id}:${mode}`;
		const seen = seenKeysFor(scope, DEDUPE_WINDOW);
		const persist = mode !== 'manual';
		const staticData = persist ? this.getWorkflowStaticData('node') : undefined;
		if (staticData) seen.merge(readPersistedKeys(staticData.seenEvents), now, staticData.seenHorizon);
		const key = dedupeKey(event, body);
		if (seen.has(key, now)) return duplicate();

		// Held back (not confirmed earlier): no second execution. A copy is
		// checked with the service again (one read, one copy at a time through
		// the claim below): a legitimate retry of an event the service now
		// confirms still goes on; a tokenization event (sent once) is never
		// swallowed by an earlier forged copy.
		const confirming =
			confirmSignedEvent ||
			(event === EVENTS.cardTokenizationLinkCompleted && confirmTokenizationSwitch);
		const held = heldKeysFor(scope, HELD_WINDOW);
		const recheck = confirming && held.has(key, now);

		const save = () => {
			if (!staticData) return;
			staticData.seenEvents = seen.newest(PERSISTED_KEYS);
			const horizon = seen.horizonBeyond(PERSISTED_KEYS);
			if (horizon !== undefined) staticData.seenHorizon = horizon;
		};
		/** Claims the key (synchronously: one of several concurrent copies goes on). */
		const claim = (): boolean => seen.checkAndAdd(key, TRIGGER_CLOCK.now());
		const merchantId = (client: PayOnUsClient): string | undefined =>
			merchantIdOf(this.getNodeParameter('merchantId', ''), client.defaults);
		const verified = (item: IDataObject): IWebhookResponseData => {
			save();
			return { noWebhookResponse: true, workflowData: [[{ json: item }], []] };
		};
		/**
		 * Given up: the key is released from the seen memory and held back, so
		 * a later redelivery may still be confirmed (rechecked) but no copy
		 * starts a second Not Confirmed execution.
		 */
		const notConfirmed = (item: IDataObject, reason: string): IWebhookResponseData => {
			seen.forget(key);
			held.forget(key);
			held.checkAndAdd(key, TRIGGER_CLOCK.now());
			if (recheck) {
				this.logger.info(
					`PayOnUs Trigger: ${event} ${eventReference(event, body)} was checked again and still not confirmed (${reason}); no new execution`,
				);
				return { noWebhookResponse: true };
			}
			this.logger.warn(
				`PayOnUs Trigger: ${event} ${eventReference(event, body)} was not confirmed (${reason}); sent to the Not Confirmed output, not to Verified`,
			);
			return {
				noWebhookResponse: true,
				workflowData: [[], [{ json: { ...item, confirmed: false, confirmation: { confirmed: false, reason } } }]],
			};
		};

		if (isSigned(event) && !confirmSignedEvent) {
			if (!claim()) return duplicate();
			save();
			return accept(toItem(event, body, 'signature', receivedAt));
		}

		if (isSigned(event)) {
			// 5. Signed event, confirmed with the service. The claim is taken
			// now, the service gets its 200 at once (it wants one within about
			// 5 s), then the record is read back.
			if (!claim()) return duplicate();
			answer(200, { received: true });
			const received = toItem(event, body, 'signature', receivedAt);
			let verdict;
			try {
				const client = await createClient(this);
				verdict = await confirmSigned(client, event, body, {
					merchantId: merchantId(client),
					sleep: CONFIRM_TIMING.sleep,
					attempts: recheck ? 1 : CONFIRM_TIMING.attempts,
					pauseMs: CONFIRM_TIMING.pauseMs,
				});
			} catch (error) {
				verdict = { confirmed: false, reason: `the service could not be read (${(error as Error).message})` };
			}
			if (!verdict.confirmed || !verdict.record) {
				const item = verdict.record ? { ...received, serviceRecord: verdict.record } : received;
				return notConfirmed(item, verdict.reason ?? 'not confirmed');
			}
			// The memory cannot vouch for events created before its horizon
			// (keys let go past its bounds): the service's date decides.
			const decision = seen.decide(verdict.record.createdDate);
			if (decision.known) {
				return notConfirmed(
					{ ...received, serviceRecord: verdict.record },
					`not started again: ${decision.reason}. Check your records for ${eventReference(event, body)}`,
				);
			}
			seen.setDate(key, verdict.record.createdDate);
			held.forget(key);
			const item: IDataObject = {
				...confirmedItem(received, verdict.record, event),
				confirmed: true,
				confirmedBy: 'api',
			};
			// Everything the service confirmed is no longer "unsigned".
			const confirmedNames = confirmedFields(verdict.record);
			item.unsignedFields = (received.unsignedFields as string[]).filter((f) => !confirmedNames.includes(f));
			if (businessIds.length > 0 && (verdict.record.businessId === undefined || verdict.record.businessId === null)) {
				// The filter cannot be checked against the service: not confirmed.
				return notConfirmed(
					received,
					"the service's record carries no businessId, so the Only Business IDs filter cannot be checked against it",
				);
			}
			if (businessIds.length > 0 && !businessIds.includes(String(verdict.record.businessId ?? ''))) {
				this.logger.info(
					`PayOnUs Trigger: ${event} ${eventReference(event, body)} is for business ${String(verdict.record.businessId ?? '?')} (confirmed), not selected; ignored`,
				);
				// Like any filtered event, not remembered.
				seen.forget(key);
				return { noWebhookResponse: true };
			}
			return verified(item);
		}

		if (!confirmTokenizationSwitch) {
			if (!claim()) return duplicate();
			save();
			return accept(toItem(event, body, 'none', receivedAt));
		}

		// 6. Tokenization with confirmation: answer 200 now (the service wants an
		// answer within about 5 s and never retries this event), then read the
		// link (tokenization.ts) and start the workflow only if it confirms the
		// event. Anything else goes to the Not Confirmed output: nothing is
		// dropped silently (PayOnUs sends this event once).
		if (!claim()) return duplicate();
		answer(200, { received: true });
		const linkId = body.cardTokenizationLinkId as string;
		const received = toItem(event, body, 'none', receivedAt);
		let verdict: TokenizationVerdict;
		try {
			const client = await createClient(this);
			verdict = await confirmTokenization(client, body, merchantId(client));
		} catch (error) {
			verdict = unreadable(error);
		}
		if (!verdict.confirmed) {
			if (verdict.forged === true || verdict.reason === 'link not found') {
				// PayOnUs has no such link for that business: a made-up
				// notification (unsigned, anyone can post one). Logged, and no
				// execution, so forged posts cannot flood the execution list.
				seen.forget(key);
				this.logger.warn(
					`PayOnUs Trigger: tokenization notification for link ${linkId} was not confirmed (PayOnUs has no such link for business ${String(body.businessId ?? '')}); no execution started`,
				);
				return { noWebhookResponse: true };
			}
			return notConfirmed(received, verdict.reason ?? 'not confirmed');
		}
		held.forget(key);
		const item = toItem(event, body, 'api', receivedAt);
		if (verdict.tokenChecked === false) {
			item.unsignedFields = ['cardTokenId'];
			item.cardTokenIdChecked = false;
			this.logger.info(
				`PayOnUs Trigger: tokenization link ${linkId} confirmed COMPLETED; its card token could not be checked (no Merchant ID to search links with)`,
			);
		}
		return verified(item);
	}
}
