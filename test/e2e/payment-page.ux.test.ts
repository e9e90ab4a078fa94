/**
 * What a buyer sees on the PayOnUs Payment Page (node version 1.1), in
 * headless Chromium at phone (390 px) and desktop (1280 px) sizes in Lagos
 * time (WAT), checked by axe-core (WCAG 2.1 A/AA rules) on every step: the
 * TEST MODE mark of a sandbox checkout, every form error at once at its own
 * field (aria-invalid), the account number's copy button, the deadline in
 * the buyer's time zone, a receipt reference that wraps only between its
 * parts, and the simplified item of the execution; issue 31 point 7 (a
 * KES mobile money checkout, the bank transfer screen, TEST MODE simulate) and
 * axe-core on every state of the page, tallied at the end; issue 36 point
 * 6: the 3-D Secure and EFT waits, too many attempts, 502 and 503 too.
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
let kesWorkflowId: string;
let kesUrl: string;
const extraWorkflows: string[] = [];
const extraUrls: Record<string, string> = {};

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
	(page.parameters as Record<string, unknown>).simplify = true;
	page.credentials = { payOnUsApi: { id: credential.id, name: credName } };
	workflowId = (await n8n.createWorkflow(workflow)).id;
	await n8n.activate(workflowId);
	flow = { id: workflowId, url: n8n.webhookUrl(`pay-ux-${RUN}`), nodeName: 'Page', nodeId: 'page' };
	// KES mobile money, one prompt per phone a minute (rule 4), to see the refusal page.
	const kes = pageWorkflow(`page ux KES ${RUN}`, `pay-ux-kes-${RUN}`, { currency: 'KES', amount: 250, methods: ['momo'], askPhone: 'optional', options: { attemptsPerTarget: 1 } });
	const kesNode = kes.nodes[0] as Record<string, unknown>;
	(kesNode.parameters as Record<string, unknown>).simplify = true;
	kesNode.credentials = { payOnUsApi: { id: credential.id, name: credName } };
	kesWorkflowId = (await n8n.createWorkflow(kes)).id;
	await n8n.activate(kesWorkflowId);
	kesUrl = n8n.webhookUrl(`pay-ux-kes-${RUN}`);
	// Card (the sandbox's key, pasted in as a builder does), and a checkout that expires in 3 s, for the remaining states.
	const cardPublicKey = await new SandboxClient(sb.url).publicKey();
	for (const [key, params] of [
		['card', { currency: 'NGN', amount: 5000, methods: ['card', 'bank'], cardPublicKey }],
		['expiring', { currency: 'NGN', amount: 5000, methods: ['bank'], options: { expiryMinutes: 0.05 } }],
		// issue 36 point 6: the EFT wait, and a page that cannot take payments (card only, no key: 503)
		['zar', { currency: 'ZAR', amount: 199.99, methods: ['eft'] }],
		['noKey', { currency: 'NGN', amount: 5000, methods: ['card'] }],
	] as const) {
		const wf = pageWorkflow(`page ux ${key} ${RUN}`, `pay-ux-${key}-${RUN}`, params as Record<string, unknown>);
		const node = wf.nodes[0] as Record<string, unknown>;
		(node.parameters as Record<string, unknown>).simplify = true;
		node.credentials = { payOnUsApi: { id: credential.id, name: credName } };
		const id = (await n8n.createWorkflow(wf)).id;
		extraWorkflows.push(id);
		await n8n.activate(id);
		extraUrls[key] = n8n.webhookUrl(`pay-ux-${key}-${RUN}`);
	}
	const kesDeadline = Date.now() + 20_000;
	for (const u of Object.values(extraUrls)) while ((await fetch(u)).status === 404 && Date.now() < kesDeadline) await sleep(200);
	while ((await fetch(kesUrl)).status === 404 && Date.now() < kesDeadline) await sleep(200);
	const deadline = Date.now() + 20_000;
	while ((await fetch(flow.url)).status === 404 && Date.now() < deadline) await sleep(200);
});

afterAll(async () => {
	await browser?.close();
	if (workflowId) await n8n.deactivate(workflowId).catch(() => undefined);
	if (kesWorkflowId) await n8n.deactivate(kesWorkflowId).catch(() => undefined);
	for (const id of extraWorkflows) await n8n.deactivate(id).catch(() => undefined);
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
	const violations = result.violations as Array<{ id: string; impact?: string; nodes: Array<{ target: string[] }> }>;
	const state = `${page.viewportSize()?.width === SIZES.phone.width ? 'phone' : 'desktop'} ${await page.title()} #${++axeRuns}`;
	axeTally.push({ state, all: violations.length, serious: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').length });
	return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Every axe run of this file: the page state, its violations and the serious or critical ones (printed at the end). */
const axeTally: Array<{ state: string; all: number; serious: number }> = [];
let axeRuns = 0;
afterAll(() => {
	console.log(`axe-core (WCAG 2.1 A/AA) on ${axeTally.length} page states: ${axeTally.reduce((t, r) => t + r.all, 0)} violations, ${axeTally.reduce((t, r) => t + r.serious, 0)} serious or critical\n${axeTally.map((r) => `${r.state}: ${r.all} (${r.serious} serious)`).join('\n')}`);
});

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

	it('issue 31 point 7, mobile money on a phone: a local number on a KES page, a Kenyan example shown once, the wait names number and network, a resend refused by rule 4 says when to try again, a decline in full sentences', async () => {
		const page = await newPage(size);
		await page.goto(kesUrl);
		const start = await page.content();
		expect(start).toContain('e.g. 0712 345 678 or +254 712 345 678');
		expect(start.split('0712 345 678').length - 1).toBe(1);
		expect(start).not.toContain('+234');
		expect(await axe(page)).toEqual([]);
		const local = size === 'phone' ? '0722 000 111' : '0722 000 222';
		const international = size === 'phone' ? '+254722000111' : '+254722000222';
		await page.fill('#email', `momo-${size}@example.com`);
		await page.fill('#phone', local);
		await submit(page, 'form button[type="submit"]');
		expect(await page.inputValue('#momo-phone')).toBe(international);
		expect((await page.content()).split('0712 345 678').length - 1).toBe(1);
		expect(await axe(page)).toEqual([]);
		await page.selectOption('#network', 'MPESA_KE');
		await submit(page, 'form button[type="submit"]');
		expect(await page.textContent('#momo-number')).toBe(international);
		expect(await page.textContent('#momo-network')).toBe('M-Pesa Kenya');
		expect(await page.textContent('main')).toContain('A request stays on the phone for a short time only');
		expect(await axe(page)).toEqual([]);

		// Resend: the phone's bound (1 a minute on this page) refuses it, before the service.
		await submit(page, '#resend');
		expect(await page.textContent('h2')).toBe('Please wait a moment');
		expect(Number(await page.textContent('#retry-seconds'))).toBeGreaterThan(0);
		expect(await axe(page)).toEqual([]);
		await submit(page, '#retry');
		expect(await page.textContent('h2')).toBe('Approve on your phone');

		// Declined on the phone: said in full sentences that do not blame the buyer.
		const ref = checkoutRef({ ...flow, id: kesWorkflowId }, page.url());
		const payin = (await sbPayins()).find((p) => p.reference === `${ref}-1`)!;
		await new SandboxClient(sb.url).declinePayin(String(payin.onusReference));
		await page.reload();
		const message = (await page.textContent('[role="alert"]'))!.trim();
		expect(message).toBe('The payment request was not approved on the phone. No money was taken. You can try again, or choose another way to pay.');
		expect(await axe(page)).toEqual([]);
		await page.context().close();
	});

	it('issue 31 point 7, bank transfer on a phone: the account name whole, a countdown, the seller; TEST MODE: simulate the customer paying to the receipt', async () => {
		const page = await newPage(size);
		await page.goto(flow.url);
		await page.fill('#email', `bank-${size}@example.com`);
		await page.fill('#name', 'Chukwuemeka Adaeze-Okonkwo');
		await submit(page, 'form button[type="submit"]');
		await page.waitForSelector('#account-number');
		expect(await page.textContent('#seller')).toBeTruthy();
		expect(await page.textContent('#time-left')).toMatch(/^\d+:\d\d$/);
		// No word of the account name is split across lines.
		const split = await page.$$eval('#account-name .nowrap', (spans) =>
			spans.some((span) => {
				const range = document.createRange();
				range.selectNodeContents(span);
				return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size > 1;
			}),
		);
		expect(split).toBe(false);
		expect(await page.isVisible('#simulate')).toBe(true);
		expect(await page.textContent('.testonly h3')).toBe('TEST MODE');
		expect(await axe(page)).toEqual([]);
		await submit(page, '#simulate');
		await page.waitForSelector('#payment-reference', { timeout: 30_000 });
		expect(await axe(page)).toEqual([]);
		await page.context().close();
	});

	it('every other state passes axe-core: the card form, a declined card, the PIN and OTP steps, an expired checkout, a link that is not valid', async () => {
		const page = await newPage(size);
		const fillStart = async (url: string, email: string) => {
			await page.goto(url);
			await page.fill('#email', email);
			await page.fill('#name', 'Ada Obi');
			if (await page.$('input[name="method"][value="card"]')) await page.check('input[name="method"][value="card"]');
			await submit(page, 'form button[type="submit"]');
		};
		const card = async (pan: string) => await enterCard(page, pan);
		await fillStart(extraUrls.card, `card-${size}@example.com`);
		await page.waitForSelector('#card-form:not([hidden])');
		expect(await axe(page)).toEqual([]);
		await card('4000000000000002');
		expect(await page.textContent('[role="alert"]')).toContain('The card payment was not approved.');
		expect(await axe(page)).toEqual([]);
		await fillStart(extraUrls.card, `pin-${size}@example.com`);
		await card('5399000000000008');
		expect(await page.textContent('h2')).toBe('Enter your card PIN');
		expect(await axe(page)).toEqual([]);
		await fillStart(extraUrls.card, `otp-${size}@example.com`);
		await card('5399000000000016');
		expect(await page.textContent('h2')).toBe('Enter the code');
		expect(await axe(page)).toEqual([]);

		await page.goto(extraUrls.expiring);
		await page.fill('#email', `late-${size}@example.com`);
		await page.fill('#name', 'Ada Obi');
		await sleep(3500);
		await submit(page, 'form button[type="submit"]');
		expect(await page.textContent('h2')).toBe('This checkout has expired');
		expect(await axe(page)).toEqual([]);

		await page.goto(`${flow.url}?c=1.${'x'.repeat(60)}`);
		expect(await page.textContent('h2')).toBe('This payment link is not valid');
		expect(await axe(page)).toEqual([]);
		await page.context().close();
	});
});

describe.each(Object.keys(SIZES) as Array<keyof typeof SIZES>)('Payment Page for a buyer, the remaining states (%s)', (size) => {
	it('issue 36 point 6: the 3-D Secure and EFT waits, the "too many attempts" page and the 502 and 503 pages pass axe-core', async () => {
		const page = await newPage(size);
		const startAt = async (url: string, email: string, method?: string) => {
			await page.goto(url);
			await page.fill('#email', email);
			if (await page.$('#name')) await page.fill('#name', 'Ada Obi');
			if (method && (await page.$(`input[name="method"][value="${method}"]`))) await page.check(`input[name="method"][value="${method}"]`);
			await submit(page, 'form button[type="submit"]');
			return checkoutRef({ ...flow, id: url === flow.url ? flow.id : extraWorkflows[urlIndex(url)] }, page.url());
		};
		const card = async (pan: string) => await enterCard(page, pan);
		/** The address the service sends the buyer back to (the payin's redirectUrl, as the page gave it). */
		const returnAddress = async (reference: string) => String((await sbPayins()).find((p) => p.reference === reference)?.redirectUrl);

		// 3-D Secure: the wait, as the buyer sees it on coming back from the bank.
		const threeDs = await startAt(extraUrls.card, `3ds-${size}@example.com`, 'card');
		await card('4000000000003220');
		await page.goto(await returnAddress(`${threeDs}-1`));
		expect(await page.textContent('h2')).toBe('Verify with your bank');
		expect(await axe(page)).toEqual([]);

		// EFT: the wait, coming back from the bank without authorising.
		const eft = await startAt(extraUrls.zar, `eft-${size}@example.com`);
		await submit(page, 'form button[type="submit"]');
		await page.goto(await returnAddress(`${eft}-1`));
		expect(await page.textContent('h2')).toBe('Authorise at your bank');
		expect(await axe(page)).toEqual([]);

		// Too many attempts: five declined cards on one checkout.
		await startAt(extraUrls.card, `closed-${size}@example.com`, 'card');
		for (let i = 0; i < 5; i++) await card('4000000000000002');
		expect(await page.textContent('h2')).toBe('Payment not completed');
		expect(await page.textContent('main')).toContain('This checkout has had too many attempts');
		expect(await axe(page)).toEqual([]);

		// 503: a page that cannot take payments (card only, without its key).
		const unavailable = await page.goto(extraUrls.noKey);
		expect(unavailable?.status()).toBe(503);
		expect(await page.textContent('h2')).toBe('Payments are not available');
		expect(await axe(page)).toEqual([]);

		// 502: the service out of reach while the buyer reloads an open checkout.
		await startAt(flow.url, `down-${size}@example.com`);
		const control = new SandboxClient(sb.url);
		await control.addFault({ method: 'GET', path: '/api/v1/payment-requests*', status: 500 });
		try {
			const down = await page.reload();
			expect(down?.status()).toBe(502);
			expect(await page.textContent('h2')).toBe('We could not reach the payment service');
			expect(await axe(page)).toEqual([]);
		} finally {
			await control.clearFaults();
		}
		await page.context().close();
	});
});

/** Which of the extra workflows an address is (card, expiring, zar, noKey: created in that order). */
function urlIndex(url: string): number {
	return Object.values(extraUrls).indexOf(url);
}

/** A card typed into the card form and sent (the page's script encrypts it). */
async function enterCard(page: Page, pan: string): Promise<void> {
	await page.waitForSelector('#card-form:not([hidden])');
	await page.fill('#cc-number', pan);
	await page.fill('#cc-exp', '12/30');
	await page.fill('#cc-csc', '123');
	await submit(page, '#card-form button[type="submit"]');
}

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
