/**
 * PayOnUs Payment Page in a real n8n against the sandbox, with headless
 * Chromium as the customer: every method through to a confirmed execution,
 * the card's PIN / OTP / 3-D Secure steps and a decline, an abandoned and an
 * expired checkout (no execution), a double submit and a reload after paying
 * (one payin, one execution), and no card number in n8n's executions, log or
 * database.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { launchChromium } from '../harness/chromium';
import { CONNECTION_ENV, nodeItems, sharedN8n, type Execution, type N8nClient } from '../harness/e2e';
import { sandboxAccessToken, sandboxClient } from '../harness/fixtures';
import type { N8nConnection, WorkflowJson } from '../harness/n8n';
import { loadExample, prepareExample } from '../../scripts/lib/examples';
import { credentialData } from '../../scripts/lib/provision';
import { deriveKey, open } from '../../nodes/PayOnUsPaymentPage/token';

jest.setTimeout(300_000);

const RUN = randomBytes(4).toString('hex');
const PAGE_TYPE = 'n8n-nodes-payonus.payOnUsPaymentPage';
const EXAMPLE_PAGE = 'Payment page';
const CARDS = {
	ok: '4111111111111111',
	pin: '5399000000000008',
	otp: '5399000000000016',
	threeDs: '4000000000003220',
	declined: '4000000000000002',
};

interface Flow {
	id: string;
	url: string;
	nodeName: string;
	nodeId: string;
}

let sb: SandboxHandle;
let n8n: N8nClient;
let browser: Browser;
let filesDir: string;
let bankToken: string;
const flows: Record<'ngn' | 'expiring' | 'kes' | 'zar', Flow> = {} as never;
const workflowIds: string[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pageWorkflow(name: string, path: string, parameters: Record<string, unknown>): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: 'page',
				name: 'Page',
				type: PAGE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId: `payonus-page-${path}`,
				parameters: { path, title: 'Test checkout', businessId: { __rl: true, mode: 'id', value: 'BUS-2001' }, ...parameters },
			},
			{ id: 'done', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: { Page: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

async function ledgerPayins(): Promise<Array<Record<string, unknown>>> {
	const body = (await (await fetch(`${sb.url}/_sandbox/ledger`)).json()) as { data: { payins: Array<Record<string, unknown>> } };
	return body.data.payins;
}

/** The checkout reference behind a page URL (the test holds the same secret as the credential). */
function checkoutRef(flow: Flow, pageUrl: string): string {
	const token = new URL(pageUrl).searchParams.get('c');
	const state = open(token, deriveKey(sandboxClient(1).clientSecret, `${flow.id}|${flow.nodeId}`));
	if (!state) throw new Error(`no checkout token in ${pageUrl}`);
	return `PP-${state.id}`;
}

async function executionsOf(flow: Flow, ref: string): Promise<Execution[]> {
	const all = await n8n.listExecutions(flow.id, true);
	return all.filter((e) => {
		try {
			return nodeItems(e, flow.nodeName, 0)[0]?.merchantCheckoutReference === ref;
		} catch {
			return false;
		}
	});
}

async function paidExecution(flow: Flow, ref: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const found = (await executionsOf(flow, ref)).filter((e) => e.finished || e.status === 'success');
		if (found.length > 0) return nodeItems(found[0], flow.nodeName, 0)[0] as Record<string, unknown>;
		await sleep(300);
	}
	throw new Error(`no execution for checkout ${ref}`);
}

async function notPaidItems(flow: Flow, ref: string): Promise<Array<Record<string, unknown>>> {
	const all = await n8n.listExecutions(flow.id, true);
	return all.flatMap((e) => {
		try {
			return nodeItems(e, flow.nodeName, 1).filter((i) => i.merchantCheckoutReference === ref) as Array<Record<string, unknown>>;
		} catch {
			return [];
		}
	});
}

async function submit(page: Page, selector: string): Promise<void> {
	await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

async function startCheckout(
	page: Page,
	flow: Flow,
	fields: { email: string; name?: string; phone?: string; method?: string },
): Promise<string> {
	await page.goto(flow.url);
	await page.fill('#email', fields.email);
	if (fields.name) await page.fill('#name', fields.name);
	if (fields.phone) await page.fill('#phone', fields.phone);
	if (fields.method && (await page.$(`input[name="method"][value="${fields.method}"][type="radio"]`))) {
		await page.check(`input[name="method"][value="${fields.method}"]`);
	}
	await submit(page, 'form button[type="submit"]');
	return checkoutRef(flow, page.url());
}

async function enterCard(page: Page, pan: string): Promise<void> {
	await page.waitForSelector('#card-form:not([hidden])');
	await page.fill('#cc-number', pan.replace(/(\d{4})(?=\d)/g, '$1 '));
	await page.fill('#cc-exp', '12/30');
	await page.fill('#cc-csc', '123');
	await submit(page, '#card-form button[type="submit"]');
}

async function expectPaid(page: Page): Promise<void> {
	await page.waitForSelector('h2#paid-h', { timeout: 30_000 });
	expect(await page.textContent('h2#paid-h')).toBe('Payment received');
}

async function fundAccount(onusReference: string, accountNumber: string, amount: number): Promise<void> {
	const res = await fetch(`${sb.url}/api/v1/fund-ngn-account`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${bankToken}` },
		body: JSON.stringify({ onusReference, accountNumber, amount, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true }),
	});
	expect(res.status).toBe(200);
}

beforeAll(async () => {
	browser = await launchChromium();
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	bankToken = await sandboxAccessToken(sb.url, 3);
	filesDir = join(homedir(), '.n8n-files', `payonus-page-e2e-${RUN}`);
	mkdirSync(filesDir, { recursive: true });
	const credName = `PayOnUs page e2e ${RUN}`;
	const credential = await n8n.createCredential({ name: credName, type: 'payOnUsApi', data: credentialData(sb.url, `page-key-${RUN}`) });
	const cred = { payOnUsApi: { id: credential.id, name: credName } };

	// NGN (bank transfer + card): the "Sell with a link" example itself; the
	// card key is the sandbox's, picked up by the node (Custom base URL).
	const example = prepareExample(loadExample('sellWithLink'), {
		credential: { id: credential.id, name: credName },
		name: `PayOnUs example: Sell with a link (e2e ${RUN})`,
		webhookIdSuffix: `e2e-${RUN}`,
		settings: { salesFile: join(filesDir, 'sales.log') },
	});
	const pageNode = example.nodes.find((n) => n.type === PAGE_TYPE)!;
	const others: Array<[keyof typeof flows, WorkflowJson]> = [
		['expiring', pageWorkflow(`page e2e expiring ${RUN}`, `pay-exp-${RUN}`, { currency: 'NGN', amount: 1500, methods: ['bank'], options: { expiryMinutes: 0.1 } })],
		['kes', pageWorkflow(`page e2e KES ${RUN}`, `pay-kes-${RUN}`, { currency: 'KES', amount: 250, methods: ['momo'], askPhone: 'optional' })],
		['zar', pageWorkflow(`page e2e ZAR ${RUN}`, `pay-zar-${RUN}`, { currency: 'ZAR', amount: 199.99, methods: ['eft', 'bank'], options: { notPaidOutput: true } })],
	];
	const ngnId = (await n8n.createWorkflow(example as never)).id;
	flows.ngn = { id: ngnId, url: n8n.webhookUrl(String(pageNode.parameters?.path)), nodeName: EXAMPLE_PAGE, nodeId: String(pageNode.id) };
	workflowIds.push(ngnId);
	for (const [key, wf] of others) {
		for (const node of wf.nodes as Array<Record<string, unknown>>) if (node.type === PAGE_TYPE) node.credentials = cred;
		const id = (await n8n.createWorkflow(wf)).id;
		const path = String(((wf.nodes[0] as Record<string, unknown>).parameters as Record<string, unknown>).path);
		flows[key] = { id, url: n8n.webhookUrl(path), nodeName: 'Page', nodeId: 'page' };
		workflowIds.push(id);
	}
	for (const id of workflowIds) await n8n.activate(id);
	// n8n >= 2.3x registers webhooks in the background
	for (const flow of Object.values(flows)) {
		const deadline = Date.now() + 20_000;
		while ((await fetch(flow.url)).status === 404 && Date.now() < deadline) await sleep(200);
	}
});

afterAll(async () => {
	await browser?.close();
	for (const id of workflowIds) await n8n.deactivate(id).catch(() => undefined);
	await sb?.stop();
	if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

describe('the page', () => {
	it('is a self-contained, labelled page with its own CSP', async () => {
		const res = await fetch(flows.ngn.url);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
		expect(res.headers.get('cache-control')).toMatch(/no-store/);
		const html = await res.text();
		expect(html).toContain('<h1>Concert ticket</h1>');
		expect(html).toContain('NGN 5,000.00');
		expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/);
		const page = await browser.newPage();
		await page.goto(flows.ngn.url);
		for (const id of ['email', 'name', 'phone']) expect(await page.$(`label[for="${id}"]`)).not.toBeNull();
		// keyboard only: tab to the e-mail field and type
		await page.keyboard.press('Tab');
		expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
		await page.close();
	});
});

describe('the example', () => {
	it('uses only parameters the Payment Page node declares', async () => {
		const types = (await n8n.loadedNodeTypes()) as Array<{ name: string; properties?: Array<{ name: string }> }>;
		const declared = new Set((types.find((t) => t.name === PAGE_TYPE)?.properties ?? []).map((p) => p.name));
		expect(declared.size).toBeGreaterThan(10);
		const node = loadExample('sellWithLink').nodes.find((n) => n.type === PAGE_TYPE)!;
		expect(Object.keys(node.parameters ?? {}).filter((k) => !declared.has(k))).toEqual([]);
	});
});

describe('bank transfer', () => {
	it('shows a dynamic account, checks "I have paid" with the service, updates itself when paid, starts the workflow once; a reload after paying starts nothing', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.ngn, { email: 'ada@example.com', name: 'Ada Obi', phone: '+2348012345678', method: 'bank' });
		const account = (await page.textContent('#account-number'))!.trim();
		expect(account).toMatch(/^\d{10}$/);
		const text = (await page.textContent('main'))!;
		expect(text).toContain('PayOnUs Sandbox MFB');
		expect(text).toContain('NGN 5,000.00');
		expect(text).toMatch(/Pay before\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);

		await submit(page, 'button:has-text("I have paid")');
		expect(await page.textContent('[role="status"]')).toMatch(/not received the payment yet/);
		const payin = (await ledgerPayins()).find((p) => p.reference === `${ref}-1`)!;
		expect(payin).toMatchObject({ amount: 5000, paymentStatus: 'PENDING', accountNumber: account });
		expect(await executionsOf(flows.ngn, ref)).toHaveLength(0);

		await fundAccount(String(payin.onusReference), account, 5000);
		await expectPaid(page); // the page's own poll
		const item = await paidExecution(flows.ngn, ref);
		expect(item).toMatchObject({
			merchantCheckoutReference: ref,
			merchantReference: `${ref}-1`,
			onusReference: payin.onusReference,
			paymentStatus: 'SUCCESSFUL',
			paymentChannel: 'BANK_TRANSFER',
			amount: 5000,
			currency: 'NGN',
			businessId: 'BUS-2001',
			paymentMethod: 'bank',
			customerEmail: 'ada@example.com',
			customerName: 'Ada Obi',
			customerPhone: '+2348012345678',
		});
		// the example's notification, written with n8n's own nodes
		expect(readFileSync(join(filesDir, 'sales.log'), 'utf8')).toContain(`checkout ${ref}`);

		await page.reload();
		await expectPaid(page);
		await sleep(3000);
		expect(await executionsOf(flows.ngn, ref)).toHaveLength(1);
		await page.close();
	});

	it('a double submit, a second tab and repeated status checks create one payin and one execution', async () => {
		const html = await (await fetch(flows.ngn.url)).text();
		const token = /name="c" value="([^"]+)"/.exec(html)![1];
		const form = new URLSearchParams({ c: token, step: 'start', email: 'twice@example.com', name: 'Twice', method: 'bank' });
		const posts = await Promise.all(
			[0, 1, 2].map(() =>
				fetch(`${flows.ngn.url}?c=${token}`, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
			),
		);
		for (const res of posts) expect(res.status).toBe(303);
		const locations = posts.map((r) => new URL(r.headers.get('location')!, flows.ngn.url).toString());
		const ref = checkoutRef(flows.ngn, locations[0]);
		const payins = (await ledgerPayins()).filter((p) => String(p.reference).startsWith(`${ref}-`));
		expect(payins).toHaveLength(1);
		await fundAccount(String(payins[0].onusReference), String(payins[0].accountNumber), 5000);
		// every tab polls and reloads at once
		const answers = await Promise.all(
			[...locations, ...locations].map(async (url, i) => (i % 2 ? await (await fetch(url)).text() : await (await fetch(`${url}&poll=1`)).text())),
		);
		expect(answers.some((a) => a.includes('"state":"paid"'))).toBe(true);
		await paidExecution(flows.ngn, ref);
		await sleep(2000);
		expect(await executionsOf(flows.ngn, ref)).toHaveLength(1);
	});

	it('an abandoned checkout starts nothing', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.ngn, { email: 'gone@example.com', name: 'Gone', method: 'bank' });
		expect(await page.textContent('#account-number')).toMatch(/\d{10}/);
		await page.close();
		await sleep(4000);
		expect(await executionsOf(flows.ngn, ref)).toHaveLength(0);
	});

	it('an expired checkout says so and starts nothing', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.expiring, { email: 'late@example.com', method: 'bank' });
		expect(await page.textContent('#account-number')).toMatch(/\d{10}/);
		await sleep(7000);
		await page.reload();
		expect(await page.textContent('h2')).toBe('This checkout has expired');
		const poll = (await (await fetch(`${page.url()}&poll=1`)).json()) as { state: string };
		expect(poll.state).toBe('expired');
		// the form cannot start anything new either
		const token = new URL(page.url()).searchParams.get('c')!;
		const res = await fetch(`${flows.expiring.url}?c=${token}`, {
			method: 'POST',
			body: new URLSearchParams({ c: token, step: 'method', method: 'bank' }),
			redirect: 'manual',
		});
		expect([200, 303]).toContain(res.status);
		expect((await ledgerPayins()).filter((p) => String(p.reference).startsWith(`${ref}-`))).toHaveLength(1);
		await sleep(1000);
		expect(await executionsOf(flows.expiring, ref)).toHaveLength(0);
		await page.close();
	});
});

describe('card', () => {
	it('a card with no further step is charged and confirmed', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.ngn, { email: 'card@example.com', name: 'Card Holder', method: 'card' });
		await enterCard(page, CARDS.ok);
		await expectPaid(page);
		expect(await paidExecution(flows.ngn, ref)).toMatchObject({ paymentChannel: 'CARD', paymentMethod: 'card', amount: 5000, paymentStatus: 'SUCCESSFUL' });
		await page.close();
	});

	it('a declined card says so and the customer pays with another card: one execution', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.ngn, { email: 'declined@example.com', name: 'Dee Clined', method: 'card' });
		await enterCard(page, CARDS.declined);
		expect(await page.textContent('[role="alert"]')).toMatch(/declin/i);
		expect(await executionsOf(flows.ngn, ref)).toHaveLength(0);
		await enterCard(page, CARDS.ok);
		await expectPaid(page);
		expect(await paidExecution(flows.ngn, ref)).toMatchObject({ checkoutAttempt: 2, merchantReference: `${ref}-2` });
		await sleep(1500);
		expect(await executionsOf(flows.ngn, ref)).toHaveLength(1);
		await page.close();
	});

	it('PIN step', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.ngn, { email: 'pin@example.com', name: 'Pin Holder', method: 'card' });
		await enterCard(page, CARDS.pin);
		expect(await page.textContent('h2')).toBe('Enter your card PIN');
		expect(await page.getAttribute('#authData', 'type')).toBe('password');
		await page.fill('#authData', '1234');
		await submit(page, 'form button[type="submit"]');
		await expectPaid(page);
		expect(await paidExecution(flows.ngn, ref)).toMatchObject({ paymentChannel: 'CARD', paymentStatus: 'SUCCESSFUL' });
		await page.close();
	});

	it('OTP step', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.ngn, { email: 'otp@example.com', name: 'Otp Holder', method: 'card' });
		await enterCard(page, CARDS.otp);
		expect(await page.textContent('h2')).toBe('Enter the code');
		await page.fill('#authData', '123456');
		await submit(page, 'form button[type="submit"]');
		await expectPaid(page);
		expect(await paidExecution(flows.ngn, ref)).toMatchObject({ paymentStatus: 'SUCCESSFUL', checkoutAttempt: 1 });
		await page.close();
	});

	it('3-D Secure: to the bank page and back, confirmed with the service', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.ngn, { email: '3ds@example.com', name: 'Three Dee', method: 'card' });
		await enterCard(page, CARDS.threeDs);
		expect(page.url()).toContain(`${sb.url}/hosted/3ds/`);
		await submit(page, 'button[value="approve"]');
		expect(page.url().startsWith(flows.ngn.url)).toBe(true);
		await expectPaid(page);
		expect(await paidExecution(flows.ngn, ref)).toMatchObject({ paymentChannel: 'CARD', paymentStatus: 'SUCCESSFUL' });
		await page.close();
	});
});

describe('mobile money and EFT', () => {
	it('mobile money (STK push): approved on the phone, the page updates itself', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.kes, { email: 'momo@example.com', method: 'momo' });
		await page.selectOption('#network', 'MPESA_KE');
		await page.fill('#momo-phone', '+254700000000');
		await submit(page, 'form button[type="submit"]');
		await expectPaid(page);
		expect(await paidExecution(flows.kes, ref)).toMatchObject({ paymentChannel: 'MOBILE_MONEY', currency: 'KES', amount: 250, paymentMethod: 'momo' });
		await page.close();
	});

	it('mobile money with OTP', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.kes, { email: 'momo-otp@example.com', method: 'momo' });
		await page.selectOption('#network', 'AIRTEL_KE');
		await page.fill('#momo-phone', '+254733000111');
		await submit(page, 'form button[type="submit"]');
		expect(await page.textContent('h2')).toBe('Enter the code');
		await page.fill('#authData', '000000');
		await submit(page, 'form button[type="submit"]');
		expect(await page.textContent('[role="alert"]')).toMatch(/not accepted/);
		await page.fill('#authData', '123456');
		await submit(page, 'form button[type="submit"]');
		await expectPaid(page);
		expect(await paidExecution(flows.kes, ref)).toMatchObject({ paymentChannel: 'MOBILE_MONEY', paymentStatus: 'SUCCESSFUL' });
		await page.close();
	});

	it('EFT: to the bank and back; bank transfer is not offered in ZAR', async () => {
		const page = await browser.newPage();
		await page.goto(flows.zar.url);
		expect(await page.$('input[name="method"][value="bank"]')).toBeNull();
		const ref = await startCheckout(page, flows.zar, { email: 'eft@example.com', method: 'eft' });
		await page.selectOption('#bank', '250655');
		await submit(page, 'form button[type="submit"]');
		expect(page.url()).toContain(`${sb.url}/hosted/eft/`);
		await submit(page, 'button[value="approve"]');
		await expectPaid(page);
		expect(await paidExecution(flows.zar, ref)).toMatchObject({ paymentChannel: 'EFT', currency: 'ZAR', amount: 199.99, paymentMethod: 'eft' });
		await page.close();
	});
});

describe('Not Paid output (option)', () => {
	it('an EFT declined at the bank goes to Not Paid once; paying then goes to Paid once', async () => {
		const page = await browser.newPage();
		const ref = await startCheckout(page, flows.zar, { email: 'eft-no@example.com', method: 'eft' });
		await page.selectOption('#bank', '632005');
		await submit(page, 'form button[type="submit"]');
		await submit(page, 'button[value="decline"]');
		expect(await page.textContent('[role="alert"]')).toMatch(/try again/i);
		await page.reload();
		const deadline = Date.now() + 30_000;
		let failed: Array<Record<string, unknown>> = [];
		while (failed.length === 0 && Date.now() < deadline) {
			failed = await notPaidItems(flows.zar, ref);
			await sleep(300);
		}
		expect(failed).toHaveLength(1);
		expect(failed[0]).toMatchObject({ outcome: 'failed', paymentStatus: 'FAILED', paymentChannel: 'EFT', checkoutAttempt: 1, customerEmail: 'eft-no@example.com' });
		expect(await executionsOf(flows.zar, ref)).toHaveLength(0);
		await page.selectOption('#bank', '250655');
		await submit(page, 'form button[type="submit"]');
		await submit(page, 'button[value="approve"]');
		await expectPaid(page);
		expect(await paidExecution(flows.zar, ref)).toMatchObject({ checkoutAttempt: 2, paymentStatus: 'SUCCESSFUL' });
		await sleep(1500);
		expect(await notPaidItems(flows.zar, ref)).toHaveLength(1);
		await page.close();
	});
});

describe('card numbers', () => {
	it('never reach n8n: not in executions, the log or the database', async () => {
		const conn = JSON.parse(readFileSync(process.env[CONNECTION_ENV]!, 'utf8')) as N8nConnection;
		const pans = Object.values(CARDS);
		const executions = [
			...(await n8n.listExecutions(flows.ngn.id, true)),
		];
		expect(executions.length).toBeGreaterThan(0);
		const dump = JSON.stringify(executions);
		for (const pan of pans) expect(dump).not.toContain(pan);
		const haystacks: Array<[string, Buffer]> = [];
		if (conn.logFile && existsSync(conn.logFile)) haystacks.push([conn.logFile, readFileSync(conn.logFile)]);
		const db = join(String(conn.userFolder), '.n8n', 'database.sqlite');
		for (const file of [db, `${db}-wal`]) if (existsSync(file)) haystacks.push([file, readFileSync(file)]);
		expect(haystacks.some(([f]) => f === db)).toBe(true);
		for (const [file, bytes] of haystacks) {
			for (const pan of pans) {
				expect({ file, pan, found: bytes.includes(Buffer.from(pan)) }).toEqual({ file, pan, found: false });
				// also as UTF-16 (how some stores write text)
				expect(bytes.includes(Buffer.from(pan, 'utf16le'))).toBe(false);
			}
		}
	});
});
