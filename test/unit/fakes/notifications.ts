/**
 * Notifications for the PayOnUs Trigger's unit tests: a payin as the service
 * lists it, a signed delivery through the trigger's webhook (a fake n8n
 * context), and the fake service's payment list. The test file itself
 * stands ./transport.ts in for nodes/shared/transport (jest.mock), before
 * anything here loads the trigger.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { fakeClient } from './transport';
import { PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';

/** The verification key the fake credential holds. */
export const KEY = 'whk-simplify-key';

/** Before each test: no keys remembered, the fake service without answers, the credential's Default Merchant ID. */
export function resetNotifications(): void {
	resetSeenKeys();
	fakeClient.request.mockReset();
	fakeClient.paginate.mockReset();
	fakeClient.defaults = { merchantId: 'MER-1001' };
}

/** A payin as the service lists it: 47 fields, in the service's order (id first, onusReference last). */
export function serviceRecord(over: IDataObject = {}): IDataObject {
	const names = [
		'id', 'merchantUserId', 'amountPaid', 'settlementAmount', 'acceptablePaymentType', 'countryCode', 'paymentGateway',
		'accountNumber', 'accountName', 'bankName', 'bankCode', 'email', 'mobileNumber', 'totalChargedFee', 'transactionFee',
		'providerFee', 'vat', 'providerVat', 'stampDutyApplied', 'waveStampDuty', 'forWalletFunding', 'merchantNotified',
		'forwardedForSettlement', 'fixedAccount', 'merchantReference', 'sessionId', 'providerReference', 'providerResponse',
		'notificationUrl', 'redirectUrl', 'merchantCheckoutReference', 'senderName', 'senderAccount', 'senderAccountNumber',
		'ipAddress', 'narration', 'paymentStatus', 'createdDate', 'lastUpdatedDate', 'businessName', 'merchantName',
		'businessId', 'amount', 'currency', 'paymentChannel', 'type', 'onusReference',
	];
	const record: IDataObject = {};
	for (const n of names) record[n] = null;
	Object.assign(record, {
		id: 'PR-00000042',
		amountPaid: 5000,
		settlementAmount: 4925,
		accountNumber: '9912345678',
		email: 'ada@example.com',
		merchantReference: 'inv-42',
		paymentStatus: 'SUCCESSFUL',
		createdDate: '2026-01-15T10:00:00Z',
		lastUpdatedDate: '2026-01-15T10:05:00Z',
		businessId: 'BUS-2001',
		amount: 5000,
		currency: 'NGN',
		paymentChannel: 'BANK_TRANSFER',
		onusReference: 'ONUS-NUB-1000000000042-15012026-100000',
		...over,
	});
	return record;
}


/** One webhook request to the PayOnUs Trigger, as n8n hands it over (a fake n8n context). */
export interface WebhookRequest {
	/** The body as sent: an object is sent as its JSON. */
	body: IDataObject | string;
	hash?: string;
	contentType?: string;
	/**
	 * The node's parameters, whole: no defaults added here, except that
	 * Simplify is off and Statuses empty (every status) unless given, so
	 * the tests see the trigger's full item for any status.
	 */
	params: IDataObject;
	mode?: string;
	/** The workflow's static data (default: a fresh object per request). */
	staticData?: IDataObject;
	/** The credential's verification key (default KEY). */
	key?: string;
	workflowId?: string;
	nodeId?: string;
	/** The node's credentials reference, when a test needs one. */
	credentials?: IDataObject;
}

/** Runs the trigger's webhook on `request`: its outputs, what it answered (and how often), its warnings. */
export async function webhookRequest(request: WebhookRequest) {
	const raw = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
	const response = { status: 0, body: undefined as unknown, answers: 0 };
	const res = {
		status(code: number) {
			response.status = code;
			return res;
		},
		json(b: unknown) {
			response.body = b;
			response.answers++;
			return res;
		},
	};
	const staticData = request.staticData ?? {};
	const params: IDataObject = { simplify: false, statuses: [], ...request.params };
	const warnings: string[] = [];
	const ctx = {
		getRequestObject: () => ({
			headers: {
				'content-type': request.contentType ?? 'text/plain',
				'content-length': String(Buffer.byteLength(raw)),
				...(request.hash !== undefined ? { hash: request.hash } : {}),
			},
			rawBody: Buffer.from(raw, 'utf8'),
		}),
		getResponseObject: () => res,
		getBodyData: () => raw,
		getCredentials: async () => ({ webhookVerificationKey: request.key ?? KEY }),
		getNodeParameter: (name: string, fallback: unknown) => (name in params ? params[name] : fallback),
		getMode: () => request.mode ?? 'webhook',
		getWorkflow: () => ({ id: request.workflowId ?? 'wf-1' }),
		getNode: () => ({
			id: request.nodeId ?? 'node-1',
			name: 'PayOnUs Trigger',
			typeVersion: 1,
			...(request.credentials ? { credentials: request.credentials } : {}),
		}),
		getWorkflowStaticData: () => staticData,
		logger: { warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined, debug: () => undefined },
	};
	const result = await new PayOnUsTrigger().webhook.call(ctx as never);
	return {
		result,
		response,
		confirmed: result.workflowData?.[0]?.map((i) => i.json) ?? [],
		notConfirmed: result.workflowData?.[1]?.map((i) => i.json) ?? [],
		staticData,
		warnings,
	};
}

/** Delivers a signed notification to a trigger on Collection and Payout events, every status, Simplify on (`opts` changes them) and returns both outputs. */
export async function deliver(body: IDataObject, hash: string, opts: { mode?: string; params?: IDataObject } = {}) {
	const { response, confirmed, notConfirmed } = await webhookRequest({
		body,
		hash,
		params: { events: ['COLLECTION', 'PAYOUT'], statuses: [], simplify: true, options: {}, ...(opts.params ?? {}) },
		mode: opts.mode,
		workflowId: 'wf-t',
		nodeId: 'trig-1',
		credentials: { payOnUsApi: { id: 'c1' } },
	});
	return { response, confirmed, notConfirmed };
}

export const sign = (b: IDataObject) =>
	createHash('sha256').update(`${String(b.accountNumber)}${String(b.onusReference)}${String(b.paymentStatus)}${KEY}`).digest('hex');

/** The fake service: the payment list holds `records`; a lookup by onusReference finds one of them. */
export function serveRecords(records: IDataObject[]) {
	fakeClient.paginate.mockImplementation(async () => records.map((r) => ({ ...r })));
	fakeClient.request.mockImplementation(async (opts: { path: string; qs?: IDataObject }) => {
		const found = records.filter((r) => r.onusReference === opts.qs?.onusReference);
		if (opts.path === '/api/v1/payment-requests') return { content: found, lastPage: 1, totalNumberOfItems: found.length };
		throw new Error(`unexpected call ${opts.path}`);
	});
}
