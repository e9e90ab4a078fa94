/**
 * Issue 38's third from-scratch workflow, scripted: "sell a product with a
 * link" (PayOnUs Payment Page -> the next node), in the n8n editor (headless
 * Chromium on a real n8n with the sandbox), not from examples/sell-with-a-link.json.
 *
 *   npm run build && npm run build:tools
 *   PAYONUS_N8N_VERSION=current|minimum node build/scripts/page-walkthrough.js [--out DIR]
 *
 * 1. Node search: the names a builder would type ("payment page", "sell",
 *    "checkout", ...) and what the node panel lists; the first PayOnUs
 *    Payment Page result is added and its panel (fields, notice, hints) read.
 * 2. The page's panel on a saved workflow: its webhook URLs (where the
 *    Production URL is) and each field's hint.
 * 3. Published (activated), the Production URL opened in the browser: bank
 *    transfer (NGN) and mobile money (KES) paid in TEST MODE with "Simulate the
 *    customer paying"; the Paid item read from the next node's input.
 * Pictures and a log go to DIR (default /tmp/payonus-page-walkthrough).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { closeNode, openEditor, openEmptyCanvas, openNode, panelText, searchNodes } from './lib/editor';

const argv = process.argv.slice(2);
const OUT = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : '/tmp/payonus-page-walkthrough';

/** What a builder who wants "a payment link for a product" types into the node search. */
export const PAGE_SEARCHES = ['payment page', 'PayOnUs', 'PayOnUs Payment Page', 'sell', 'checkout', 'payment link', 'pay'];

async function submit(page: Page, selector: string): Promise<void> {
	await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

async function main(): Promise<void> {
	const { startSandbox } = await import('../sandbox/server');
	const { startN8n, N8N_VERSION } = await import('../dev/n8n');
	const { credentialData } = await import('./lib/provision');
	const { launchChromium } = await import('../dev/chromium');
	mkdirSync(OUT, { recursive: true });
	const sb = await startSandbox({ port: 0 });
	const n8n = await startN8n();
	const log: string[] = [`n8n ${N8N_VERSION}`];
	const say = (line: string) => {
		log.push(line);
		process.stdout.write(`${line}\n`);
	};
	const v = N8N_VERSION;
	try {
		const name = 'PayOnUs (page walkthrough)';
		const { id: credentialId } = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, 'page-walk-key') });
		const credential = { id: credentialId, name };

		// 1. An empty workflow: what the search finds, and the node's panel once added.
		{
			const workflow = { name: `walk: sell with a link ${Date.now()}`, nodes: [], connections: {}, settings: { executionOrder: 'v1' }, active: false };
			const { id } = await n8n.rest<{ id: string }>('POST', '/workflows', workflow);
			const { browser, page } = await openEmptyCanvas(n8n, id);
			try {
				for (const query of PAGE_SEARCHES) {
					const found = await searchNodes(page, query);
					say(`search "${query}": ${found.join(' | ') || '(nothing)'}`);
					if (query === 'payment page') await page.screenshot({ path: join(OUT, `${v}-search-payment-page.png`) });
				}
				await searchNodes(page, 'PayOnUs Payment Page');
				await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]', { hasText: /Payment Page/ }).first().click();
				await page.waitForTimeout(1500);
				const inside = await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').allInnerTexts();
				if (inside.length > 0) {
					say(`picking "PayOnUs Payment Page" opens: ${inside.map((t) => t.trim()).join(' | ')}`);
					await page.screenshot({ path: join(OUT, `${v}-picked.png`) });
					await page.locator('[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]').first().click();
					await page.waitForTimeout(1500);
				}
				// n8n 2.41 shows a community node's details first, with "Add to workflow".
				const add = page.getByRole('button', { name: /Add to workflow/i }).first();
				if (await add.isVisible().catch(() => false)) {
					say('picking "PayOnUs Payment Page" shows its details first: "Add to workflow" clicked');
					await add.click();
				}
				await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'visible', timeout: 20_000 }).catch(() => undefined);
				await page.waitForTimeout(1000);
				await page.screenshot({ path: join(OUT, `${v}-added-panel.png`), fullPage: true });
				say(`added, its panel reads:\n${(await panelText(page)).replace(/\n+/g, ' / ').slice(0, 3000)}`);
			} finally {
				await browser.close();
			}
		}

		// 2 and 3. The page as a builder fills it, then the next node; published and paid.
		const pages = [
			{ tag: 'bank', path: `walk-ticket-${Date.now().toString(36)}`, currency: 'NGN', amount: 5000, methods: ['bank'] },
			{ tag: 'momo', path: `walk-kes-${Date.now().toString(36)}`, currency: 'KES', amount: 2500, methods: ['momo'] },
		];
		for (const p of pages) {
			const workflow = {
				name: `walk: sell a ticket (${p.tag}) ${Date.now()}`,
				nodes: [
					{
						id: 'page',
						name: 'PayOnUs Payment Page',
						type: 'n8n-nodes-payonus.payOnUsPaymentPage',
						typeVersion: 1,
						position: [0, 300],
						webhookId: p.path,
						credentials: { payOnUsApi: credential },
						parameters: { path: p.path, title: 'Concert ticket', businessId: { __rl: true, mode: 'id', value: 'BUS-2001' }, currency: p.currency, amount: p.amount, methods: p.methods },
					},
					{ id: 'next', name: 'Record the sale', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [300, 300], parameters: {} },
				],
				connections: { 'PayOnUs Payment Page': { main: [[{ node: 'Record the sale', type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
				active: false,
			};
			const { id } = await n8n.rest<{ id: string }>('POST', '/workflows', workflow);
			if (p.tag === 'bank') {
				const { browser, page } = await openEditor(n8n, id, join(OUT, `${v}-page-error.png`));
				try {
					await openNode(page, '.vue-flow__node[data-id="page"]');
					const urls = page.locator('[data-test-id="ndv"] :text("Webhook URLs"), [data-test-id="ndv"] :text("Webhook URL")').first();
					if ((await urls.count()) > 0) await urls.click().catch(() => undefined);
					await page.waitForTimeout(800);
					await page.screenshot({ path: join(OUT, `${v}-page-panel.png`), fullPage: true });
					const text = await panelText(page);
					say(`page panel (filled):\n${text.replace(/\n+/g, ' / ').slice(0, 4000)}`);
					// The link to share: the Production URL tab of Webhook URLs.
					await page.locator('[data-test-id="ndv"]').getByText('Production URL', { exact: true }).first().click().catch(() => undefined);
					await page.waitForTimeout(600);
					await page.screenshot({ path: join(OUT, `${v}-page-production-url.png`) });
					const production = await panelText(page);
					say(`page panel, tab Production URL, shows the link to share: ${production.includes(`/webhook/${p.path}`)}; shows /notify: ${production.includes(`/webhook/${p.path}/notify`)}`);
					// Each field's hint (n8n shows a description on hover of the label's "i").
					await closeNode(page);
				} finally {
					await browser.close();
				}
			}
			await n8n.activate(id);
			const url = n8n.webhookUrl(p.path);
			say(`${p.tag}: published; Production URL ${url}`);
			const browser = await launchChromium();
			try {
				const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
				await page.goto(url);
				await page.screenshot({ path: join(OUT, `${v}-${p.tag}-start.png`), fullPage: true });
				await page.fill('#email', `walk-${p.tag}@example.com`);
				if (p.tag === 'momo') {
					if (await page.isVisible('#phone')) await page.fill('#phone', '0722 000 333');
					await submit(page, 'form button[type="submit"]');
					await page.selectOption('#network', 'MPESA_KE');
					if (!(await page.inputValue('#momo-phone'))) await page.fill('#momo-phone', '0722 000 333');
					await submit(page, 'form button[type="submit"]');
				} else {
					await submit(page, 'form button[type="submit"]');
					await page.waitForSelector('#account-number', { timeout: 30_000 });
				}
				await page.screenshot({ path: join(OUT, `${v}-${p.tag}-wait.png`), fullPage: true });
				const testBox = await page.locator('.testonly').first().innerText().catch(() => '(no TEST MODE box)');
				say(`${p.tag}: TEST MODE box: ${testBox.replace(/\n+/g, ' / ')}`);
				await submit(page, '#simulate');
				await page.waitForSelector('#payment-reference', { timeout: 60_000 });
				await page.screenshot({ path: join(OUT, `${v}-${p.tag}-paid.png`), fullPage: true });
				say(`${p.tag}: receipt: ${(await page.locator('main').first().innerText()).replace(/\n+/g, ' / ').slice(0, 400)}`);
			} finally {
				await browser.close();
			}
			const [execution] = await n8n.waitForExecutions(id, 1, 60_000);
			const runData = (execution as unknown as { data?: { resultData?: { runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>> } } }).data?.resultData?.runData ?? {};
			const reached = runData['Record the sale']?.[0]?.data?.main?.[0]?.[0]?.json;
			say(`${p.tag}: the Paid item reached "Record the sale": ${reached ? JSON.stringify(reached) : 'NO'}`);
			// What the builder sees of that run in the editor.
			const { browser: b2, page: editor } = await openEditor(n8n, id, join(OUT, `${v}-exec-error.png`));
			try {
				await editor.goto(`${n8n.baseUrl}/workflow/${id}/executions/${(execution as { id: string }).id}`);
				await editor.waitForTimeout(4000);
				await editor.screenshot({ path: join(OUT, `${v}-${p.tag}-execution.png`) });
			} finally {
				await b2.close();
			}
		}
	} finally {
		writeFileSync(join(OUT, `page-walkthrough-${N8N_VERSION}.txt`), `${log.join('\n')}\n`);
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
