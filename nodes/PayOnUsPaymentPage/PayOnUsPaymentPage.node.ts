import { randomBytes } from 'crypto';
import {
	NodeConnectionTypes,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { readPersistedKeys } from '../shared/dedupe';
import { resolveBaseUrl } from '../shared/environments';
import type { PayOnUsClient } from '../shared/client';
import { createClient } from '../shared/transport';
import { listSearch } from '../PayOnUs/methods';
import { businessIdField } from '../PayOnUs/resources/fields';
import { Checkout, type View } from './checkout';
import { buildConfig, PageSetupError, type RawPageParameters } from './config';
import { emittedFor, type EmittedCheckouts, type EmittedWindow } from './emitted';
import { renderContinue, renderMessage, renderView, type RenderOptions } from './html';
import { deriveKey, newCheckoutId, open, seal } from './token';

/*
 * PayOnUs Payment Page: a checkout page served by n8n at this node's webhook
 * URL. GET renders, POSTs drive the steps, GET ?c=<token>&poll=1 answers the
 * page's own status poll. Every request is answered by this node itself
 * (`noWebhookResponse`), and only the request that first sees a checkout
 * paid (Get Payment says SUCCESSFUL with the checkout's amount, currency,
 * business and reference) hands n8n one item to start the workflow.
 *
 * State: PayOnUs holds the payins (reference `PP-<checkout id>-<attempt>`);
 * the rest of a checkout travels in a sealed token (token.ts). Nothing is
 * kept in process memory but caches and the emitted-checkout memory below, so
 * any n8n process (regular, queue-mode main or webhook processor) can serve
 * any request of any checkout.
 *
 * Exactly once: a checkout reference is claimed in process (synchronously:
 * within one process two concurrent requests that both see a checkout paid
 * start ONE execution) and the newest PERSISTED_KEYS go to the workflow's
 * static data, which n8n reads before and saves after every production
 * request (so a restart or another process that comes later does not start
 * it again). The request that saw the payment answers only once n8n has
 * stored the execution; if n8n cannot store it, the claim is released and
 * the next request starts it (paidAnswer). Two processes seeing the same
 * checkout paid at the same moment can both start it (static data is written
 * whole, last write wins): across processes the guarantee is at-least-once,
 * and the item's merchantCheckoutReference is the key to make the workflow
 * idempotent. Test URL requests keep their own memory only.
 */

export const EMITTED_WINDOW: EmittedWindow = {
	ttlMs: 7 * 24 * 60 * 60 * 1000,
	maxEntries: 20_000,
};
export const PERSISTED_KEYS = 500;

const NO_STORE = 'no-store, max-age=0';

function securityHeaders(nonce: string): Record<string, string> {
	return {
		'Cache-Control': NO_STORE,
		'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src data:; base-uri 'none'; frame-ancestors 'none'`,
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'no-referrer',
		'X-Frame-Options': 'DENY',
	};
}

const sandboxKeys = new Map<string, { at: number; pem: string }>();

interface PageCredential {
	at: number;
	/** Token key: HMAC of the client secret, workflow and node ids (token.ts). */
	key: Buffer;
	merchantId?: string;
	businessId?: string;
	environment: string;
	baseUrl: string;
}

/**
 * What the page needs from the credential, kept a minute per (credential,
 * workflow, node): reading a credential costs n8n several database queries
 * and a decryption, and the start page needs nothing else. Only a derived
 * key is kept, never the secret itself.
 */
const pageCredentials = new Map<string, PageCredential>();
const CREDENTIAL_TTL_MS = 60_000;

async function pageCredential(
	ctx: IWebhookFunctions,
	scope: string,
): Promise<PageCredential | string> {
	const hit = pageCredentials.get(scope);
	if (hit && Date.now() - hit.at < CREDENTIAL_TTL_MS) return hit;
	const credentials =
		(await ctx.getCredentials<ICredentialDataDecryptedObject>('payOnUsApi')) ?? {};
	const secret = String(credentials.clientSecret ?? '');
	if (!secret) return 'The PayOnUs credential has no Client Secret';
	const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
	const [, workflowId, nodeId] = scope.split('|');
	const entry: PageCredential = {
		at: Date.now(),
		key: deriveKey(secret, `${workflowId}|${nodeId}`),
		merchantId: text(credentials.merchantId),
		businessId: text(credentials.businessId),
		environment: String(credentials.environment ?? 'sandbox'),
		baseUrl:
			credentials.environment === 'custom' ? resolveBaseUrl('custom', credentials.baseUrl) : '',
	};
	if (pageCredentials.size > 1000) pageCredentials.clear();
	pageCredentials.set(scope, entry);
	return entry;
}

/** A client created on its first call. */
function lazyClient(get: () => Promise<PayOnUsClient>, info: PageCredential): PayOnUsClient {
	return {
		environment:
			info.environment === 'production' || info.environment === 'custom'
				? info.environment
				: 'sandbox',
		defaults: {
			...(info.merchantId ? { merchantId: info.merchantId } : {}),
			...(info.businessId ? { businessId: info.businessId } : {}),
		},
		request: async (opts) => await (await get()).request(opts),
		paginate: async (opts) => await (await get()).paginate(opts),
	};
}

function formOf(body: unknown, raw: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	const take = (entries: Iterable<[string, unknown]>) => {
		for (const [k, v] of entries)
			if (typeof v === 'string' && k.length < 40) out[k] = v.slice(0, 4000);
	};
	if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length > 0) {
		take(Object.entries(body as IDataObject));
	} else if (Buffer.isBuffer(raw) && raw.length > 0 && raw.length < 64 * 1024) {
		take(new URLSearchParams(raw.toString('utf8')).entries());
	}
	return out;
}

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
		credentials: [{ name: 'payOnUsApi', required: true }],
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
		properties: [
			{
				displayName:
					"Share the Production URL (GET) with your customers once the workflow is active. The workflow starts once per payment that PayOnUs confirms, never on the browser's word. The Test URL works while listening for a test event.",
				name: 'urlNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Path',
				name: 'path',
				type: 'string',
				default: '',
				placeholder: 'e.g. pay-for-tickets',
				description: 'Last part of the page URL. Leave empty for a random one.',
			},
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. Concert ticket',
				description: 'Heading of the page: what the customer pays for',
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description: 'Text under the title',
			},
			businessIdField({
				description:
					"The business that receives the money. Leave empty to use the credential's Default Business ID.",
			}),
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'options',
				default: 'NGN',
				description:
					'Currency of the payment; the business needs a wallet in it. It decides which methods can be offered.',
				options: [
					{ name: 'GHS (Mobile Money)', value: 'GHS' },
					{ name: 'KES (Mobile Money, Card)', value: 'KES' },
					{ name: 'NGN (Bank Transfer, Card)', value: 'NGN' },
					{ name: 'USD (Card)', value: 'USD' },
					{ name: 'ZAR (EFT, Mobile Money, Card)', value: 'ZAR' },
				],
			},
			{
				displayName: 'Amount',
				name: 'amountMode',
				type: 'options',
				default: 'fixed',
				options: [
					{
						name: 'Fixed',
						value: 'fixed',
						description: 'The same amount for everyone',
					},
					{
						name: 'Chosen by the Customer',
						value: 'customer',
						description: 'Within a minimum and a maximum',
					},
				],
			},
			{
				displayName: 'Amount Value',
				name: 'amount',
				type: 'number',
				typeOptions: { minValue: 0.01, numberPrecision: 2 },
				default: 1000,
				displayOptions: { show: { amountMode: ['fixed'] } },
				description: 'Amount to pay, in the currency above',
			},
			{
				displayName: 'Minimum Amount',
				name: 'minAmount',
				type: 'number',
				typeOptions: { minValue: 0.01, numberPrecision: 2 },
				default: 100,
				displayOptions: { show: { amountMode: ['customer'] } },
			},
			{
				displayName: 'Maximum Amount',
				name: 'maxAmount',
				type: 'number',
				typeOptions: { minValue: 0.01, numberPrecision: 2 },
				default: 100000,
				displayOptions: { show: { amountMode: ['customer'] } },
			},
			{
				displayName: 'Payment Methods',
				name: 'methods',
				type: 'multiOptions',
				default: ['bank', 'card'],
				description: 'Methods to offer; each is shown only where the currency allows it',
				options: [
					{
						name: 'Bank Transfer',
						value: 'bank',
						description: 'A one-time NGN account for this checkout',
					},
					{
						name: 'Card',
						value: 'card',
						description: 'Encrypted in the browser; PIN, OTP and 3-D Secure handled',
					},
					{
						name: 'EFT',
						value: 'eft',
						description: 'ZAR: the customer authorises at their bank',
					},
					{
						name: 'Mobile Money',
						value: 'momo',
						description: "A prompt on the customer's phone (OTP when the network asks)",
					},
				],
			},
			{
				displayName: 'Card Encryption Public Key',
				name: 'cardPublicKey',
				type: 'string',
				typeOptions: { rows: 4 },
				default: '',
				displayOptions: { show: { methods: ['card'] } },
				placeholder: '-----BEGIN PUBLIC KEY-----',
				description:
					"PayOnUs's RSA public key for the credential's environment (PEM). The customer's browser encrypts the card details with it, so card numbers never reach n8n in clear. Empty with a Custom base URL: the local sandbox's key (GET /_sandbox/public-key) is used.",
			},
			{
				displayName: 'Ask Name',
				name: 'askName',
				type: 'options',
				default: 'optional',
				options: [
					{ name: 'No', value: 'no' },
					{ name: 'Optional', value: 'optional' },
					{ name: 'Required', value: 'required' },
				],
				description: "Whether the page asks the customer's name (the email is always asked)",
			},
			{
				displayName: 'Ask Phone',
				name: 'askPhone',
				type: 'options',
				default: 'no',
				options: [
					{ name: 'No', value: 'no' },
					{ name: 'Optional', value: 'optional' },
					{ name: 'Required', value: 'required' },
				],
				description: "Whether the page asks the customer's phone number",
			},
			{
				displayName: 'After Payment',
				name: 'onSuccess',
				type: 'options',
				default: 'message',
				options: [
					{ name: 'Show a Message', value: 'message' },
					{ name: 'Redirect to a URL', value: 'redirect' },
				],
			},
			{
				displayName: 'Success Message',
				name: 'successMessage',
				type: 'string',
				default: 'Thank you: your payment was received.',
				displayOptions: { show: { onSuccess: ['message'] } },
			},
			{
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://shop.example.com/thanks',
				displayOptions: { show: { onSuccess: ['redirect'] } },
				description:
					'Where the customer goes once the payment is confirmed (merchantCheckoutReference is added to it)',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Checkout Expiry (Minutes)',
						name: 'expiryMinutes',
						type: 'number',
						typeOptions: { minValue: 0.05, maxValue: 1440, numberPrecision: 2 },
						default: 30,
						description: 'How long a checkout can be paid, from the moment the page is opened',
					},
					{
						displayName: 'Not Paid Output',
						name: 'notPaidOutput',
						type: 'boolean',
						default: false,
						description:
							'Whether to add a second output for failed attempts (declined card, refused mobile money or EFT) and expired checkouts, each once, as far as a request of the page sees them (a checkout nobody opens again is not looked at)',
					},
					{
						displayName: 'Narration',
						name: 'narration',
						type: 'string',
						default: '',
						description: 'Text sent with each payment (defaults to the title)',
					},
				],
			},
		],
	};

	// Nothing to register at PayOnUs: the page is only n8n's own URL.
	webhookMethods = {
		setup: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	methods = { listSearch: { searchBusinesses: listSearch.searchBusinesses } };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const res = this.getResponseObject();
		const nonce = randomBytes(16).toString('base64');
		const headers = securityHeaders(nonce);
		const isPost = req.method === 'POST';
		const query = this.getQueryData() as IDataObject;
		let rendering: RenderOptions = {
			nonce,
			config: {
				title: String(this.getNodeParameter('title', 'Payment')),
				description: '',
			} as RenderOptions['config'],
		};
		const html = (status: number, body: string): IWebhookResponseData => {
			res.status(status).set(headers).type('html').send(body);
			return { noWebhookResponse: true };
		};
		let emitted: IDataObject | undefined;
		const notPaid: IDataObject[] = [];
		const withData = (result: IWebhookResponseData): IWebhookResponseData => {
			if (!emitted && notPaid.length === 0) return result;
			const outputs = [emitted ? [{ json: emitted }] : []];
			if (notPaid.length > 0) outputs.push(notPaid.map((json) => ({ json })));
			return { ...result, workflowData: outputs };
		};
		let memory: EmittedCheckouts | undefined;
		const claimed: string[] = [];
		/**
		 * The answer of the request that saw a checkout paid. n8n sends it only
		 * after it created the execution (responseMode onReceived, no
		 * noWebhookResponse: n8n defers the answer until the run is stored).
		 * If n8n cannot create it, the customer gets n8n's 5xx and the claim is
		 * released, so the next request (the page polls) starts it again:
		 * a paid checkout is never silently dropped. n8n wraps an HTML answer
		 * in its sandbox CSP; the receipt needs no script.
		 */
		const paidAnswer = (body: string | IDataObject): IWebhookResponseData => {
			res.set({
				'Cache-Control': NO_STORE,
				'X-Content-Type-Options': 'nosniff',
				'Referrer-Policy': 'no-referrer',
			});
			if (typeof body === 'string') res.type('html');
			res.once('finish', () => {
				if (res.statusCode >= 500) for (const k of claimed) memory?.release(k);
			});
			const outputs = [emitted ? [{ json: emitted }] : []];
			if (notPaid.length > 0) outputs.push(notPaid.map((json) => ({ json })));
			return { workflowData: outputs, webhookResponse: body };
		};
		const setupProblem = (why: string): IWebhookResponseData => {
			this.logger.error(`PayOnUs Payment Page "${this.getNode().name}" is not usable: ${why}`);
			const r = html(
				503,
				renderMessage(
					rendering,
					'Payments are not available',
					'This page is not set up to take payments right now. Please try again later.',
					false,
				),
			);
			return withData(r);
		};

		try {
			const node = this.getNode();
			const workflowId = String(this.getWorkflow().id ?? '');
			const credentialId = node.credentials?.payOnUsApi?.id ?? '';
			const info = await pageCredential(this, `${credentialId}|${workflowId}|${node.id}`);
			if (typeof info === 'string') return setupProblem(info);
			// The client is created on the first service call only (a start page
			// with its settings cached needs none).
			let clientPromise: Promise<PayOnUsClient> | undefined;
			const getClient = async (): Promise<PayOnUsClient> =>
				await (clientPromise ??= createClient(this));
			const options = this.getNodeParameter('options', {}) as IDataObject;
			const title = String(this.getNodeParameter('title', ''));
			const amountMode = String(this.getNodeParameter('amountMode', 'fixed'));
			const onSuccess = String(this.getNodeParameter('onSuccess', 'message'));
			const methods = this.getNodeParameter('methods', []) as string[];
			const raw: RawPageParameters = {
				title,
				description: String(this.getNodeParameter('description', '')),
				businessId:
					String(this.getNodeParameter('businessId', '', { extractValue: true }) ?? '').trim() ||
					info.businessId ||
					'',
				currency: String(this.getNodeParameter('currency', 'NGN')),
				amountMode,
				amount: amountMode === 'fixed' ? Number(this.getNodeParameter('amount', 0)) : 0,
				minAmount: amountMode === 'customer' ? Number(this.getNodeParameter('minAmount', 0)) : 0,
				maxAmount: amountMode === 'customer' ? Number(this.getNodeParameter('maxAmount', 0)) : 0,
				methods,
				askName: String(this.getNodeParameter('askName', 'optional')),
				askPhone: String(this.getNodeParameter('askPhone', 'no')),
				onSuccess,
				successMessage:
					onSuccess === 'message' ? String(this.getNodeParameter('successMessage', '')) : '',
				redirectUrl:
					onSuccess === 'redirect' ? String(this.getNodeParameter('redirectUrl', '')) : '',
				expiryMinutes: Number(options.expiryMinutes ?? 30),
				cardPublicKey: methods.includes('card')
					? String(this.getNodeParameter('cardPublicKey', ''))
					: '',
				narration: String(options.narration ?? '') || title,
			};
			const fetchSandboxKey = async (): Promise<string> => {
				if (info.environment !== 'custom') return '';
				const base = info.baseUrl;
				const hit = sandboxKeys.get(base);
				if (hit && Date.now() - hit.at < 5 * 60 * 1000) return hit.pem;
				try {
					const answer = (await this.helpers.httpRequest({
						method: 'GET',
						url: `${base}/_sandbox/public-key`,
						json: true,
						timeout: 10_000,
					})) as IDataObject;
					const pem = String((answer?.data as IDataObject | undefined)?.publicKey ?? '');
					sandboxKeys.set(base, { at: Date.now(), pem });
					return pem;
				} catch {
					return '';
				}
			};
			const config = await buildConfig(
				getClient,
				info.merchantId,
				raw,
				credentialId,
				fetchSandboxKey,
			);
			rendering = { nonce, config };

			const key = info.key;
			const mode = this.getMode();
			const persist = mode !== 'manual';
			memory = emittedFor(`payment-page:${workflowId}:${node.id}:${mode}`, EMITTED_WINDOW);
			const staticData = persist ? this.getWorkflowStaticData('node') : undefined;
			const claim = (dedupeKey: string): boolean => {
				const now = Date.now();
				if (staticData) memory?.merge(readPersistedKeys(staticData.emittedCheckouts), now);
				if (!memory?.claim(dedupeKey, now)) return false;
				claimed.push(dedupeKey);
				if (staticData) staticData.emittedCheckouts = memory.newest(PERSISTED_KEYS);
				return true;
			};

			const checkout = new Checkout({
				client: lazyClient(getClient, info),
				config,
				now: () => Date.now(),
				// Return address after 3-D Secure / EFT: the production URL, or in
				// test mode the address this request came in on.
				pageUrl: persist
					? (this.getNodeWebhookUrl('default') ?? '')
					: `${req.protocol}://${String(req.headers.host ?? '')}${req.baseUrl ?? ''}${req.path}`,
				seal: (state) => seal(state, key),
				emit: (item, ref) => {
					if (!claim(ref)) return false;
					emitted = item;
					return true;
				},
				emitNotPaid: options.notPaidOutput
					? (item, dedupeKey) => {
							if (!claim(dedupeKey)) return false;
							notPaid.push(item);
							return true;
						}
					: undefined,
				warn: (message) => this.logger.warn(message),
			});
			const finish = withData;

			const form = isPost
				? formOf(this.getBodyData(), (req as typeof req & { rawBody?: Buffer }).rawBody)
				: {};
			const tokenText =
				(isPost ? form.c : undefined) ?? (typeof query.c === 'string' ? query.c : undefined);

			if (tokenText === undefined || tokenText === '') {
				if (isPost)
					return html(
						400,
						renderMessage(rendering, 'This page has expired', 'Please start again.'),
					);
				return html(200, renderView(rendering, checkout.fresh(newCheckoutId())));
			}
			const state = open(tokenText, key);
			if (!state) {
				return html(
					400,
					renderMessage(
						rendering,
						'This payment link is not valid',
						'It may be incomplete, or from another page. Nothing was charged by opening it.',
					),
				);
			}

			if (!isPost && query.poll !== undefined) {
				const answer = await checkout.poll(state);
				if (emitted) return paidAnswer(answer as unknown as IDataObject);
				res
					.status(200)
					.set({
						'Cache-Control': NO_STORE,
						'X-Content-Type-Options': 'nosniff',
					})
					.json(answer);
				return finish({ noWebhookResponse: true });
			}

			const step = String(form.step ?? '');
			const view: View = isPost
				? await checkout.step(state, step, form)
				: await checkout.show(state, typeof query.notice === 'string' ? query.notice : undefined);
			if (emitted) {
				// This request saw the payment land: the page answers once n8n has
				// created the execution (see paidAnswer).
				return paidAnswer(
					view.kind === 'paid' && view.redirect
						? renderContinue(rendering, view.redirect)
						: renderView(rendering, view),
				);
			}
			if (view.redirect) {
				res.status(303).set(headers).location(view.redirect).end();
				return finish({ noWebhookResponse: true });
			}
			if (isPost && (view.status ?? 200) < 400) {
				// Post/redirect/get: a reload never re-sends a step.
				const notice = step === 'check' && view.message ? '&notice=check' : '';
				res.status(303).set(headers).location(`?c=${view.token}${notice}`).end();
				return finish({ noWebhookResponse: true });
			}
			return finish(html(view.status ?? 200, renderView(rendering, view)));
		} catch (error) {
			if (error instanceof PageSetupError) return setupProblem(error.message);
			if (emitted) {
				return paidAnswer(
					renderMessage(
						rendering,
						'Payment received',
						'Your payment was received. Reload this page for the receipt.',
						false,
					),
				);
			}
			this.logger.warn(
				`PayOnUs Payment Page "${this.getNode().name}": ${(error as Error).message}`,
			);
			const r = html(
				502,
				renderMessage(
					rendering,
					'We could not reach the payment service',
					'Nothing was charged twice. Go back and reload the page in a moment to see where your payment stands.',
					false,
				),
			);
			return withData(r);
		}
	}
}
