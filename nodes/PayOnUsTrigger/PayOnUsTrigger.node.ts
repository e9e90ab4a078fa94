import {
	NodeConnectionTypes,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { createClient } from '../shared/transport';
import { readPersistedKeys, seenKeysFor, type SeenWindow } from '../shared/dedupe';
import { verificationKeys } from './keyCache';
import {
	EVENTS,
	classify,
	confirmLink,
	dedupeKey,
	eventReference,
	filteredOut,
	isSigned,
	parseBody,
	splitList,
	toItem,
	verifySigned,
	type EventName,
} from './delivery';
import { confirmedFields, confirmSigned, confirmedItem } from './confirm';
import type { PayOnUsClient } from '../shared/client';

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
 * Confirmation (confirm.ts). With "Confirm With the Service" (on by
 * default), a signed COLLECTION or PAYOUT gets its 200 at once, then is
 * re-read through the API by its (signed) onusReference; the Verified output
 * gets the SERVICE's amount, currency, business and status (what the
 * notification said, where it differs, under `notificationDiffers`), and the
 * business filter uses the service's business. When the service does not
 * confirm it (no such record, another status after 3 reads over about 3 s,
 * unreachable, no Merchant ID for a payout) the event goes to the second
 * output, "Not Confirmed", with `confirmation.reason`, and a warning is
 * logged: an execution exists for the operator to see, and a workflow wired
 * to output 1 only never pays on it. Its repeat key is released, so a later
 * redelivery can still be confirmed. Card tokenization notifications are not
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

const SAFE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

async function verificationKey(ctx: IHookFunctions | IWebhookFunctions): Promise<string> {
	const credentials = await ctx.getCredentials('payOnUsApi');
	const key = credentials?.webhookVerificationKey;
	return typeof key === 'string' ? key : '';
}

/**
 * Raised on a notification that cannot be verified because the credential has
 * no key. n8n answers the sender 500 (with this message where n8n supports
 * configuration errors) and lists a failed execution with the message, which
 * the workflow's error workflow also receives. Activation itself does not
 * refuse: n8n >= 2.3x activates in the background, where a refusal only
 * reaches the server log and leaves the webhook answering 404.
 */
function missingKeyError(ctx: IWebhookFunctions): Error {
	const description =
		'Copy the Webhook Verification Key from the PayOnUs dashboard (same environment as this credential) into the credential. Until then no notification can be verified, so none starts the workflow; the service is answered 500 and may retry.';
	const message = 'The PayOnUs credential has no Webhook Verification Key: the notification was refused';
	// n8n >= 2.2x returns the message of a WorkflowConfigurationError to the caller; older n8n answers a generic 500.
	const ConfigurationError = (n8nWorkflow as unknown as Record<string, typeof NodeOperationError | undefined>)
		.WorkflowConfigurationError;
	const ErrorClass = ConfigurationError ?? NodeOperationError;
	return new ErrorClass(ctx.getNode(), message, { description });
}

export class PayOnUsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs Trigger',
		name: 'payOnUsTrigger',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when PayOnUs sends a verified payment notification',
		defaults: { name: 'PayOnUs Trigger' },
		inputs: [],
		// Output 2 (added): events that could not be confirmed through the API.
		// Saved workflows keep their connections on output 1.
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Verified', 'Not Confirmed'],
		credentials: [{ name: 'payOnUsApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Paste the Production URL above into the PayOnUs dashboard as the Webhook URL (Test Mode ON for the sandbox, OFF for production), and set the Webhook Verification Key there to the one saved in this credential. PayOnUs sends nothing until both are set for that environment. PayOnUs has no API to register webhooks: activating this workflow changes nothing on the dashboard. Use the Test URL only while listening for a test event.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				description: 'Which notifications start the workflow; others are answered and ignored',
				options: [
					{
						name: 'Card Tokenization Link Completed',
						value: EVENTS.cardTokenizationLinkCompleted,
						description: 'A customer stored a card through a consent link (not signed by PayOnUs)',
					},
					{
						name: 'Collection',
						value: EVENTS.collection,
						description: 'A payin was confirmed (signed)',
					},
					{
						name: 'Payout',
						value: EVENTS.payout,
						description: 'A payout reached its final status (signed)',
					},
					{
						name: 'Refund Completed',
						value: EVENTS.refund,
						description: 'A bank transfer refund completed (signed like a payout)',
					},
				],
			},
			{
				displayName: 'Confirm Tokenization Through the API',
				name: 'confirmTokenization',
				type: 'boolean',
				default: true,
				displayOptions: { show: { events: [EVENTS.cardTokenizationLinkCompleted] } },
				description:
					'Whether to fetch the link from PayOnUs before starting the workflow (one API call per tokenization notification). PayOnUs does not sign these notifications; the workflow starts only if the link is COMPLETED for the same business (and the same card token when it can be read: with a Merchant ID). Turned off, anyone who knows the URL can start the workflow with a made-up link and card token.',
			},
			{
				displayName: 'Confirm With the Service',
				name: 'confirmWithService',
				type: 'boolean',
				default: true,
				displayOptions: { show: { events: [EVENTS.collection, EVENTS.payout] } },
				description:
					"Whether to re-read each Collection or Payout from PayOnUs by its onusReference (one or two API calls) and emit the service's amount, currency, business and status. PayOnUs signs only accountNumber, onusReference and paymentStatus: turned off, the amount, currency, business and type of the item are as received, unsigned. Events the service does not confirm (record missing, another status, service unreachable) go to the Not Confirmed output.",
			},
			{
				displayName: 'Merchant ID',
				name: 'merchantId',
				type: 'string',
				default: '',
				placeholder: 'MER-1001',
				displayOptions: { show: { events: [EVENTS.payout, EVENTS.cardTokenizationLinkCompleted] } },
				description:
					"Needed to read transfers (Payout confirmation) and to check the card token of a tokenization link. Empty: the credential's Default Merchant ID.",
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Only Business IDs',
						name: 'businessIds',
						type: 'string',
						default: '',
						placeholder: 'BUS-2001, BUS-2002',
						description:
							"Comma-separated business IDs; notifications for other businesses are answered and ignored. With Confirm With the Service on, the business is the service's (the notification's businessId is not signed).",
					},
					{
						displayName: 'Only Statuses',
						name: 'statuses',
						type: 'multiOptions',
						default: [],
						description:
							'Start only for these statuses (paymentStatus, or status for tokenization); others are answered and ignored',
						options: [
							{ name: 'Completed (Tokenization)', value: 'COMPLETED' },
							{ name: 'Failed', value: 'FAILED' },
							{ name: 'Pending', value: 'PENDING' },
							{ name: 'Processing', value: 'PROCESSING' },
							{ name: 'Successful', value: 'SUCCESSFUL' },
						],
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			// PayOnUs has no API to register a webhook URL: the user pastes it on the
			// dashboard. A missing verification key is reported per notification
			// (see missingKeyError), not here.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const receivedAt = new Date();
		const now = receivedAt.getTime();
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
			const credentialId = this.getNode().credentials?.payOnUsApi?.id ?? undefined;
			let keyMissing = false;
			const verified = await verificationKeys.verify(
				credentialId,
				async () => {
					const key = await verificationKey(this);
					keyMissing = key.length === 0;
					return key;
				},
				(key) => key.length > 0 && verifySigned(body, req.headers.hash, key),
			);
			if (!verified && keyMissing) throw missingKeyError(this);
			if (!verified) {
				return answer(401, { received: false, message: 'Signature missing or wrong' });
			}
		} else if (typeof body.cardTokenizationLinkId !== 'string' || !SAFE_ID.test(body.cardTokenizationLinkId)) {
			return answer(400, { received: false, message: 'cardTokenizationLinkId missing or malformed' });
		}

		// 3. Filters. The status is signed; the business is not, so with
		// confirmation on it is checked against the service's record (step 5).
		const events = splitList(this.getNodeParameter('events', []) as unknown);
		if (!events.includes(event)) return answer(200, { received: true, ignored: 'event not selected' });
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const statuses = splitList(options.statuses);
		const businessIds = splitList(options.businessIds);
		const confirmSignedEvent =
			(event === EVENTS.collection || event === EVENTS.payout) &&
			(this.getNodeParameter('confirmWithService', true) as boolean) !== false;
		const why = filteredOut(event, body, { statuses, businessIds: confirmSignedEvent ? [] : businessIds });
		if (why !== undefined) return answer(200, { received: true, ignored: why });

		// 4. Repeats: in-process memory first, static data as a carried-over hint.
		const mode = this.getMode();
		const scope = `${this.getWorkflow().id ?? ''}:${this.getNode().id}:${mode}`;
		const seen = seenKeysFor(scope, DEDUPE_WINDOW);
		const persist = mode !== 'manual';
		const staticData = persist ? this.getWorkflowStaticData('node') : undefined;
		if (staticData) seen.merge(readPersistedKeys(staticData.seenEvents), now);
		const key = dedupeKey(event, body);
		if (seen.has(key, now)) return answer(200, { received: true, duplicate: true });

		const save = () => {
			if (staticData) staticData.seenEvents = seen.newest(PERSISTED_KEYS);
		};
		const remember = (): boolean => {
			if (!seen.checkAndAdd(key, Date.now())) return false;
			save();
			return true;
		};
		const merchantId = async (client: PayOnUsClient): Promise<string | undefined> => {
			const own = String(this.getNodeParameter('merchantId', '') ?? '').trim();
			return own || client.defaults.merchantId || undefined;
		};
		const notConfirmed = (item: IDataObject, reason: string): IWebhookResponseData => {
			this.logger.warn(
				`PayOnUs Trigger: ${event} ${eventReference(event, body)} was not confirmed (${reason}); sent to the Not Confirmed output, not to Verified`,
			);
			return {
				noWebhookResponse: true,
				workflowData: [[], [{ json: { ...item, confirmed: false, confirmation: { confirmed: false, reason } } }]],
			};
		};

		if (isSigned(event) && !confirmSignedEvent) {
			if (!remember()) return answer(200, { received: true, duplicate: true });
			return accept(toItem(event, body, 'signature', receivedAt));
		}

		if (isSigned(event)) {
			// 5. Signed event, confirmed with the service. The claim is taken
			// now (synchronously: one of several concurrent copies goes on),
			// the service gets its 200 at once (it wants one within about 5 s),
			// then the record is read back.
			if (!seen.checkAndAdd(key, Date.now())) return answer(200, { received: true, duplicate: true });
			answer(200, { received: true });
			const received = toItem(event, body, 'signature', receivedAt);
			let verdict;
			try {
				const client = await createClient(this);
				verdict = await confirmSigned(client, event, body, {
					merchantId: await merchantId(client),
					sleep: CONFIRM_TIMING.sleep,
					attempts: CONFIRM_TIMING.attempts,
					pauseMs: CONFIRM_TIMING.pauseMs,
				});
			} catch (error) {
				verdict = { confirmed: false, reason: `the service could not be read (${(error as Error).message})` };
			}
			if (!verdict.confirmed || !verdict.record) {
				// Given up: a later repeat of the same event may be confirmed.
				seen.forget(key);
				const item = verdict.record ? { ...received, serviceRecord: verdict.record } : received;
				return notConfirmed(item, verdict.reason ?? 'not confirmed');
			}
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
				seen.forget(key);
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
			save();
			return { noWebhookResponse: true, workflowData: [[{ json: item }], []] };
		}

		const confirm = this.getNodeParameter('confirmTokenization', true) as boolean;
		if (!confirm) {
			if (!remember()) return answer(200, { received: true, duplicate: true });
			return accept(toItem(event, body, 'none', receivedAt));
		}

		// 6. Tokenization with confirmation: answer 200 now (the service wants an
		// answer within about 5 s and never retries this event), then read the
		// link by id (GET /card-tokenization-links/{id}?businessId=..., no
		// Merchant ID needed) and start the workflow only if the link confirms
		// it. Anything else goes to the Not Confirmed output: nothing is
		// dropped silently (PayOnUs sends this event once).
		if (!seen.checkAndAdd(key, Date.now())) return answer(200, { received: true, duplicate: true });
		answer(200, { received: true });
		const linkId = body.cardTokenizationLinkId as string;
		const businessId = String(body.businessId ?? '');
		const received = toItem(event, body, 'none', receivedAt);
		let verdict: { confirmed: boolean; reason?: string; tokenChecked?: boolean; forged?: boolean };
		try {
			const client = await createClient(this);
			const merchant = await merchantId(client);
			let link = await client.request<IDataObject>({
				method: 'GET',
				path: `/api/v1/card-tokenization-links/${encodeURIComponent(linkId)}`,
				qs: { businessId },
			});
			if (link && (link.cardTokenId === undefined || link.cardTokenId === null) && merchant) {
				// The record by id may not carry cardTokenId; the search items do.
				const page = await client.request<IDataObject>({
					method: 'GET',
					path: '/api/v1/card-tokenization-links',
					qs: { merchantId: merchant, id: linkId, pageNo: 1, pageSize: 5 },
				});
				const found = ((page?.content as IDataObject[] | undefined) ?? []).find((l) => String(l.id) === linkId);
				if (found) link = { ...link, cardTokenId: found.cardTokenId, status: found.status ?? link.status };
			}
			verdict = confirmLink(body, link, { tokenOptional: !merchant });
		} catch (error) {
			if (String((error as { httpCode?: unknown }).httpCode ?? '') === '404') {
				verdict = { confirmed: false, reason: 'link not found', forged: true };
			} else {
				verdict = { confirmed: false, reason: `could not read the link through the API (${(error as Error).message})` };
			}
		}
		if (!verdict.confirmed) {
			seen.forget(key);
			if ('forged' in verdict || verdict.reason === 'link not found') {
				// PayOnUs has no such link for that business: a made-up
				// notification (unsigned, anyone can post one). Logged, and no
				// execution, so forged posts cannot flood the execution list.
				this.logger.warn(
					`PayOnUs Trigger: tokenization notification for link ${linkId} was not confirmed (PayOnUs has no such link for business ${businessId}); no execution started`,
				);
				return { noWebhookResponse: true };
			}
			return notConfirmed(received, verdict.reason ?? 'not confirmed');
		}
		save();
		const item = toItem(event, body, 'api', receivedAt);
		if (verdict.tokenChecked === false) {
			item.unsignedFields = ['cardTokenId'];
			item.cardTokenIdChecked = false;
			this.logger.info(
				`PayOnUs Trigger: tokenization link ${linkId} confirmed COMPLETED; its card token could not be checked (no Merchant ID to search links with)`,
			);
		}
		return { noWebhookResponse: true, workflowData: [[{ json: item }], []] };
	}
}
