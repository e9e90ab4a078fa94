import { randomBytes } from 'crypto';
import {
	NodeConnectionTypes,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';
import { readPersistedKeys, SeenRegistry, type SeenKeys, type SeenWindow } from '../shared/dedupe';
import type { PayOnUsClient } from '../shared/clientInterface';
import { orCredentialDefault } from '../shared/credential/defaults';
import { createClient } from '../shared/transport';
import { listSearch } from '../PayOnUs/methods';
import { Checkout, type View } from './checkout';
import { buildConfig, PageSetupError, type RawPageParameters } from './config';
import { lazyClient, pageCredential, sandboxPublicKey, takesTestPayments } from './credential';
import { paymentPageProperties } from './properties';
import { renderContinue, renderMessage, renderView, type RenderOptions } from './html';
import { formOf, NO_STORE, securityHeaders } from './http';
import { newCheckoutId, open, seal } from './token';
import { simplifyItems, simplifyOn } from '../shared/triggerSimplify';
import { CREDENTIAL_TEST_METHODS } from '../shared/accessToken/credentialTest';

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

/** Checkouts already emitted (shared/dedupe.ts): claimed per checkout, released when n8n could not store the run. */
export const EMITTED_WINDOW: SeenWindow = {
	ttlMs: 7 * 24 * 60 * 60 * 1000,
	maxEntries: 20_000,
};
export const PERSISTED_KEYS = 500;
/** The page's clock for its memory (tests move it). */
export const PAGE_CLOCK = { now: (): number => Date.now() };

/** The page's memories, one per (workflow, node, mode). */
const emittedCheckouts = new SeenRegistry();

export class PayOnUsPaymentPage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs Payment Page',
		name: 'payOnUsPaymentPage',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['trigger'],
		// 1.1: Simplify (on by default); version 1 keeps its full items.
		version: [1, 1.1],
		defaultVersion: 1.1,
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

	methods = { listSearch: { searchBusinesses: listSearch.searchBusinesses }, credentialTest: CREDENTIAL_TEST_METHODS };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const result = await PayOnUsPaymentPage.prototype.serve.call(this);
		if (!result.workflowData || !simplifyOn(this.getNode().typeVersion, this.getNodeParameter('simplify', true))) {
			return result;
		}
		const [paid = [], notPaid] = result.workflowData;
		const outputs = [simplifyItems(paid, 'pagePaid')];
		if (notPaid) outputs.push(simplifyItems(notPaid, 'pageNotPaid'));
		return { ...result, workflowData: outputs };
	}

	/** Serves one request of the page (items in full; webhook() simplifies them). */
	async serve(this: IWebhookFunctions): Promise<IWebhookResponseData> {
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
		let memory: SeenKeys | undefined;
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
				if (res.statusCode >= 500) for (const k of claimed) memory?.forget(k);
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
					orCredentialDefault(
						String(this.getNodeParameter('businessId', '', { extractValue: true }) ?? '').trim(),
						info,
						'businessId',
					) ?? '',
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
			const fetchSandboxKey = async (): Promise<string> =>
				await sandboxPublicKey(info, async (options) => await this.helpers.httpRequest(options));
			const config = await buildConfig(
				getClient,
				info.merchantId,
				raw,
				credentialId,
				fetchSandboxKey,
			);
			rendering = { nonce, config, testMode: takesTestPayments(info) };

			const key = info.key;
			const mode = this.getMode();
			const persist = mode !== 'manual';
			memory = emittedCheckouts.for(`payment-page:${workflowId}:${node.id}:${mode}`, EMITTED_WINDOW);
			const staticData = persist ? this.getWorkflowStaticData('node') : undefined;
			/**
			 * Claims a checkout's emission. A Paid item carries its payin's
			 * createdDate: a checkout the memory no longer holds (past 7 days,
			 * 20,000 checkouts, or left out of static data over a restart) is
			 * emitted only if its payin was created after the memory's horizon;
			 * else the page still shows the receipt but starts nothing, and logs
			 * why (it may have been started already).
			 */
			const claim = (dedupeKey: string, serviceDate?: unknown): boolean => {
				const now = PAGE_CLOCK.now();
				if (staticData)
					memory?.merge(readPersistedKeys(staticData.emittedCheckouts), now, staticData.emittedHorizon);
				if (!memory || memory.has(dedupeKey, now)) return false;
				if (serviceDate !== undefined) {
					const decision = memory.decide(serviceDate);
					if (decision.known) {
						this.logger.warn(
							`PayOnUs Payment Page: checkout ${dedupeKey} is paid, but was not started again: ${decision.reason}. Check your records for this checkout (merchantCheckoutReference ${dedupeKey})`,
						);
						return false;
					}
				}
				if (!memory.checkAndAdd(dedupeKey, now)) return false;
				memory.setDate(dedupeKey, serviceDate);
				claimed.push(dedupeKey);
				if (staticData) {
					staticData.emittedCheckouts = memory.newest(PERSISTED_KEYS);
					const horizon = memory.horizonBeyond(PERSISTED_KEYS);
					if (horizon !== undefined) staticData.emittedHorizon = horizon;
				}
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
					if (!claim(ref, item.createdDate ?? null)) return false;
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
