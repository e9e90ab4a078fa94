/**
 * Pictures of the three starting nodes in the n8n editor (PayOnUs Trigger,
 * PayOnUs Poll Trigger, PayOnUs Payment Page): headless Chromium opens a
 * workflow holding the three, saves the canvas, each node's panel, and the
 * PayOnUs Trigger's panel after "Listen for test event" (the test event and
 * its simplified item), plus the Poll Trigger's "Fetch test event".
 *
 *   npm run screenshots:triggers [-- --out docs/images]
 *
 * starts its own sandbox and n8n (the harness, dev/n8n; the current n8n unless
 * PAYONUS_N8N_VERSION says otherwise). The e2e suite runs the same function
 * (test/e2e/trigger-screenshots.test.ts) against its n8n, on both versions.
 * Writes trigger-<picture>.png and returns, per picture, the panel's text.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { N8nClient } from '../dev/n8n/client';
import { closeNode, openEditor, openNode as openNodeAt, panelText, type Shot } from './lib/editor';

export type { Shot } from './lib/editor';

export const PACKAGE = 'n8n-nodes-payonus';

/** A workflow with the three starting nodes on one credential. */
export function triggersWorkflow(name: string, credential: { id: string; name: string }, webhookId: string) {
	const cred = { payOnUsApi: credential };
	return {
		name,
		nodes: [
			{
				id: 'trigger',
				name: 'PayOnUs Trigger',
				type: `${PACKAGE}.payOnUsTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { events: ['COLLECTION', 'card_tokenization_link.completed'], options: {} },
				credentials: cred,
			},
			{
				id: 'poll',
				name: 'PayOnUs Poll Trigger',
				type: `${PACKAGE}.payOnUsPollTrigger`,
				typeVersion: 1,
				position: [0, 300],
				parameters: { watch: ['payins'], options: {} },
				credentials: cred,
			},
			{
				id: 'page',
				name: 'PayOnUs Payment Page',
				type: `${PACKAGE}.payOnUsPaymentPage`,
				typeVersion: 1,
				position: [420, 300],
				webhookId: `${webhookId}-page`,
				parameters: { path: `shots-${webhookId}`, title: 'Concert ticket', businessId: { __rl: true, mode: 'id', value: 'BUS-2001' } },
				credentials: cred,
			},
			{ id: 'ok', name: 'Fulfil order', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [320, -80], parameters: {} },
			{ id: 'alert', name: 'Alert the team', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [320, 80], parameters: {} },
		],
		connections: {
			'PayOnUs Trigger': {
				main: [[{ node: 'Fulfil order', type: 'main', index: 0 }], [{ node: 'Alert the team', type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

async function openNode(page: Page, name: string): Promise<void> {
	await openNodeAt(page, `.vue-flow__node:has-text("${name}")`);
}

/** Clicks the panel's run button (Listen for test event / Fetch test event) and waits for its output. */
async function runFromPanel(page: Page, wanted: RegExp, timeoutMs = 60_000): Promise<void> {
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (wanted.test(await panelText(page))) return;
		await page.waitForTimeout(500);
	}
	throw new Error(`the panel did not show ${wanted} within ${timeoutMs} ms`);
}

/**
 * Takes the pictures in a running n8n (the harness's client: its owner
 * cookie logs the browser in). The credential must reach a sandbox with at
 * least one payin (the test event is the latest one).
 */
export async function takeTriggerScreenshots(
	n8n: N8nClient,
	credential: { id: string; name: string },
	outDir: string,
): Promise<Shot[]> {
	mkdirSync(outDir, { recursive: true });
	const tag = Date.now().toString(36);
	const { id } = await n8n.createWorkflow(triggersWorkflow(`PayOnUs starting nodes (screenshots ${tag})`, credential, `shots-${tag}`) as never);
	const { browser, page } = await openEditor(n8n, id, join(outDir, 'trigger-error.png'));
	const shots: Shot[] = [];
	try {
		const shot = async (name: string, text: string) => {
			const file = join(outDir, `trigger-${name}.png`);
			await page.screenshot({ path: file });
			shots.push({ file, text });
		};
		await shot('canvas', await page.locator('.vue-flow').first().innerText());

		for (const [name, file] of [
			['PayOnUs Trigger', 'webhook-panel'],
			['PayOnUs Poll Trigger', 'poll-panel'],
			['PayOnUs Payment Page', 'payment-page-panel'],
		]) {
			await openNode(page, name);
			await shot(file, await panelText(page));
			await closeNode(page);
		}

		// Listen for test event: the latest payment arrives at the Test URL.
		await openNode(page, 'PayOnUs Trigger');
		await runFromPanel(page, /paymentStatus/);
		await page.waitForTimeout(800);
		await shot('webhook-test-event', await panelText(page));
		await closeNode(page);

		await openNode(page, 'PayOnUs Poll Trigger');
		await runFromPanel(page, /paymentStatus/);
		await page.waitForTimeout(800);
		await shot('poll-test-event', await panelText(page));
		await closeNode(page);
	} finally {
		await browser.close();
		await n8n.rest('DELETE', `/workflows/${id}`).catch(() => undefined);
	}
	return shots;
}

async function main(): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const { startN8n } = await import('../dev/n8n');
	const { credentialData } = await import('./lib/provision');
	const { SandboxClient } = await import('../sandbox/client');
	const { repoRoot } = await import('./lib/examples');
	const argv = process.argv.slice(2);
	const outIndex = argv.indexOf('--out');
	const outDir = outIndex >= 0 ? argv[outIndex + 1] : join(repoRoot(), 'docs', 'images');
	const sb = await startSandbox({ port: 0 });
	const n8n = await startN8n();
	try {
		const name = 'PayOnUs (screenshots)';
		const credential = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, 'screenshots-key') });
		// One paid payin for the test events to show.
		const client = new SandboxClient(sb.url, { apiClientId: 'sandbox-client-2', apiClientSecret: 'sandbox-secret-2' });
		const account = await client.api('POST', '/api/v1/virtual-accounts/dynamic', {
			amount: 5000,
			reference: `inv-${Date.now()}`,
			businessId: 'BUS-2001',
			customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348000000001' },
		});
		await client.api('POST', '/api/v1/fund-ngn-account', {
			onusReference: account.onusReference,
			accountNumber: account.accountNumber,
			amount: 5000,
			paymentStatus: 'SUCCESSFUL',
			forDynamicAccount: true,
		});
		for (const s of await takeTriggerScreenshots(n8n, { id: credential.id, name }, outDir)) process.stdout.write(`${s.file}\n`);
	} finally {
		await n8n.stop();
		await sb.stop();
	}
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	});
}
