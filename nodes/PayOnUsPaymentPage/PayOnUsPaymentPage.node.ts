import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type WebhookType,
} from 'n8n-workflow';
import { listSearch } from '../shared/methods';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';
import { simplifyOn } from '../shared/triggerSimplify';
import { paymentPageProperties } from './properties';
import { simplified } from './request/outputs';
import { servePage } from './serve';
import { serveNotify } from './request/notify';

/*
 * PayOnUs Payment Page: a checkout page served by n8n at this node's webhook
 * URL. GET renders, POSTs drive the steps, GET ?c=<sealed state>&poll=1
 * answers the page's own status poll, POST <url>/notify takes the receiving
 * workflow's forward of a checkout's payin (request/notify.ts). Every request is answered by this
 * node itself, and only the request that first sees a checkout paid hands
 * n8n one item to start the workflow: serve.ts, one request step by step.
 */

const NOTIFY_WEBHOOK = 'notify' as WebhookType;

const NOTHING_TO_REGISTER = {
	async checkExists(this: IHookFunctions): Promise<boolean> {
		return true;
	},
	async create(this: IHookFunctions): Promise<boolean> {
		return true;
	},
	async delete(this: IHookFunctions): Promise<boolean> {
		return true;
	},
};

export class PayOnUsPaymentPage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs Payment Page',
		name: 'payOnUsPaymentPage',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["title"]}}',
		description: 'Serves a payment page and starts the workflow once per confirmed payment',
		defaults: { name: 'PayOnUs Payment Page' },
		inputs: [],
		outputs: `={{$parameter.options?.notPaidOutput ? ["${NodeConnectionTypes.Main}", "${NodeConnectionTypes.Main}"] : ["${NodeConnectionTypes.Main}"]}}`,
		outputNames: ['Paid', 'Not Paid'],
		credentials: [{ name: 'payOnUsApi', required: true, testedBy: 'payOnUsApiTest' }],
		webhooks: [
			{
				name: 'setup',
				httpMethod: 'GET',
				responseMode: 'onReceived',
				// '' (not undefined): n8n then answers with the node's own webhookResponse.
				responseData: '',
				isFullPath: true,
				path: '={{$parameter["path"] || $webhookId}}',
			},
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// '' (not undefined): n8n then answers with the node's own webhookResponse.
				responseData: '',
				isFullPath: true,
				path: '={{$parameter["path"] || $webhookId}}',
				ndvHideMethod: true,
			},
			{
				// The notification door (request/notify.ts): the receiving workflow forwards a checkout's payin here.
				// n8n types a webhook's name as 'default' | 'setup'; any name runs (its webhook service
				// calls webhookMethods[name] only when the node has them), and getWebhookName() tells them apart.
				name: NOTIFY_WEBHOOK,
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				isFullPath: true,
				path: '={{($parameter["path"] || $webhookId) + "/notify"}}',
				ndvHideMethod: true,
			},
		],
		activationMessage: 'Your payment page is live at the production URL.',
		properties: paymentPageProperties,
	};

	// Nothing to register at PayOnUs: the page is only n8n's own URL.
	webhookMethods = { setup: NOTHING_TO_REGISTER, default: NOTHING_TO_REGISTER };

	methods = { listSearch: { searchBusinesses: listSearch.searchBusinesses }, credentialTest: CREDENTIAL_TEST_METHODS };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const result = this.getWebhookName() === NOTIFY_WEBHOOK ? await serveNotify(this) : await servePage(this);
		return simplified(result, () => simplifyOn(this.getNodeParameter('simplify', true)));
	}
}
