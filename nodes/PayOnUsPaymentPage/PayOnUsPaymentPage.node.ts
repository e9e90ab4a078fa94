import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { listSearch } from '../shared/methods';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';
import { shapeOf, simplifyOn } from '../shared/triggerSimplify';
import { paymentPageProperties } from './properties';
import { simplified } from './request/outputs';
import { servePage } from './serve';

/*
 * PayOnUs Payment Page: a checkout page served by n8n at this node's webhook
 * URL. GET renders, POSTs drive the steps, GET ?c=<sealed state>&poll=1
 * answers the page's own status poll. Every request is answered by this
 * node itself, and only the request that first sees a checkout paid hands
 * n8n one item to start the workflow: serve.ts, one request step by step.
 */

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
		// 1.1: Simplify (on by default); version 1 keeps its full items.
		// 1.2: simplified items in shape 2 (businessId, the customer's phone; ../shared/triggerSimplify.ts).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
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
		],
		activationMessage: 'Your payment page is live at the production URL.',
		properties: paymentPageProperties,
	};

	// Nothing to register at PayOnUs: the page is only n8n's own URL.
	webhookMethods = { setup: NOTHING_TO_REGISTER, default: NOTHING_TO_REGISTER };

	methods = { listSearch: { searchBusinesses: listSearch.searchBusinesses }, credentialTest: CREDENTIAL_TEST_METHODS };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const result = await servePage(this);
		const { typeVersion } = this.getNode();
		return simplified(result, () => simplifyOn(typeVersion, this.getNodeParameter('simplify', true)), shapeOf('paymentPage', typeVersion));
	}
}
