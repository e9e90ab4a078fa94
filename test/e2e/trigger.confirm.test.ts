/**
 * Issue 14, point 6, in a real n8n: "Confirm With the Service" on a signed
 * event whose unsigned amount was tampered with, a COLLECTION replayed as a
 * PAYOUT, and tokenization confirmed without a Default Merchant ID.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { sandboxCredentialData, KEY } from '../../dev/sandboxCredential';
import { TRIGGER_NAME, triggerWorkflow } from '../../dev/workflows';
import { useTriggerSandbox } from './triggerFixtures';
import { sleep } from '../../dev/wait';

jest.setTimeout(300_000);

const e2e = useTriggerSandbox('confirm');
const { n8n } = e2e;

const hashOf = (a: string, r: string, s: string) => createHash('sha256').update(a + r + s + KEY).digest('hex');

async function activeTrigger(credential: string, parameters: IDataObject = {}) {
	const webhookId = randomUUID();
	const id = await e2e.createWorkflow(triggerWorkflow(`confirm ${webhookId}`, webhookId, credential, parameters));
	await n8n.activate(id);
	return { id, url: n8n.webhookUrl(`${webhookId}/webhook`) };
}

async function post(url: string, body: IDataObject): Promise<{ status: number; body: IDataObject }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'text/plain', hash: hashOf(String(body.accountNumber), String(body.onusReference), String(body.paymentStatus)) },
		body: JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as IDataObject };
}

describe('PayOnUs Trigger: Confirm With the Service (real n8n, sandbox)', () => {
	it("a signed COLLECTION with a tampered amount emits the service's amount; replayed as PAYOUT it starts nothing new", async () => {
		const { id, url } = await activeTrigger(e2e.credentialId, { events: ['COLLECTION', 'PAYOUT'] });
		// The sandbox's own notifications go nowhere; this test sends its own.
		await e2e.sb.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
		const tag = Date.now();
		const account = await e2e.sb.collection(`e2e-tamper-${tag}`, 1500);
		const tampered = {
			id: `evt-${tag}`,
			type: 'COLLECTION',
			currency: 'USD',
			businessId: 'BUS-2001',
			accountNumber: String(account.accountNumber),
			onusReference: String(account.onusReference),
			paymentStatus: 'SUCCESSFUL',
			paymentChannel: 'BANK_TRANSFER',
			transactionAmount: 1_500_000,
			merchantReference: `e2e-tamper-${tag}`,
		};
		expect(await post(url, tampered)).toEqual({ status: 200, body: { received: true } });
		const [execution] = await n8n.waitForExecutions(id, 1, 60_000);
		expect(nodeItems(execution, TRIGGER_NAME, 1)).toEqual([]);
		const items = nodeItems(execution, TRIGGER_NAME, 0);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			event: 'COLLECTION',
			onusReference: account.onusReference,
			confirmed: true,
			transactionAmount: 1500,
			amount: 1500,
			currency: 'NGN',
			businessId: 'BUS-2001',
			paymentStatus: 'SUCCESSFUL',
			notificationDiffers: { transactionAmount: { notification: 1_500_000, service: 1500 } },
		});

		// The same signed fields as a PAYOUT (type is not signed): a repeat.
		const replay = await post(url, { ...tampered, type: 'PAYOUT', transactionAmount: 99 });
		expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true } });
		await sleep(4000);
		expect(await n8n.listExecutions(id, false)).toHaveLength(1);
	});

	it('a signed event the service does not confirm goes to the Unconfirmed output, never to Confirmed', async () => {
		const { id, url } = await activeTrigger(e2e.credentialId, { events: ['COLLECTION'] });
		const tag = Date.now();
		const unknown = {
			type: 'COLLECTION',
			businessId: 'BUS-2001',
			accountNumber: '0123456789',
			onusReference: `ONUS-NUB-${tag}-01012025-101010`,
			paymentStatus: 'SUCCESSFUL',
			transactionAmount: 5000,
		};
		expect((await post(url, unknown)).status).toBe(200);
		const [execution] = await n8n.waitForExecutions(id, 1, 60_000);
		expect(nodeItems(execution, TRIGGER_NAME, 0)).toEqual([]);
		const [item] = nodeItems(execution, TRIGGER_NAME, 1);
		expect(item).toMatchObject({ onusReference: unknown.onusReference, confirmed: false });
		expect(String((item.confirmation as IDataObject).reason)).toContain('has no payin');
	});

	it('copies of a signed event the service never confirms start ONE Unconfirmed execution; a copy it then confirms goes to Confirmed (issue 22)', async () => {
		const { id, url } = await activeTrigger(e2e.credentialId, { events: ['COLLECTION'] });
		await e2e.sb.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
		const tag = Date.now();
		// A real payin, still unpaid: a signed SUCCESSFUL notification for it is not confirmed.
		const account = await e2e.sb.unpaidPayin(`e2e-held-${tag}`, 1500);
		const body = {
			type: 'COLLECTION',
			businessId: 'BUS-2001',
			accountNumber: String(account.accountNumber),
			onusReference: String(account.onusReference),
			paymentStatus: 'SUCCESSFUL',
			transactionAmount: 1500,
		};
		expect((await post(url, body)).status).toBe(200);
		await n8n.waitForExecutions(id, 1, 60_000);
		for (let i = 0; i < 5; i++) expect((await post(url, { ...body, transactionAmount: 1500 + i })).status).toBe(200);
		await sleep(8000);
		const executions = await n8n.listExecutions(id, true);
		expect(executions).toHaveLength(1);
		// The customer pays; the service's retry of the notification is confirmed.
		await e2e.sb.api('POST', '/api/v1/fund-ngn-account', {
			onusReference: account.onusReference,
			accountNumber: account.accountNumber,
			amount: 1500,
			paymentStatus: 'SUCCESSFUL',
			forDynamicAccount: true,
		});
		expect((await post(url, body)).status).toBe(200);
		const all = await n8n.waitForExecutions(id, 2, 60_000);
		const verified = all.flatMap((e) => nodeItems(e, TRIGGER_NAME, 0));
		const notConfirmed = all.flatMap((e) => nodeItems(e, TRIGGER_NAME, 1));
		expect(verified).toHaveLength(1);
		expect(verified[0]).toMatchObject({ onusReference: account.onusReference, confirmed: true });
		expect(notConfirmed).toHaveLength(1);
	});

	it('confirms a tokenization notification with a credential that has no Default Merchant ID (link record as in the spec: no cardTokenId)', async () => {
		await e2e.sb.setProfiles(['link-without-token-id']);
		const { id: noMerchant } = await n8n.createCredential({
			name: `PayOnUs no merchant ${Date.now()}`,
			type: 'payOnUsApi',
			data: sandboxCredentialData(e2e.handle.url, { webhookVerificationKey: KEY, merchantId: '' }),
		});
		const { id, url } = await activeTrigger(noMerchant, { events: ['card_tokenization_link.completed'] });
		await e2e.sb.setWebhooks({ url, verificationKey: KEY });
		const link = await e2e.sb.tokenization(`e2e-tok-nomerchant-${Date.now()}`);
		const [execution] = await n8n.waitForExecutions(id, 1, 60_000);
		const verified = nodeItems(execution, TRIGGER_NAME, 0);
		expect(nodeItems(execution, TRIGGER_NAME, 1)).toEqual([]);
		expect(verified).toHaveLength(1);
		expect(verified[0]).toMatchObject({
			event: 'card_tokenization_link.completed',
			cardTokenizationLinkId: link.id,
			verified: true,
			verifiedBy: 'api',
			cardTokenIdChecked: false,
			unsignedFields: ['cardTokenId'],
		});
		await e2e.sb.setProfiles([]);
	});
});
