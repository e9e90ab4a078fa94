/**
 * What a buyer sees on the PayOnUs Payment Page (node version 1.1), in
 * headless Chromium at phone (390 px) and desktop (1280 px) sizes in Lagos
 * time (WAT), checked by axe-core (WCAG 2.1 A/AA rules) on every step: the
 * TEST MODE mark of a sandbox checkout, every form error at once at its own
 * field (aria-invalid), the account number's copy button, the deadline in
 * the buyer's time zone, a receipt reference that wraps only between its
 * parts, and the simplified item of the execution.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { launchChromium } from '../../dev/chromium';
import { sharedN8n, type N8nClient } from '../harness/e2e';
import { sandboxAccessToken } from '../../dev/sandboxCredential';
import { sleep } from '../../dev/wait';
import { credentialData } from '../../scripts/lib/provision';
import { checkoutRef, pageWorkflow, RUN, type Flow } from './payment-page.fixtures';
import { nodeItems } from '../harness/e2e';

jest.setTimeout(300_000);

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

let browser: Browser;
let n8n: N8nClient;
let sb: SandboxHandle;
let bankToken: string;
let flow: Flow;
let workflowId: string;

beforeAll(async () => {
	browser = await launchChromium();
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	bankToken = await sandboxAccessToken(sb.url, 3);
	const credName = `PayOnUs page ux ${RUN}`;
	const credential = await n8n.createCredential({ name: credName, type: 'payOnUsApi', data: credentialData(sb.url, `page-ux-key-${RUN}`) });
	const workflow = pageWorkflow(`page ux ${RUN}`, `pay-ux-${RUN}`, {
		currency: 'NGN',
		amount: 5000,
		methods: ['bank'],
		askName: 'required',
		askPhone: 'optional',
	});
	const page = workflow.nodes[0] as Record<string, unknown>;
	page.typeVersion = 1.1;
	page.credentials = { payOnUsApi: { id: credential.id, name: credName } };
	workflowId = (await n8n.createWorkflow(workflow)).id;
	await n8n.activate(workflowId);
	flow = { id: workflowId, url: n8n.webhookUrl(`pay-ux-${RUN}`), nodeName: 'Page', nodeId: 'page' };
	const deadline = Date.now() + 20_000;
	while ((await fetch(flow.url)).status === 404 && Date.now() < deadline) await sleep(200);
});

afterAll(async () => {
	await browser?.close();
	if (workflowId) await n8n.deactivate(workflowId).catch(() => undefined);
	await sb?.stop();
});

/** axe-core's WCAG 2.1 A and AA violations on the page as it is now (rule id: nodes). */
async function axe(page: Page): Promise<string[]> {
	// The page's CSP allows no script from outside: axe is evaluated through the DevTools protocol.
	await page.evaluate(AXE);
	const result = await page.evaluate(async () => {
		const w = window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } };
		return await w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
	});
	return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function newPage(size: keyof typeof SIZES): Promise<Page> {
	const context = await browser.newContext({
		viewport: SIZES[size],
		timezoneId: 'Africa/Lagos',
		locale: 'en-GB',
		permissions: ['clipboard-read', 'clipboard-write'],
	});
	return await context.newPage();
}

async function submit(page: Page, selector: string): Promise<void> {
	await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

describe.each(Object.keys(SIZES) as Array<keyof typeof SIZES>)('Payment Page for a buyer (%s)', (size) => {
	it('marks a sandbox checkout TEST MODE and shows every form error at once, each at its field', async () => {
		const page = await newPage(size);
		await page.goto(flow.url);
		expect(await page.isVisible('#test-mode')).toBe(true);
		expect(await page.textContent('#test-mode')).toContain('TEST MODE');
		expect(await axe(page)).toEqual([]);

		await page.fill('#email', 'not-an-address');
		await page.fill('#phone', '12');
		await submit(page, 'form button[type="submit"]');
		const invalid = await page.$$eval('input[aria-invalid="true"]', (els) => els.map((e) => e.id));
		expect(invalid.sort()).toEqual(['email', 'name', 'phone']);
		for (const id of invalid) {
			const described = await page.getAttribute(`#${id}`, 'aria-describedby');
			const text = await page.textContent(`#${id}-error`);
			expect(described).toContain(`${id}-error`);
			expect(text?.toLowerCase()).toContain(id);
		}
		expect(await page.textContent('#name-error')).toBe('Name: required');
		expect(await page.$$eval('#form-error li', (li) => li.length)).toBe(3);
		expect(await axe(page)).toEqual([]);
		await page.context().close();
	});

	it('gives the account number a copy button and the deadline in local time; the paid receipt keeps the reference whole; the execution item is simplified', async () => {
		const page = await newPage(size);
		await page.goto(flow.url);
		await page.fill('#email', 'ada@example.com');
		await page.fill('#name', 'Ada Obi');
		await submit(page, 'form button[type="submit"]');
		await page.waitForSelector('#account-number');
		const account = (await page.textContent('#account-number'))!.trim();
		expect(account).toMatch(/^\d{10}$/);

		// The deadline: Lagos time (WAT is UTC+1), not UTC.
		const iso = (await page.getAttribute('time[data-local]', 'datetime'))!;
		const shown = (await page.textContent('time[data-local]'))!;
		expect(shown).not.toContain('UTC');
		const lagos = new Date(Date.parse(iso) + 3600_000).toISOString().slice(11, 16);
		expect(shown).toContain(lagos);

		// Copy: visible, copies the number, says so.
		expect(await page.isVisible('button[data-copy="account-number"]')).toBe(true);
		await page.click('button[data-copy="account-number"]');
		await page.waitForFunction(() => document.getElementById('copy-status')?.textContent !== '');
		expect(await page.evaluate(async () => await navigator.clipboard.readText())).toBe(account);
		expect(await axe(page)).toEqual([]);

		// Paid: the receipt.
		const ref = checkoutRef(flow, page.url());
		const payin = (await sbPayins()).find((p) => p.reference === `${ref}-1`)!;
		await fund(String(payin.onusReference), account);
		await submit(page, 'button:has-text("I have paid")');
		await page.waitForSelector('#payment-reference', { timeout: 30_000 });
		const reference = (await page.textContent('#payment-reference'))!;
		expect(reference).toBe(payin.onusReference);
		// Each part of the reference sits on one line (a break may only follow a hyphen).
		const partsOnOneLine = await page.$$eval('#payment-reference .nowrap', (spans) =>
			spans.map((s) => {
				const range = document.createRange();
				range.selectNodeContents(s);
				return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size === 1;
			}),
		);
		expect(partsOnOneLine.length).toBe(String(payin.onusReference).split('-').length);
		expect(partsOnOneLine.every((x) => x)).toBe(true);
		expect(await axe(page)).toEqual([]);
		await page.context().close();

		// The execution's item: simplified (node version 1.1).
		const item = await paidItem(ref);
		expect(Object.keys(item).slice(0, 3)).toEqual(['paymentStatus', 'amount', 'currency']);
		expect(Object.keys(item).length).toBeLessThanOrEqual(10);
		expect(item).toMatchObject({ paymentStatus: 'SUCCESSFUL', amount: 5000, merchantCheckoutReference: ref, customerEmail: 'ada@example.com', customerName: 'Ada Obi' });
	});
});

async function sbPayins(): Promise<Array<Record<string, unknown>>> {
	return (await new SandboxClient(sb.url).ledger()).payins;
}

async function fund(onusReference: string, accountNumber: string): Promise<void> {
	const res = await fetch(`${sb.url}/api/v1/fund-ngn-account`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${bankToken}` },
		body: JSON.stringify({ onusReference, accountNumber, amount: 5000, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true }),
	});
	expect(res.status).toBe(200);
}

async function paidItem(ref: string): Promise<Record<string, unknown>> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		for (const e of await n8n.listExecutions(workflowId, true)) {
			try {
				const [item] = nodeItems(e, 'Page', 0);
				if (item?.merchantCheckoutReference === ref) return item as Record<string, unknown>;
			} catch {
				// not this one
			}
		}
		await sleep(300);
	}
	throw new Error(`no execution for ${ref}`);
}
