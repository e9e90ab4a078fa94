/**
 * Pictures of the PayOnUs Payment Page for docs/payment-page.md, as n8n serves it:
 * starts a sandbox and a real n8n (the harness, dev/n8n), imports and activates the
 * "Sell with a link" example (and a KES page, and a page whose price changes
 * while it is open), and has headless Chromium open the page at
 * phone (390 px) and desktop (1280 px) widths:
 *
 *   npm run build && npm run build:tools
 *   node build/scripts/payment-page-screenshots.js [--out docs/images]
 *
 * Writes payment-page-<step>-<phone|desktop>.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startSandbox } from '../sandbox/server';
import { SandboxClient } from '../sandbox/client';
import { launchChromium } from '../dev/chromium';
import { startN8n } from '../dev/n8n';
import { loadExample, prepareExample, repoRoot } from './lib/examples';
import { credentialData } from './lib/provision';

const VIEWPORTS = {
	phone: { width: 390, height: 844 },
	desktop: { width: 1280, height: 800 },
};

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const outIndex = argv.indexOf('--out');
	const outDir = outIndex >= 0 ? argv[outIndex + 1] : join(repoRoot(), 'docs', 'images');
	const sb = await startSandbox({ port: 0 });
	const n8n = await startN8n();
	const browser = await launchChromium();
	try {
		const name = 'PayOnUs (screenshots)';
		const credential = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, 'screenshots-key') });
		const workflow = prepareExample(loadExample('sellWithLink'), {
			credential: { id: credential.id, name },
			settings: { salesFile: '/tmp/payonus-screenshots-sales.log' },
			cardPublicKey: await new SandboxClient(sb.url).publicKey(),
		});
		// One visitor (this script) takes several checkouts a minute: the page's bounds (rule 4) raised, as a builder can.
		const raised = { attemptsPerVisitor: 1000, attemptsPerTarget: 1000, attemptsPerPage: 1000, callsPerVisitor: 100000, callsPerPage: 100000 };
		const pageNode = workflow.nodes.find((n) => n.name === 'Payment page')!;
		pageNode.parameters = { ...pageNode.parameters, options: { ...(pageNode.parameters?.options as object | undefined), ...raised } };
		const { id } = await n8n.createWorkflow(workflow as never);
		await n8n.activate(id);
		const path = String(pageNode.parameters?.path);
		const url = n8n.webhookUrl(path);
		/** A one-node page workflow (the screenshots' own pages beside the example). */
		const pageFlow = (label: string, path: string, parameters: Record<string, unknown>) => ({
			name: `Payment page ${label} (screenshots)`,
			nodes: [
				{
					id: path,
					name: 'Page',
					type: 'n8n-nodes-payonus.payOnUsPaymentPage',
					typeVersion: 1,
					position: [0, 0],
					webhookId: path,
					credentials: { payOnUsApi: { id: credential.id, name } },
					parameters: { path, title: 'Concert ticket', businessId: { __rl: true, mode: 'id', value: 'BUS-2001' }, options: raised, ...parameters },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		// A KES mobile money page: the phone's local format and the wait screen.
		const kesPath = 'screenshots-kes';
		const kes = await n8n.createWorkflow(pageFlow('KES', kesPath, { currency: 'KES', amount: 2500, methods: ['momo'], askPhone: 'optional' }) as never);
		await n8n.activate(kes.id);
		const kesUrl = n8n.webhookUrl(kesPath);
		// A page whose price the merchant changes while a buyer has it open (issue 36 point 2).
		const pricePath = 'screenshots-price';
		const priced = (amount: number) => pageFlow('price change', pricePath, { currency: 'NGN', amount, methods: ['bank'] });
		const price = await n8n.createWorkflow(priced(5000) as never);
		await n8n.activate(price.id);
		const priceUrl = n8n.webhookUrl(pricePath);
		const setPrice = async (amount: number) => {
			await n8n.updateWorkflow(price.id, priced(amount));
			await n8n.activate(price.id);
			for (let i = 0; i < 100 && !(await (await fetch(priceUrl)).text()).includes(amount.toLocaleString('en')); i++) await new Promise((r) => setTimeout(r, 200));
		};
		for (const u of [url, kesUrl, priceUrl]) for (let i = 0; i < 100 && (await fetch(u)).status !== 200; i++) await new Promise((r) => setTimeout(r, 200));

		for (const [label, viewport] of Object.entries(VIEWPORTS)) {
			// A buyer in Lagos (WAT): the deadline is shown in their time.
			const context = await browser.newContext({ viewport, deviceScaleFactor: 1, timezoneId: 'Africa/Lagos' });
			const page = await context.newPage();
			const shot = async (p: Page, step: string) => {
				const file = join(outDir, `payment-page-${step}-${label}.png`);
				await p.screenshot({ path: file, fullPage: true });
				process.stdout.write(`${file}\n`);
			};
			await page.goto(url);
			await page.fill('#email', 'ada@example.com');
			await page.fill('#name', 'Ada Obi');
			await shot(page, 'start');
			// Every error at once, each at its field.
			await page.goto(url);
			await page.fill('#email', 'ada@');
			await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"]')]);
			await shot(page, 'errors');
			await page.fill('#email', 'ada@example.com');
			await page.fill('#name', 'Ada Obi');
			await page.check('input[name="method"][value="bank"]');
			await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"]')]);
			await shot(page, 'bank');
			await Promise.all([page.waitForNavigation(), page.click('button[value="card"]')]);
			await page.waitForSelector('#card-form:not([hidden])');
			await page.fill('#cc-number', '4111 1111 1111 1111');
			await page.fill('#cc-exp', '12/30');
			await page.fill('#cc-csc', '123');
			await shot(page, 'card');
			await Promise.all([page.waitForNavigation(), page.click('#card-form button[type="submit"]')]);
			await page.waitForSelector('#paid-h');
			await shot(page, 'paid');
			// Mobile money on a KES page: a local number, then the wait screen.
			await page.goto(kesUrl);
			await page.fill('#email', 'wanjiru@example.com');
			await page.fill('#phone', label === 'phone' ? '0722 123 456' : '0722 123 457');
			await shot(page, 'momo-start');
			await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"]')]);
			await page.selectOption('#network', 'MPESA_KE');
			await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"]')]);
			await shot(page, 'momo-wait');
			// The price changed while the buyer had the page open: a plain notice, nothing created.
			await setPrice(5000);
			await page.goto(priceUrl);
			await page.fill('#email', 'ada@example.com');
			await setPrice(6000);
			await Promise.all([page.waitForNavigation(), page.click('form button[type="submit"]')]);
			await shot(page, 'changed');
			await context.close();
		}
		await n8n.deactivate(id);
		await n8n.deactivate(kes.id);
		await n8n.deactivate(price.id);
	} finally {
		await browser.close();
		await n8n.stop();
		await sb.stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
