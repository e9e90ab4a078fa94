/**
 * PayOnUs Trigger 1.2 in a real n8n (issue 31 point 6): the statuses it
 * starts on are a parameter of the panel, Successful only by default, and a
 * FAILED collection is answered and ignored; a version 1.1 node keeps
 * Options > Only Statuses, every status by default (the FAILED collection
 * goes on). The panel is read in the editor (headless Chromium).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { KEY } from '../../dev/sandboxCredential';
import { triggerWorkflow } from '../../dev/workflows';
import { closeNode, openEditor, openNode, panelText } from '../../scripts/lib/editor';
import { useTriggerSandbox } from './triggerFixtures';

jest.setTimeout(300_000);

const e2e = useTriggerSandbox('trigger-statuses');
const { n8n } = e2e;
const out = mkdtempSync(join(tmpdir(), 'payonus-trigger-statuses-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A signed COLLECTION notification with this status, and the answer the trigger gives it. */
async function notify(url: string, paymentStatus: string): Promise<IDataObject> {
	const body = {
		type: 'COLLECTION',
		accountNumber: '9912345678',
		onusReference: `ONUS-STATUS-${randomUUID()}`,
		paymentStatus,
		transactionAmount: 1500,
		currency: 'NGN',
		businessId: 'BUS-2001',
	};
	const hash = createHash('sha256').update(`${body.accountNumber}${body.onusReference}${paymentStatus}${KEY}`).digest('hex');
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', hash }, body: JSON.stringify(body) });
	expect(res.status).toBe(200);
	return (await res.json()) as IDataObject;
}

async function activeTrigger(typeVersion: number): Promise<string> {
	const webhookId = randomUUID();
	const id = await e2e.createWorkflow(triggerWorkflow(`statuses ${typeVersion} ${webhookId}`, webhookId, e2e.credentialId, {}, { typeVersion }));
	await n8n.activate(id);
	return n8n.webhookUrl(`${webhookId}/webhook`);
}

describe('PayOnUs Trigger 1.2: Statuses, Successful only by default', () => {
	it('1.2 answers a FAILED collection and ignores it; 1.1 (saved workflows) still takes it', async () => {
		const v12 = await activeTrigger(1.2);
		const v11 = await activeTrigger(1.1);
		expect(await notify(v12, 'FAILED')).toEqual({ received: true, ignored: 'status not selected' });
		expect(await notify(v12, 'PENDING')).toEqual({ received: true, ignored: 'status not selected' });
		expect(await notify(v12, 'SUCCESSFUL')).toEqual({ received: true });
		expect(await notify(v11, 'FAILED')).toEqual({ received: true });
	});

	it('the panel shows Statuses with Successful chosen on 1.2, and keeps it under Options on 1.1', async () => {
		const one = triggerWorkflow(`statuses panel ${Date.now()}`, randomUUID(), e2e.credentialId, {}, { typeVersion: 1.2 });
		const old = triggerWorkflow('old', randomUUID(), e2e.credentialId, {}, { typeVersion: 1.1 }).nodes[0];
		one.nodes.push({ ...old, id: 'node-old', name: 'Saved trigger', position: [0, 400] });
		const id = await e2e.createWorkflow(one);
		const { browser, page } = await openEditor(n8n, id, join(out, 'error.png'));
		try {
			await openNode(page, `.vue-flow__node:has-text("${one.nodes[0].name}")`);
			const v12 = await panelText(page);
			await page.screenshot({ path: join(out, 'v12.png') });
			await closeNode(page);
			await openNode(page, '.vue-flow__node:has-text("Saved trigger")');
			const v11 = await panelText(page);
			await closeNode(page);
			// 1.2: the parameter is on the panel, its default chosen; the notice names the one URL and the guide.
			expect(v12).toMatch(/\bStatuses\b/);
			expect(v12.slice(v12.search(/\bStatuses\b/))).toMatch(/Successful/);
			expect(v12).toMatch(/one Webhook URL per environment/);
			expect(v12).toMatch(/Going live/);
			expect(v12).not.toMatch(/Only Statuses/);
			// 1.1: no Statuses parameter; the statuses stay an option (not added: every status).
			expect(v11).not.toMatch(/\bStatuses\b/);
			expect(v11).toMatch(/\bOptions\b/);
		} finally {
			await browser.close();
		}
	});
});
