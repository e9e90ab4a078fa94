/**
 * PayOnUs Trigger in a real n8n, fed by the sandbox's own webhooks.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { nodeItems, sharedN8nLogTail } from '../harness/e2e';
import { sandboxCredentialData, KEY, createCredential } from '../../dev/sandboxCredential';
import { TRIGGER_NAME, triggerWorkflow } from '../../dev/workflows';
import { useTriggerSandbox } from './triggerFixtures';
import { sleep } from '../../dev/wait';

jest.setTimeout(300_000);

const e2e = useTriggerSandbox('trigger');
const { n8n } = e2e;

async function activeTrigger(parameters: IDataObject = {}) {
	const webhookId = randomUUID();
	const id = await e2e.createWorkflow(triggerWorkflow(`trigger ${webhookId}`, webhookId, e2e.credentialId, parameters));
	await n8n.activate(id);
	return { id, url: n8n.webhookUrl(`${webhookId}/webhook`) };
}

async function executionCount(workflowId: string): Promise<number> {
	return (await n8n.listExecutions(workflowId, false)).length;
}

async function post(url: string, body: string, headers: Record<string, string> = {}, method = 'POST') {
	const res = await fetch(url, { method, headers: { 'content-type': 'text/plain', ...headers }, body: method === 'GET' ? undefined : body });
	await res.text();
	return res.status;
}

const hashOf = (a: string, r: string, s: string, key = KEY) => createHash('sha256').update(a + r + s + key).digest('hex');

describe('PayOnUs Trigger (real n8n, sandbox webhooks)', () => {
	it('starts one execution per event type, with verified items and no secrets', async () => {
		const { id, url } = await activeTrigger();
		await e2e.sb.setWebhooks({ url, verificationKey: KEY });
		const tag = Date.now();
		const payin = await e2e.sb.collection(`e2e-col-${tag}`);
		const payout = await e2e.sb.payout(`e2e-pay-${tag}`);
		const refund = await e2e.sb.refund(String(payin.onusReference), `e2e-ref-${tag}`);
		const link = await e2e.sb.tokenization(`e2e-link-${tag}`);

		const executions = await n8n.waitForExecutions(id, 4, 90_000);
		const items = executions.flatMap((e) => nodeItems(e, TRIGGER_NAME));
		const byEvent = (event: string) => items.filter((i) => i.event === event);
		expect(byEvent('COLLECTION')).toHaveLength(1);
		expect(byEvent('COLLECTION')[0]).toMatchObject({ onusReference: payin.onusReference, paymentStatus: 'SUCCESSFUL', verified: true, verifiedBy: 'signature' });
		expect(byEvent('PAYOUT')[0]).toMatchObject({ onusReference: payout.onusReference, verified: true });
		expect(byEvent('REFUND')[0]).toMatchObject({ onusReference: refund.onusReference, verified: true });
		expect(byEvent('card_tokenization_link.completed')[0]).toMatchObject({
			cardTokenizationLinkId: link.id,
			verified: true,
			verifiedBy: 'api',
		});
		for (const item of items) {
			expect(typeof item.receivedAt).toBe('string');
			expect(JSON.stringify(item)).not.toContain(KEY);
		}
		// The sandbox saw 200 for every delivery.
		const deliveries = (await e2e.sb.deliveries()).filter((d) => d.url === url);
		expect(deliveries.length).toBe(4);
		expect(deliveries.every((d) => d.status === 200)).toBe(true);
		await sleep(1500);
		expect(await executionCount(id)).toBe(4);
	});

	it('answers an accepted event itself (200 {received:true}, once) and still starts one execution per event', async () => {
		const { id, url } = await activeTrigger();
		const tag = Date.now();
		const bodies = Array.from({ length: 5 }, (_, i) => ({
			id: `evt-answer-${i}`,
			type: i % 2 === 0 ? 'COLLECTION' : 'PAYOUT',
			businessId: 'BUS-2001',
			accountNumber: String(2000000000 + i),
			onusReference: `ONUS-NUB-${tag}-01012025-10101${i}`,
			paymentStatus: 'SUCCESSFUL',
			transactionAmount: 100 + i,
		}));
		const answers = await Promise.all(
			bodies.map(async (b) => {
				const res = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'text/plain', hash: hashOf(b.accountNumber, b.onusReference, b.paymentStatus) },
					body: JSON.stringify(b),
				});
				return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
			}),
		);
		for (const a of answers) {
			// The node's own answer, not n8n's "Workflow was started" (which comes only after the execution is created).
			expect([a.status, JSON.parse(a.body)]).toEqual([200, { received: true }]);
			expect(a.type).toContain('application/json');
		}
		const executions = await n8n.waitForExecutions(id, bodies.length, 60_000);
		await sleep(2000);
		expect(await executionCount(id)).toBe(bodies.length);
		const refs = executions.flatMap((e) => nodeItems(e, TRIGGER_NAME)).map((i) => i.onusReference);
		expect(refs.sort()).toEqual(bodies.map((b) => b.onusReference).sort());
		// n8n did not try to answer a second time.
		expect(sharedN8nLogTail(400)).not.toMatch(/ERR_HTTP_HEADERS_SENT|Cannot set headers after they are sent/);
	});

	it('starts nothing for forged, malformed or oversized requests', async () => {
		const { id, url } = await activeTrigger();
		const genuine = {
			id: 'x',
			type: 'COLLECTION',
			businessId: 'BUS-2001',
			accountNumber: '0123456789',
			onusReference: 'ONUS-NUB-1000000000001-01012025-101010',
			paymentStatus: 'SUCCESSFUL',
			transactionAmount: 5000,
		};
		const good = hashOf(genuine.accountNumber, genuine.onusReference, genuine.paymentStatus);
		const cases: Array<[string, number, string, Record<string, string>, string?]> = [
			['no hash', 401, JSON.stringify(genuine), {}],
			['wrong hash', 401, JSON.stringify(genuine), { hash: 'f'.repeat(64) }],
			['hash of another body', 401, JSON.stringify({ ...genuine, onusReference: 'ONUS-NUB-1000000000009-01012025-101010' }), { hash: good }],
			['tampered status', 401, JSON.stringify({ ...genuine, paymentStatus: 'FAILED' }), { hash: good }],
			['wrong key', 401, JSON.stringify(genuine), { hash: hashOf(genuine.accountNumber, genuine.onusReference, genuine.paymentStatus, 'other') }],
			['malformed JSON', 400, '{"type":"COLLECTION"', { hash: good }],
			['huge body', 400, JSON.stringify({ ...genuine, pad: 'x'.repeat(300 * 1024) }), { hash: good }],
			['unknown event', 400, JSON.stringify({ type: 'NOPE' }), { hash: good }],
			['forged tokenization (link does not exist)', 200, JSON.stringify({ event: 'card_tokenization_link.completed', cardTokenizationLinkId: 'CTL-404', cardTokenId: 'tok', businessId: 'BUS-2001', status: 'COMPLETED' }), {}],
		];
		for (const [name, expected, body, headers] of cases) {
			expect([name, await post(url, body, headers)]).toEqual([name, expected]);
		}
		expect(await post(url, '', {}, 'GET')).not.toBe(200);
		await sleep(2500);
		expect(await executionCount(id)).toBe(0);
	});

	it('starts one execution for an event delivered three times', async () => {
		const { id, url } = await activeTrigger();
		await e2e.sb.setWebhooks({ url, verificationKey: KEY, duplicates: 3 });
		const payin = await e2e.sb.collection(`e2e-dup-${Date.now()}`);
		const deadline = Date.now() + 30_000;
		let mine: IDataObject[] = [];
		while (Date.now() < deadline) {
			mine = (await e2e.sb.deliveries()).filter((d) => d.url === url && d.status !== null);
			if (mine.length >= 3) break;
			await sleep(200);
		}
		expect(mine.map((d) => d.status)).toEqual([200, 200, 200]);
		const executions = await n8n.waitForExecutions(id, 1, 30_000);
		await sleep(2000);
		expect(await executionCount(id)).toBe(1);
		expect(nodeItems(executions[0], TRIGGER_NAME)[0]).toMatchObject({ onusReference: payin.onusReference });
	});

	it('filters on status: a FAILED payout does not start an "only SUCCESSFUL" workflow', async () => {
		const { id, url } = await activeTrigger({ events: ['PAYOUT'], statuses: ['SUCCESSFUL'] });
		await e2e.sb.setWebhooks({ url, verificationKey: KEY });
		// 9999991113 ends in UNKNOWN_ERROR (a failure) in the sandbox.
		const failed = await e2e.sb.api<IDataObject>('POST', '/api/v1/transfer-requests/bank-transfer', {
			amount: 100,
			beneficiaryAccountNumber: '9999991113',
			beneficiaryAccountName: 'Sandbox Beneficiary',
			beneficiaryBankCode: '044',
			transferType: 'WALLET_TO_BANK_ACCOUNT',
			countryCode: 'NG',
			currency: 'NGN',
			reference: `e2e-fail-${Date.now()}`,
			narration: 'e2e',
			businessId: 'BUS-2001',
		});
		const ok = await e2e.sb.payout(`e2e-ok-${Date.now()}`);
		const executions = await n8n.waitForExecutions(id, 1, 60_000);
		await sleep(2500);
		expect(await executionCount(id)).toBe(1);
		expect(nodeItems(executions[0], TRIGGER_NAME)[0]).toMatchObject({ onusReference: ok.onusReference, paymentStatus: 'SUCCESSFUL' });
		expect(failed.onusReference).toBeDefined();
	});

	it('uses a verification key changed in the credential at once, with the sandbox signing with the new key', async () => {
		const oldKey = `old-key-${Date.now()}`;
		const newKey = `new-key-${Date.now()}`;
		const rotating = await createCredential(n8n, e2e.handle.url, `PayOnUs rotating key ${Date.now()}`, oldKey);
		const webhookId = randomUUID();
		const id = await e2e.createWorkflow(triggerWorkflow(`trigger rotation ${webhookId}`, webhookId, rotating));
		await n8n.activate(id);
		const url = n8n.webhookUrl(`${webhookId}/webhook`);
		const tag = Date.now();

		// With the old key: accepted (and the key is now remembered by the trigger).
		await e2e.sb.setWebhooks({ url, verificationKey: oldKey });
		const before = await e2e.sb.collection(`e2e-rot-a-${tag}`);
		await n8n.waitForExecutions(id, 1, 60_000);

		// The key is changed on the dashboard (the sandbox) and in the credential.
		await n8n.api('PATCH', `/credentials/${rotating}`, { data: sandboxCredentialData(e2e.handle.url, { webhookVerificationKey: newKey }) });
		await e2e.sb.setWebhooks({ url, verificationKey: newKey });
		const after = await e2e.sb.collection(`e2e-rot-b-${tag}`);
		const executions = await n8n.waitForExecutions(id, 2, 60_000);
		const refs = executions.flatMap((e) => nodeItems(e, TRIGGER_NAME)).map((i) => i.onusReference);
		expect(refs.sort()).toEqual([before.onusReference, after.onusReference].sort());
		const deliveries = (await e2e.sb.deliveries()).filter((d) => d.url === url);
		expect(deliveries.map((d) => d.status)).toEqual([200, 200]);
		for (const e of executions) expect(JSON.stringify(e)).not.toContain(newKey);
	});

	it('without a verification key: each notification is refused with 500 and a failed execution names the missing key', async () => {
		const noKey = await createCredential(n8n, e2e.handle.url, `PayOnUs no key ${Date.now()}`, '');
		const webhookId = randomUUID();
		const id = await e2e.createWorkflow(triggerWorkflow(`trigger no key ${webhookId}`, webhookId, noKey));
		await n8n.activate(id);
		const url = n8n.webhookUrl(`${webhookId}/webhook`);
		await e2e.sb.setWebhooks({ url, verificationKey: KEY });
		const payment = await e2e.sb.collection(`e2e-nokey-${Date.now()}`);
		const [execution] = await n8n.waitForExecutions(id, 1, 60_000);
		expect(execution.status).toBe('error');
		expect(JSON.stringify(execution)).toMatch(/no Webhook Verification Key/);
		// nothing reached the workflow as an event
		expect(nodeItems(execution, TRIGGER_NAME).filter((i) => i.onusReference === payment.onusReference)).toEqual([]);
		const deliveries = (await e2e.sb.deliveries()).filter((d) => d.url === url);
		expect(deliveries.length).toBeGreaterThan(0);
		expect(deliveries.every((d) => Number(d.status) === 500)).toBe(true);
	});
});
