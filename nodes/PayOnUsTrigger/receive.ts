import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { merchantIdOf } from '../shared/credential/defaults';
import { createClient } from '../shared/transport';
import { authenticate, keySourceOf } from './authenticate';
import { claimEvent, judgeEvent, settleEvent } from './claim';
import { clock } from './clock';
import { confirmEvent, judgeUnread } from './confirm';
import { requestCredentialOf } from '../shared/webhookCredential';
import { answered, duplicate, emit, ignored, received, respond } from './emit';
import { filterEvent, isConfirming } from './filter';
import { readNotification, type RawRequest } from './read';

/**
 * One notification, from its bytes to what it starts: read -> authenticate ->
 * filter -> claim -> confirm -> emit, each step in the file of its name
 * (read.ts, authenticate.ts, filter.ts, claim.ts, confirm.ts with
 * tokenization.ts, emit.ts). Items are in full here; webhook() simplifies them.
 *
 * Answer first (n8n 2.8.4). Every request is answered by this node itself,
 * before n8n does anything slow: an accepted event gets 200 `{received: true}`
 * and the node returns `{ noWebhookResponse: true, workflowData }`, so n8n
 * starts the execution (writes it to the database, etc.) after PayOnUs has
 * its answer (n8n 2.8.4 webhook-helpers executeWebhook: noWebhookResponse
 * resolves the request without a second answer, then WorkflowRunner.run still
 * runs for the returned workflowData). With plain 'onReceived' n8n would
 * answer only after creating the execution. The cost: if n8n then fails to
 * create the execution (database down), PayOnUs already has its 200 and the
 * event is remembered as seen, so it is not started by a repeat either; n8n
 * logs the error (its uncaught-error handler) and the poll trigger or a status
 * query reconciles it, as the specification says webhooks are not the sole
 * source of truth. An event to confirm is claimed and answered before the
 * service is read (it wants an answer within about 5 s).
 */
export async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject();
	const request: RawRequest = ctx.getRequestObject();
	const read = await readNotification(request, () => ctx.getBodyData(), new Date(clock.now()));
	if ('refused' in read) return answered(res, read.refused);
	const { notification } = read;

	// One read of the credential for the whole request (credential.ts), handed to each step that needs it.
	const credential = requestCredentialOf(ctx, () => clock.now());
	const refused = await authenticate(notification, request.headers.hash, keySourceOf(ctx, credential), (m) => ctx.logger.warn(m));
	if (refused) return answered(res, refused);

	const route = filterEvent(
		notification,
		(name, fallback) => ctx.getNodeParameter(name, fallback),
		(m) => ctx.logger.warn(m),
	);
	if ('ignored' in route) return answered(res, ignored(route.ignored));

	const now = clock.now();
	const scope = {
		workflowId: ctx.getWorkflow().id,
		nodeId: ctx.getNode().id,
		mode: ctx.getMode(),
		staticData: () => ctx.getWorkflowStaticData('node'),
	};
	const claim = claimEvent(scope, notification, isConfirming(route.check), now);
	if (!claim) return answered(res, duplicate());
	if (!isConfirming(route.check)) {
		// Not read back: dated by its signed onusReference, or by nothing (rule 3); built before the answer goes out.
		const verdict = judgeUnread(notification, route.check, (record) => judgeEvent(scope, record));
		respond(res, received());
		return emit(verdict, notification, false, ctx.logger);
	}

	respond(res, received());
	const verdict = await confirmEvent(notification, route, {
		client: async () => await createClient(ctx, { credential: await credential.forClient() }),
		merchantId: (client) => merchantIdOf(ctx.getNodeParameter('merchantId', ''), client.defaults),
		judge: (record) => judgeEvent(scope, record),
		recheck: claim.recheck,
	});
	settleEvent(scope, claim.key, verdict, clock.now());
	return emit(verdict, notification, claim.recheck, ctx.logger);
}
