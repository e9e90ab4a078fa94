/**
 * The PayOnUs Trigger's pipeline (receive.ts): the steps in their order. The
 * steps themselves are tested beside this file; whole notifications in
 * test/unit/trigger/PayOnUsTrigger.node.test.ts and the trigger tests next to it.
 */
import type { IDataObject } from 'n8n-workflow';
import { fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));

import { computeWebhookHash } from '../../../nodes/shared/signature';
import { resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';
import { receive } from '../../../nodes/PayOnUsTrigger/receive';

const KEY = 'whk-receive-key';
const body = { type: 'COLLECTION', accountNumber: '0123456789', onusReference: 'ONUS-NUB-1000000000001-01012025-101010', paymentStatus: 'SUCCESSFUL', transactionAmount: 5000 };

/** A webhook request; `trace` lists, in order, what the node asked of n8n and what it answered. */
function request(payload: IDataObject, hash: string, params: IDataObject = {}) {
	const trace: string[] = [];
	const raw = JSON.stringify(payload);
	const all: IDataObject = { events: ['COLLECTION'], options: {}, ...params };
	const res = { status: (code: number) => ({ json: (b: unknown) => trace.push(`answer ${code} ${JSON.stringify(b)}`) }) };
	const ctx = {
		getRequestObject: () => ({ headers: { hash }, rawBody: Buffer.from(raw) }),
		getResponseObject: () => res,
		getBodyData: () => raw,
		getCredentials: async () => (trace.push('credential'), { webhookVerificationKey: KEY }),
		getNodeParameter: (name: string, fallback: unknown) => (trace.push(`parameter ${name}`), name in all ? all[name] : fallback),
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: 'wf-r' }),
		getNode: () => ({ id: 'node-r', name: 'PayOnUs Trigger', typeVersion: 1 }),
		getWorkflowStaticData: () => (trace.push('static data'), {}),
		logger: { warn: (m: string) => trace.push(`warn ${m}`), info: (m: string) => trace.push(`info ${m}`) },
	};
	return { ctx: ctx as never, trace };
}

beforeEach(() => {
	resetSeenKeys();
	fakeClient.request.mockReset();
});

describe('receive', () => {
	it('a refused signature: answered 401 before any parameter is read', async () => {
		const { ctx, trace } = request(body, computeWebhookHash(body, 'other'));
		expect(await receive(ctx)).toEqual({ noWebhookResponse: true });
		expect(trace).toEqual(['credential', 'answer 401 {"received":false,"message":"Signature missing or wrong"}']);
	});

	it('an event to confirm: filtered, claimed, answered 200, and only then the service is read', async () => {
		const { ctx, trace } = request(body, computeWebhookHash(body, KEY));
		fakeClient.request.mockImplementation(async () => {
			trace.push('service read');
			return { content: [{ ...body, amount: 5000, currency: 'NGN' }], lastPage: 1, totalNumberOfItems: 1 };
		});
		const result = await receive(ctx);
		expect(result.workflowData?.[0]).toHaveLength(1);
		expect(trace.indexOf('static data')).toBeLessThan(trace.indexOf('answer 200 {"received":true}'));
		expect(trace.indexOf('answer 200 {"received":true}')).toBeLessThan(trace.indexOf('service read'));
		expect(trace.filter((t) => t.startsWith('answer'))).toHaveLength(1);
	});

	it('an event not to confirm: answered 200 with its item, no read', async () => {
		const { ctx, trace } = request(body, computeWebhookHash(body, KEY), { confirmWithService: false });
		const result = await receive(ctx);
		expect(result.workflowData?.[0]?.[0].json).toMatchObject({ verifiedBy: 'signature', onusReference: 'ONUS-NUB-1000000000001-01012025-101010' });
		expect(trace.filter((t) => t.startsWith('answer'))).toEqual(['answer 200 {"received":true}']);
		expect(fakeClient.request).not.toHaveBeenCalled();
		// A copy: a repeat.
		const copy = request(body, computeWebhookHash(body, KEY), { confirmWithService: false });
		expect(await receive(copy.ctx)).toEqual({ noWebhookResponse: true });
		expect(copy.trace).toContain('answer 200 {"received":true,"duplicate":true}');
	});
});
