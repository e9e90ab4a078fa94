/**
 * Issue 22, point 4, in a real n8n restarted on the same database: a signed
 * notification replayed after a restart, further back than the keys the
 * trigger keeps in static data (PERSISTED_KEYS), is not Confirmed again (the
 * date of the service record's last change against the persisted horizon,
 * rule 3); the newest ones are still duplicates and a new event is still
 * Confirmed. Failed on 69eb4b9 (the replay started a second Confirmed
 * execution). Late settlements across restarts: trigger.lateEvents.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeItems, startN8n, type N8nInstance } from '../../dev/n8n';
import { sleep, until } from '../../dev/wait';
import { KEY, createCredential, notificationHash } from '../../dev/sandboxCredential';
import { SandboxApi } from '../../dev/sandboxScenarios';
import { TRIGGER_NAME, triggerWorkflow } from '../../dev/workflows';

jest.setTimeout(900_000);

const PERSISTED = 50;

const notification = (account: IDataObject): IDataObject => ({
	type: 'COLLECTION',
	currency: 'NGN',
	businessId: 'BUS-2001',
	accountNumber: String(account.accountNumber),
	onusReference: String(account.onusReference),
	paymentStatus: 'SUCCESSFUL',
	transactionAmount: 1500,
});

async function post(url: string, body: IDataObject): Promise<{ status: number; body: IDataObject }> {
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', hash: notificationHash(body) }, body: JSON.stringify(body) });
	return { status: res.status, body: (await res.json().catch(() => ({}))) as IDataObject };
}

let sb: SandboxHandle;
let n8n: N8nInstance | undefined;
const folder = mkdtempSync(join(tmpdir(), 'payonus-restart-'));

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await n8n?.stop();
	await sb?.stop();
	rmSync(folder, { recursive: true, force: true });
});

describe('PayOnUs Trigger across a restart of n8n (same database)', () => {
	it(`a replay from further back than the ${PERSISTED} persisted keys goes to Unconfirmed; the newest is a duplicate; a new event is Confirmed`, async () => {
		const api = new SandboxApi(sb.url);
		await api.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
		n8n = await startN8n({ userFolder: folder });
		const credentialId = await createCredential(n8n, sb.url, 'PayOnUs restart');
		const webhookId = randomUUID();
		const { id } = await n8n.createWorkflow(triggerWorkflow('restart', webhookId, credentialId, { events: ['COLLECTION'] }));
		await n8n.activate(id);
		const tag = Date.now();
		const accounts: IDataObject[] = [];
		for (let i = 0; i < PERSISTED + 10; i++) accounts.push(await api.collection(`e2e-restart-${tag}-${i}`, 1500));
		let url = n8n.webhookUrl(`${webhookId}/webhook`);
		for (const account of accounts) expect((await post(url, notification(account))).status).toBe(200);
		await n8n.waitForExecutions(id, accounts.length, 300_000);
		await sleep(2000);

		await n8n.stop();
		n8n = await startN8n({ userFolder: folder });
		url = n8n.webhookUrl(`${webhookId}/webhook`);
		const running = n8n;
		await until('the webhook registered after the restart', 120_000, async () =>
			(await fetch(url, { method: 'POST', body: '' })).status !== 404 ? true : undefined,
		);
		await api.advanceClock(60); // the next payin is made after the restart

		expect(await post(url, notification(accounts[accounts.length - 1]))).toEqual({ status: 200, body: { received: true, duplicate: true } });
		expect((await post(url, notification(accounts[0]))).status).toBe(200);
		const fresh = await api.collection(`e2e-restart-${tag}-new`, 1500);
		expect((await post(url, notification(fresh))).status).toBe(200);
		const all = await running.waitForExecutions(id, accounts.length + 2, 120_000);
		await sleep(3000);
		const executions = await running.listExecutions(id, true);
		expect(executions).toHaveLength(accounts.length + 2);
		const verified = executions.flatMap((e) => nodeItems(e, TRIGGER_NAME, 0));
		const notConfirmed = executions.flatMap((e) => nodeItems(e, TRIGGER_NAME, 1));
		expect(verified.filter((v) => v.onusReference === accounts[0].onusReference)).toHaveLength(1);
		expect(verified.filter((v) => v.onusReference === fresh.onusReference)).toHaveLength(1);
		expect(notConfirmed).toHaveLength(1);
		expect(notConfirmed[0]).toMatchObject({ onusReference: accounts[0].onusReference, confirmed: false });
		expect(String((notConfirmed[0].confirmation as IDataObject).reason)).toContain('may have been handled already');
		expect(all.length).toBeGreaterThanOrEqual(accounts.length + 2);
	});
});
