/**
 * One request of the Payment Page (`from.webhook: 'notify'`: a forward to its notification door) through the whole pipeline (serve.ts via
 * the node's webhook()) with a fake n8n: the page's parameters, its mode and
 * static data, the visitor's address, and what the answer holds. The test
 * file mocks the transport (createClient) with its fake PayOnUs before the
 * first request.
 */
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';
import { PEM } from './fakes';

export interface Page {
	params: IDataObject;
	mode: string;
	staticData: IDataObject;
	secret: string;
	nodeId: string;
	/** The credential's environment ('custom' with a local base URL: the sandbox, TEST MODE). */
	environment?: string;
	/** The credential's id (each page its own: reads are remembered per credential for REUSE_MS). */
	credentialId: string;
}

let pages = 0;
export function page(params: IDataObject = {}, over: Partial<Page> = {}): Page {
	return {
		params: { title: 'Ticket', businessId: 'BUS-1', amount: 5000, methods: ['bank', 'card'], cardPublicKey: PEM, ...params },
		mode: 'webhook',
		staticData: {},
		secret: 'secret-1',
		nodeId: `node-${++pages}`,
		credentialId: `cred-${pages}`,
		...over,
	};
}

export interface Answer {
	status?: number;
	headers: IDataObject;
	body?: string;
	json?: unknown;
	location?: string;
	result: IWebhookResponseData;
	logs: string[];
	/** URLs the node asked through n8n's own request helper (outside its client). */
	outbound: string[];
	/** How many times the request read the node's credential. */
	credentialReads: number;
	/** n8n finishing the answer with this status (a paid answer's release on 5xx). */
	finish(status: number): void;
}

export async function request(
	p: Page,
	method: 'GET' | 'POST',
	query: IDataObject = {},
	form: IDataObject = {},
	from: { ip?: string; headers?: IDataObject; webhook?: 'notify' } = {},
): Promise<Answer> {
	const answer = { headers: {}, logs: [] as string[], outbound: [] as string[], credentialReads: 0 } as unknown as Answer;
	let onFinish: () => void = () => undefined;
	const res = {
		statusCode: 200,
		status(s: number) {
			this.statusCode = answer.status = s;
			return this;
		},
		set(h: IDataObject) {
			Object.assign(answer.headers, h);
			return this;
		},
		type() {
			return this;
		},
		send(b: string) {
			answer.body = b;
			return this;
		},
		json(j: unknown) {
			answer.json = j;
			return this;
		},
		location(l: string) {
			answer.location = l;
			return this;
		},
		end() {
			return this;
		},
		once(_e: string, fn: () => void) {
			onFinish = fn;
		},
	};
	answer.finish = (status) => {
		res.statusCode = status;
		onFinish();
	};
	const ctx = {
		getRequestObject: () => ({ method, ip: from.ip, protocol: 'http', headers: { host: 'n8n.test', ...from.headers }, baseUrl: '', path: '/webhook-test/pay' }),
		getResponseObject: () => res,
		getWebhookName: () => from.webhook ?? (method === 'GET' ? 'setup' : 'default'),
		getQueryData: () => query,
		getBodyData: () => form,
		getNodeParameter: (name: string, fallback: unknown) => (name in p.params ? p.params[name] : fallback),
		getNode: () => ({ id: p.nodeId, name: 'Pay', typeVersion: 1, credentials: { payOnUsApi: { id: p.credentialId, name: 'c' } } }),
		getWorkflow: () => ({ id: 'wf-1' }),
		getCredentials: async () => {
			answer.credentialReads++;
			return { clientSecret: p.secret, environment: p.environment ?? 'custom', baseUrl: 'http://localhost:9/' };
		},
		getMode: () => p.mode,
		getWorkflowStaticData: () => p.staticData,
		getNodeWebhookUrl: () => 'https://n8n.test/webhook/pay',
		helpers: {
			httpRequest: async (options: { url?: string }) => {
				answer.outbound.push(String(options.url));
				return {};
			},
		},
		logger: {
			error: (m: string) => answer.logs.push(`error: ${m}`),
			warn: (m: string) => answer.logs.push(`warn: ${m}`),
		},
	};
	const { PayOnUsPaymentPage } = require('../../../nodes/PayOnUsPaymentPage/PayOnUsPaymentPage.node') as typeof import('../../../nodes/PayOnUsPaymentPage/PayOnUsPaymentPage.node');
	answer.result = await new PayOnUsPaymentPage().webhook.call(ctx as never);
	return answer;
}

export const sealedIn = (html?: string) => /name="c" value="([^"]+)"/.exec(html ?? '')![1];
export const sealedAt = (location?: string) => decodeURIComponent(/c=([^&]+)/.exec(location ?? '')![1]);

