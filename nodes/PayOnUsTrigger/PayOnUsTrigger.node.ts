import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';
import { simplifyItems, simplifyOn } from '../shared/triggerSimplify';
import { forgetTestEvent } from './claim';
import { triggerProperties } from './properties';
import { OUTPUT_NAMES } from './emit';
import { receive } from './receive';
import { sendTestEvent } from './sample';

/*
 * The PayOnUs Trigger (webhook): PayOnUs posts a notification, the node
 * answers it and decides what it starts. This file only assembles the node;
 * receive.ts runs each notification through its steps, each in its own file
 * with its guarantees beside it:
 *
 *   read.ts           raw body, parsed, event recognised (400 otherwise)
 *   authenticate.ts   the `hash` of COLLECTION, PAYOUT and REFUND (401
 *                     otherwise); a tokenization notification's link id
 *   filter.ts         Events, Only Statuses, Only Business IDs, and how the
 *                     event is to be confirmed
 *   claim.ts          repeats (24 h, signed fields), events held back, the
 *                     memory's horizon (over nodes/shared/claim/index.ts)
 *   confirm.ts        a COLLECTION's or PAYOUT's record re-read from the
 *                     service (reads: service.ts); tokenization.ts its link
 *   emit.ts           the answer, and the Confirmed / Unconfirmed items
 *                     (shaped in items.ts)
 *
 * Listen for Test Event: sample.ts. Parameters: properties.ts.
 */

/** The events on the canvas, as the Events list names them. */
const SUBTITLE =
	'={{$parameter["events"].join(", ").replace("card_tokenization_link.completed", "Card Tokenization").replace("COLLECTION", "Collection").replace("PAYOUT", "Payout").replace("REFUND", "Refund")}}';

export { OUTPUT_NAMES } from './emit';


export class PayOnUsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs Trigger',
		name: 'payOnUsTrigger',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: SUBTITLE,
		// n8n's node picker shows one entry for this node and the PayOnUs node
		// (same name but "Trigger") with THIS description: it says what both do.
		description: 'Collect payments and pay out with PayOnUs, and start workflows on its payment notifications',
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
			// (see authenticate.ts), not here.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				// Listening for a test event: PayOnUs only notifies the Production
				// URL, so the node sends itself the latest payment (sample.ts).
				if (this.getMode() === 'manual' && this.getNodeParameter('testEvent', 'latestPayment') === 'latestPayment') {
					const workflowId = this.getWorkflow().id;
					const nodeId = this.getNode().id;
					// Not awaited: the editor starts listening now, the event follows.
					void sendTestEvent(this, (sample) => forgetTestEvent(workflowId, nodeId, sample.event, sample.body));
				}
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const result = await receive(this);
		const simplify = simplifyOn(this.getNodeParameter('simplify', true));
		if (!simplify || !result.workflowData) return result;
		return { ...result, workflowData: result.workflowData.map((items) => simplifyItems(items)) };
	}
}
