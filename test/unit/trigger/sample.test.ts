/**
 * The Test event of the PayOnUs Trigger (sample.ts): the latest payment the
 * filters let through, sent to the Test URL as PayOnUs would notify it.
 * (Moved out of the trigger's simplify tests; the output shape of the
 * notification it sends is checked in shared/triggerSimplify.test.ts.)
 */
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));
import { deliver, KEY, resetNotifications, serveRecords, serviceRecord, sign } from '../fakes/notifications';

import { PayOnUsTrigger } from '../../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { findSample, newestRecord, SAMPLE_TIMING } from '../../../nodes/PayOnUsTrigger/sample';

SAMPLE_TIMING.delayMs = 0;

beforeEach(resetNotifications);

describe('Test event: the latest payment, sent to the Test URL as PayOnUs would notify it', () => {
	it('picks the newest payin the filters let through and writes the notification of it', async () => {
		const older = serviceRecord({ onusReference: 'ONUS-OLD', createdDate: '2026-01-14T10:00:00Z' });
		const newer = serviceRecord({ onusReference: 'ONUS-NEW', createdDate: '2026-01-15T11:00:00Z' });
		const failed = serviceRecord({ onusReference: 'ONUS-FAILED', createdDate: '2026-01-15T12:00:00Z', paymentStatus: 'FAILED' });
		expect(newestRecord([older, newer])?.onusReference).toBe('ONUS-NEW');
		const pending = serviceRecord({ onusReference: 'ONUS-PENDING', createdDate: '2026-01-15T13:00:00Z', paymentStatus: 'PENDING' });
		serveRecords([older, failed, newer, pending]);
		// A pending payin is never notified: the newest SUCCESSFUL one is sent, even without a status filter.
		expect((await findSample(fakeClient as never, ['COLLECTION'], {}, undefined))?.body.onusReference).toBe('ONUS-NEW');
		const sample = await findSample(fakeClient as never, ['COLLECTION'], { statuses: ['SUCCESSFUL'] }, undefined);
		expect(sample?.event).toBe('COLLECTION');
		expect(sample?.body).toEqual({
			id: 'PR-00000042',
			type: 'COLLECTION',
			currency: 'NGN',
			businessId: 'BUS-2001',
			accountNumber: '9912345678',
			onusReference: 'ONUS-NEW',
			paymentStatus: 'SUCCESSFUL',
			paymentChannel: 'BANK_TRANSFER',
			transactionAmount: 5000,
			merchantReference: 'inv-42',
			narration: null,
			createdDate: '2026-01-15T11:00:00Z',
		});
		// Only tokenization selected, or a payout without Merchant ID: nothing to send.
		expect(await findSample(fakeClient as never, ['card_tokenization_link.completed'], {}, undefined)).toBeUndefined();
		expect(await findSample(fakeClient as never, ['PAYOUT'], {}, undefined)).toBeUndefined();
	});

	/** create() of the webhook as the editor's Listen for Test Event calls it; returns what was posted. */
	async function listen(mode: string, params: IDataObject = {}) {
		const posted: Array<{ url: string; headers: IDataObject; body: string }> = [];
		let done: () => void = () => undefined;
		const sent = new Promise<void>((resolve) => (done = resolve));
		const all: IDataObject = { events: ['COLLECTION'], options: {}, merchantId: '', ...params };
		const ctx = {
			getMode: () => mode,
			getNodeParameter: (name: string, fallback: unknown) => (name in all ? all[name] : fallback),
			getWorkflow: () => ({ id: 'wf-t' }),
			getNode: () => ({ id: 'trig-1', name: 'PayOnUs Trigger', typeVersion: 1.1 }),
			getNodeWebhookUrl: () => 'http://n8n.test/webhook-test/abc/webhook',
			getCredentials: async () => ({ webhookVerificationKey: KEY }),
			helpers: {
				httpRequest: async (o: { url: string; headers: IDataObject; body: string }) => {
					posted.push(o);
					done();
					return '';
				},
			},
			logger: { warn: () => done(), info: () => done(), error: () => undefined, debug: () => undefined },
		};
		const ok = await new PayOnUsTrigger().webhookMethods.default.create.call(ctx as never);
		return { ok, posted, sent };
	}

	it('listening in the editor posts the signed notification, which the trigger then emits (twice in a row too)', async () => {
		const record = serviceRecord();
		serveRecords([record]);
		for (let round = 0; round < 2; round++) {
			const { ok, posted, sent } = await listen('manual');
			expect(ok).toBe(true);
			await sent;
			expect(posted).toHaveLength(1);
			expect(posted[0].url).toBe('http://n8n.test/webhook-test/abc/webhook');
			expect(posted[0].headers['content-type']).toBe('text/plain');
			const body = JSON.parse(posted[0].body) as IDataObject;
			expect(posted[0].headers.hash).toBe(sign(body));
			// The Test URL delivery goes through the whole trigger: signature, confirmation, output.
			const { response, confirmed } = await deliver(body, String(posted[0].headers.hash), { mode: 'manual' });
			expect(response.status).toBe(200);
			expect(confirmed).toHaveLength(1);
			expect(confirmed[0]).toMatchObject({ onusReference: record.onusReference, confirmed: true, event: 'COLLECTION' });
		}
	});

	it('sends nothing on activation (production) or with Test Event set to Wait for PayOnUs', async () => {
		serveRecords([serviceRecord()]);
		const production = await listen('trigger');
		const waiting = await listen('manual', { testEvent: 'wait' });
		expect(production.ok && waiting.ok).toBe(true);
		// Give a (wrongly) started send every chance to run.
		for (let i = 0; i < 20; i++) await Promise.resolve();
		expect(production.posted).toHaveLength(0);
		expect(waiting.posted).toHaveLength(0);
		expect(fakeClient.paginate).not.toHaveBeenCalled();
	});
});
