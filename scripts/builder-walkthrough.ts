/**
 * Issue 38's walk-through, scripted: a builder starting from scratch in the
 * n8n editor (headless Chromium on a real n8n with the sandbox).
 *
 *   npm run build && npm run build:tools
 *   PAYONUS_N8N_VERSION=current|minimum node build/scripts/builder-walkthrough.js [--out DIR]
 *
 * 1. Node search: on an empty workflow, the node panel ("+", then the
 *    search box) is asked for each name the docs use for the nodes of the
 *    two workflows; what it lists is printed (the first results).
 * 2. "When a collection of at least NGN 1,000 lands, pay 80% to a supplier
 *    and e-mail me the result": a consumer workflow built as the docs say
 *    (When Executed by Another Workflow with the documented sample pinned,
 *    If, PayOnUs Create Transfer with an Amount expression, Send Email); its
 *    PayOnUs node's panel is opened and run from the editor (Execute step),
 *    and what the output and its hint say is printed.
 * 3. A bulk payout from a CSV: Read/Write Files from Disk then PayOnUs Create
 *    Bulk Transfer with Dry Run on, run from the editor: the verdict, and a
 *    CSV with a bad line read as "line N (row M)".
 * Pictures go to DIR (default /tmp/payonus-walkthrough).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { N8nClient } from '../dev/n8n/client';
import { closeNode, openEditor, openEmptyCanvas, openNode, panelText, searchNodes as searchNodesIn } from './lib/editor';

const argv = process.argv.slice(2);
const OUT = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : '/tmp/payonus-walkthrough';

/** The names the docs give the nodes a builder adds, as typed into the node search. */
export const TRIGGER_SEARCHES = ['When Executed by Another Workflow', 'Execute Workflow Trigger', 'Executed by Another Workflow', 'Sub-workflow', 'PayOnUs Trigger', 'Manual'];
export const SEARCHES = [
	'PayOnUs',
	'Create Transfer',
	'Create Bulk Transfer',
	'If',
	'Send Email',
	'Read/Write Files from Disk',
	'Execute Workflow',
];

/** The node search, the first result with its description (a failed open leaves a picture). */
async function searchNodes(page: Page, query: string): Promise<string[]> {
	return await searchNodesIn(page, query, { describeFirst: true, errorPicture: join(OUT, 'search-bar-missing.png') });
}

async function emptyWorkflow(n8n: N8nClient, name: string, withTrigger = true): Promise<string> {
	const workflow = {
		name,
		nodes: withTrigger ? [{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 300], parameters: {} }] : [],
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
		active: false,
	};
	return (await n8n.rest<{ id: string }>('POST', '/workflows', workflow)).id;
}

/** The sample item of docs/nodes/payonus-trigger.md ("A sample item to pin"), as a consumer receives it. */
export const SAMPLE_COLLECTION = {
	event: 'COLLECTION',
	paymentStatus: 'SUCCESSFUL',
	amount: 25000,
	currency: 'NGN',
	businessId: 'BUS-2001',
	merchantReference: 'order-1001',
	onusReference: 'ONUS-NUB-1234567890123-15012026-103000',
	transactionAmount: 25000,
	amountPaid: 25000,
	settlementAmount: 24750,
	totalChargedFee: 250,
	paymentChannel: 'BANK_TRANSFER',
	email: 'ada.obi@example.com',
	confirmed: true,
};

function consumerWorkflow(credential: { id: string; name: string }) {
	const payonus = { payOnUsApi: credential };
	return {
		name: `walk: pay 80% of a collection ${Date.now()}`,
		nodes: [
			{ id: 'in', name: 'When Executed by Another Workflow', type: 'n8n-nodes-base.executeWorkflowTrigger', typeVersion: 1.1, position: [0, 300], parameters: { inputSource: 'passthrough' } },
			{
				id: 'if',
				name: 'If',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [240, 300],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{ id: 'c1', leftValue: '={{ $json.paymentStatus }}', rightValue: 'SUCCESSFUL', operator: { type: 'string', operation: 'equals' } },
							{ id: 'c2', leftValue: '={{ $json.currency }}', rightValue: 'NGN', operator: { type: 'string', operation: 'equals' } },
							{ id: 'c3', leftValue: '={{ $json.amount }}', rightValue: 1000, operator: { type: 'number', operation: 'gte' } },
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			{
				id: 'pay',
				name: 'Pay supplier 80%',
				type: 'n8n-nodes-payonus.payOnUs',
				typeVersion: 1,
				position: [480, 300],
				credentials: payonus,
				parameters: {
					resource: 'payout',
					operation: 'createTransfer',
					businessId: { __rl: true, mode: 'id', value: '={{ $json.businessId }}' },
					amount: '={{ Math.round($json.amount * 80) / 100 }}',
					currency: 'NGN',
					reference: '=share-{{ $json.onusReference }}',
					beneficiaryBankCode: '044',
					beneficiaryAccountNumber: '9999991112',
					beneficiaryAccountName: 'Sandbox Success Beneficiary',
					narration: '=80% of {{ $json.onusReference }}',
				},
			},
		],
		connections: {
			'When Executed by Another Workflow': { main: [[{ node: 'If', type: 'main', index: 0 }]] },
			If: { main: [[{ node: 'Pay supplier 80%', type: 'main', index: 0 }], []] },
		},
		settings: { executionOrder: 'v1' },
		pinData: { 'When Executed by Another Workflow': [{ json: SAMPLE_COLLECTION }] },
		active: false,
	};
}

const CSV_HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';

function bulkWorkflow(credential: { id: string; name: string }, csv: string, tag: string) {
	return {
		name: `walk: bulk payout ${tag} ${Date.now()}`,
		nodes: [
			{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 300], parameters: {} },
			{
				id: 'bulk',
				name: 'Pay the CSV',
				type: 'n8n-nodes-payonus.payOnUs',
				typeVersion: 1,
				position: [300, 300],
				credentials: { payOnUsApi: credential },
				parameters: {
					resource: 'payout',
					operation: 'bulkTransfer',
					source: 'binary',
					binaryPropertyName: 'data',
					businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
					currency: 'NGN',
					reference: `walk-batch-${tag}-${Date.now().toString(36)}`,
					dryRun: true,
				},
			},
		],
		connections: { Start: { main: [[{ node: 'Pay the CSV', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		// The file a Read/Write Files from Disk node would give (binary "data").
		pinData: {
			Start: [{ json: {}, binary: { data: { data: Buffer.from(csv, 'utf8').toString('base64'), mimeType: 'text/csv', fileName: 'payouts.csv', fileExtension: 'csv' } } }],
		},
		active: false,
	};
}

async function runFromPanel(page: Page, wanted: RegExp, timeoutMs = 60_000): Promise<string> {
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const deadline = Date.now() + timeoutMs;
	let text = '';
	while (Date.now() < deadline) {
		text = await panelText(page);
		if (wanted.test(text)) return text;
		await page.waitForTimeout(500);
	}
	return text;
}

async function main(): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const { startN8n, N8N_VERSION } = await import('../dev/n8n');
	const { credentialData } = await import('./lib/provision');
	mkdirSync(OUT, { recursive: true });
	const sb = await startSandbox({ port: 0 });
	const n8n = await startN8n();
	const log: string[] = [`n8n ${N8N_VERSION}`];
	const say = (line: string) => {
		log.push(line);
		process.stdout.write(`${line}\n`);
	};
	try {
		const name = 'PayOnUs (walkthrough)';
		const { id: credentialId } = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, 'walk-key') });
		const credential = { id: credentialId, name };

		// 1. The node search: a new workflow's first step (triggers), then what happens next (actions).
		{
			const id = await emptyWorkflow(n8n, `walk: first step ${Date.now()}`, false);
			const { browser, page } = await openEmptyCanvas(n8n, id);
			try {
				for (const query of TRIGGER_SEARCHES) {
					const found = await searchNodes(page, query);
					say(`first-step search "${query}": ${found.join(' | ') || '(nothing)'}`);
					if (query === 'When Executed by Another Workflow') await page.screenshot({ path: join(OUT, 'search-first-step.png') });
				}
				// What the builder gets by picking the first result of "Execute Workflow Trigger".
				await searchNodes(page, 'Execute Workflow Trigger');
				await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').first().click();
				await page.waitForTimeout(1500);
				const inside = await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').allInnerTexts();
				say(`first-step "Execute Workflow Trigger" -> "Execute Sub-workflow" opens: ${inside.map((t) => t.trim()).join(' | ')}`);
				await page.screenshot({ path: join(OUT, 'first-step-sub-workflow.png') });
				const trigger = page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]', { hasText: /Executed by Another Workflow/i }).first();
				if ((await trigger.count()) > 0) await trigger.click();
				await page.waitForTimeout(2500);
				await page.keyboard.press('Escape');
				await page.waitForTimeout(800);
				await page.screenshot({ path: join(OUT, 'first-step-added.png') });
				say(`first-step "Execute Workflow Trigger", first result picked: the canvas shows ${JSON.stringify(await page.locator('.vue-flow__node [data-test-id="canvas-node-box-title"], .vue-flow__node .node-name, .vue-flow__node').allInnerTexts())}`);
			} finally {
				await browser.close();
			}
		}
		{
			const id = await emptyWorkflow(n8n, `walk: search ${Date.now()}`);
			const { browser, page } = await openEditor(n8n, id, join(OUT, 'search-error.png'));
			try {
				// Inside PayOnUs, the actions the search box then filters ("transfer").
				await searchNodes(page, 'PayOnUs');
				await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]', { hasText: /^PayOnUs$/ }).first().click();
				await page.waitForTimeout(1500);
				await page.keyboard.type('transfer', { delay: 20 });
				await page.waitForTimeout(1200);
				const actions = await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').allInnerTexts();
				say(`next-step "PayOnUs" opened, typed "transfer": ${actions.map((t) => t.trim()).join(' | ')}`);
				await page.screenshot({ path: join(OUT, 'next-step-payonus-transfer.png') });
				await page.keyboard.press('Escape');
				await page.keyboard.press('Escape');
				for (const query of SEARCHES) {
					const found = await searchNodes(page, query);
					say(`next-step search "${query}": ${found.join(' | ') || '(nothing)'}`);
					if (query === 'When Executed by Another Workflow') await page.screenshot({ path: join(OUT, 'search-executed-by-another-workflow.png') });
				}
			} finally {
				await browser.close();
			}
		}

		// 2. Pay 80% of a collection of at least NGN 1,000.
		{
			const { id } = await n8n.rest<{ id: string }>('POST', '/workflows', consumerWorkflow(credential));
			const { browser, page } = await openEditor(n8n, id, join(OUT, 'consumer-error.png'));
			try {
				await openNode(page, '.vue-flow__node[data-id="in"]');
				await page.screenshot({ path: join(OUT, 'consumer-start-pinned.png') });
				say(`consumer start: pinned item shown: ${/paymentStatus/.test(await panelText(page))}`);
				await closeNode(page);
				await openNode(page, '.vue-flow__node[data-id="pay"]');
				const text = await runFromPanel(page, /This transfer is PENDING|ERROR|Problem/);
				await page.screenshot({ path: join(OUT, 'consumer-pay-output.png') });
				say(`consumer pay: ${/This transfer is PENDING\. PENDING is not final/.test(text) ? 'output hint "PENDING is not final" shown' : 'no PENDING hint'}; amount 20000: ${/20,?000/.test(text)}`);
			} finally {
				await browser.close();
			}
		}

		// 3. A bulk payout from a CSV, Dry Run first; then a CSV with a bad line.
		for (const [tag, csv] of [
			['good', `${CSV_HEADER}\n9999991112,Sandbox Success Beneficiary,044,1500,June\n0123456789,Somebody Else,058,2500.50,June\n`],
			['bad', `${CSV_HEADER}\n9999991112,Sandbox Success Beneficiary,044,1500,June\n12AB,,058,0,June\n`],
		] as const) {
			const { id } = await n8n.rest<{ id: string }>('POST', '/workflows', bulkWorkflow(credential, csv, tag));
			const { browser, page } = await openEditor(n8n, id, join(OUT, `bulk-${tag}-error.png`));
			try {
				await openNode(page, '.vue-flow__node[data-id="bulk"]');
				const text = await runFromPanel(page, /PASSED:|FAILED:|Bulk transfer refused/);
				await page.screenshot({ path: join(OUT, `bulk-${tag}.png`) });
				const verdict = /(PASSED|FAILED): [^\n]*/.exec(text)?.[0] ?? /Bulk transfer refused[^\n]*/.exec(text)?.[0] ?? text.slice(0, 300);
				say(`bulk ${tag}: ${verdict}`);
			} finally {
				await browser.close();
			}
		}
	} finally {
		writeFileSync(join(OUT, `walkthrough-${N8N_VERSION}.txt`), `${log.join('\n')}\n`);
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
