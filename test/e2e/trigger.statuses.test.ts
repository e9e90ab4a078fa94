/**
 * The PayOnUs Trigger in a real n8n (issue 31 point 6): the statuses it
 * starts on are a parameter of the panel, Successful only by default, and a
 * FAILED collection is answered and ignored. The panel is read in the editor
 * (headless Chromium).
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

let seq = 0;
/** A signed COLLECTION notification with this status, and the answer the trigger gives it. */
async function notify(url: string, paymentStatus: string): Promise<IDataObject> {
	const body = {
		type: 'COLLECTION',
		accountNumber: '9912345678',
		// A fresh reference in the service's form (the trigger refuses any other: rule 7 at the webhook door).
		onusReference: `ONUS-NUB-${String(Date.now() * 100 + ++seq).slice(-13)}-28112026-100000`,
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

/** The trigger with the node's own default statuses (the workflow helper's "every status" left out). */
function defaultStatusesWorkflow(name: string, webhookId: string) {
	const workflow = triggerWorkflow(name, webhookId, e2e.credentialId);
	delete (workflow.nodes[0].parameters as IDataObject).statuses;
	return workflow;
}

async function activeTrigger(): Promise<string> {
	const webhookId = randomUUID();
	const id = await e2e.createWorkflow(defaultStatusesWorkflow(`statuses ${webhookId}`, webhookId));
	await n8n.activate(id);
	return n8n.webhookUrl(`${webhookId}/webhook`);
}

describe('PayOnUs Trigger: Statuses, Successful only by default', () => {
	it('answers a FAILED or PENDING collection and ignores it; a SUCCESSFUL one starts the workflow', async () => {
		const url = await activeTrigger();
		expect(await notify(url, 'FAILED')).toEqual({ received: true, ignored: 'status not selected' });
		expect(await notify(url, 'PENDING')).toEqual({ received: true, ignored: 'status not selected' });
		expect(await notify(url, 'SUCCESSFUL')).toEqual({ received: true });
	});

	it('the panel shows Statuses with Successful chosen', async () => {
		const one = defaultStatusesWorkflow(`statuses panel ${Date.now()}`, randomUUID());
		const id = await e2e.createWorkflow(one);
		const { browser, page } = await openEditor(n8n, id, join(out, 'error.png'));
		try {
			await openNode(page, `.vue-flow__node:has-text("${one.nodes[0].name}")`);
			const text = await panelText(page);
			await page.screenshot({ path: join(out, 'panel.png') });
			await closeNode(page);
			// The parameter is on the panel, its default chosen; the notice names the one URL and the guide.
			expect(text).toMatch(/\bStatuses\b/);
			expect(text.slice(text.search(/\bStatuses\b/))).toMatch(/Successful/);
			expect(text).toMatch(/one Webhook URL per environment/);
			expect(text).toMatch(/Going live/);
			expect(text).not.toMatch(/Only Statuses/);
		} finally {
			await browser.close();
		}
	});
});
