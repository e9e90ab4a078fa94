/**
 * The Payment Page in a real n8n with a real browser (Chromium), as a buyer
 * moves through it: the browser's Back after a form error and from the bank
 * account page, an address saved at an earlier step once the payment was
 * made, TEST MODE's "Simulate the customer paying" for mobile money
 * (issue 38 point 4); a tab opened before the merchant changed the price
 * (issue 36 point 2); a decimal comma typed in a chosen amount (issue 36,
 * Measure: rule 7 on the page).
 */
import type { Browser, Page, Response } from 'playwright-core';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { launchChromium } from '../../dev/chromium';
import { nodeItems, sharedN8n, type N8nClient } from '../harness/e2e';
import { sandboxAccessToken } from '../../dev/sandboxCredential';
import type { WorkflowJson } from '../../dev/n8n';
import { sleep } from '../../dev/wait';
import { credentialData } from '../../scripts/lib/provision';
import { checkoutRef, pageWorkflow, RUN, type Flow } from './payment-page.fixtures';

jest.setTimeout(300_000);

let browser: Browser;
let n8n: N8nClient;
let sb: SandboxHandle;
let bankToken: string;
let credential: { id: string; name: string };
const flows: Record<string, Flow & { workflow: WorkflowJson }> = {};

const PAGES: Record<string, Record<string, unknown>> = {
	bank: { currency: 'NGN', amount: 5000, methods: ['bank'], askName: 'optional' },
	price: { currency: 'NGN', amount: 5000, methods: ['bank'], askName: 'optional', options: { notPaidOutput: false } },
	kes: { currency: 'KES', amount: 250, methods: ['momo'], askPhone: 'optional' },
	chosen: { currency: 'NGN', amountMode: 'customer', minAmount: 100, maxAmount: 100_000, methods: ['bank'] },
};

beforeAll(async () => {
	browser = await launchChromium();
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	bankToken = await sandboxAccessToken(sb.url, 3);
	const name = `PayOnUs page back ${RUN}`;
	credential = { id: (await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, `page-back-key-${RUN}`) })).id, name };
	for (const [key, params] of Object.entries(PAGES)) {
		const path = `pay-back-${key}-${RUN}`;
		const workflow = pageWorkflow(`page back ${key} ${RUN}`, path, params);
		const node = workflow.nodes[0] as Record<string, unknown>;
		node.parameters = { ...(node.parameters as object), simplify: false };
		node.credentials = { payOnUsApi: credential };
		const id = (await n8n.createWorkflow(workflow)).id;
		await n8n.activate(id);
		flows[key] = { id, url: n8n.webhookUrl(path), nodeName: 'Page', nodeId: 'page', workflow };
	}
	for (const flow of Object.values(flows)) {
		const deadline = Date.now() + 20_000;
		while ((await fetch(flow.url)).status === 404 && Date.now() < deadline) await sleep(200);
	}
});

afterAll(async () => {
	await browser?.close();
	for (const flow of Object.values(flows)) await n8n.deactivate(flow.id).catch(() => undefined);
	await sb?.stop();
});

async function newPage(): Promise<Page> {
	return await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' })).newPage();
}

/** A click that sends a form: the answer the browser lands on (after the page's own redirects). */
async function submit(page: Page, selector: string): Promise<void> {
	await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

/** The browser's Back: the request it made (GET, never a form re-sent) and the page it shows. */
async function back(page: Page): Promise<{ method: string | undefined; status: number | undefined }> {
	const response: Response | null = await page.goBack({ waitUntil: 'load' });
	return { method: response?.request().method(), status: response?.status() };
}

async function payins(ref: string): Promise<Array<Record<string, unknown>>> {
	return (await new SandboxClient(sb.url).ledger()).payins.filter((p) => String(p.reference).startsWith(`${ref}-`));
}

async function fund(payin: Record<string, unknown>): Promise<void> {
	const res = await fetch(`${sb.url}/api/v1/fund-ngn-account`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${bankToken}` },
		body: JSON.stringify({ onusReference: payin.onusReference, accountNumber: payin.accountNumber, amount: payin.amount, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true }),
	});
	expect(res.status).toBe(200);
}

async function paidItem(flow: Flow, ref: string): Promise<Record<string, unknown>> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		for (const e of await n8n.listExecutions(flow.id, true)) {
			try {
				const [item] = nodeItems(e, flow.nodeName, 0);
				if (item?.merchantCheckoutReference === ref) return item as Record<string, unknown>;
			} catch {
				// not this one
			}
		}
		await sleep(300);
	}
	throw new Error(`no execution for ${ref}`);
}

describe('the browser Back button (issue 38 point 4)', () => {
	it('after a form error: the error page is a GET; Back from the account never re-sends a form and shows the account', async () => {
		const page = await newPage();
		await page.goto(flows.bank.url);
		await page.fill('#email', 'not-an-address');
		await submit(page, 'form button[type="submit"]');
		expect(await page.textContent('#email-error')).toContain('Email');
		expect(page.url()).toContain('?c=');
		await page.fill('#email', 'back@example.com');
		await submit(page, 'form button[type="submit"]');
		const account = (await page.textContent('#account-number'))!.trim();
		const ref = checkoutRef(flows.bank, page.url());

		const first = await back(page);
		expect(first.method).toBe('GET');
		expect((await page.textContent('#account-number'))!.trim()).toBe(account);
		const second = await back(page);
		expect(second.method).toBe('GET');
		expect((await page.textContent('#account-number'))!.trim()).toBe(account);
		expect(await payins(ref)).toHaveLength(1);
		await page.context().close();
	});

	it('from the bank account page: this checkout (its account), not a blank form of a new one', async () => {
		const page = await newPage();
		await page.goto(flows.bank.url);
		await page.fill('#email', 'back2@example.com');
		await submit(page, 'form button[type="submit"]');
		const account = (await page.textContent('#account-number'))!.trim();
		const ref = checkoutRef(flows.bank, page.url());
		const answer = await back(page);
		expect(answer.method).toBe('GET');
		expect(checkoutRef(flows.bank, page.url())).toBe(ref);
		expect((await page.textContent('#account-number'))!.trim()).toBe(account);
		expect(await payins(ref)).toHaveLength(1);
		await page.context().close();
	});

	it('an address saved at an earlier step shows the receipt once the payment was made', async () => {
		const page = await newPage();
		await page.goto(flows.bank.url);
		const saved = page.url();
		expect(saved).toContain('?c=');
		await page.fill('#email', 'saved@example.com');
		await submit(page, 'form button[type="submit"]');
		const ref = checkoutRef(flows.bank, page.url());
		const [payin] = await payins(ref);
		await fund(payin);
		await page.waitForSelector('h2#paid-h', { timeout: 30_000 }); // the page's own poll
		await page.context().close();

		const later = await newPage();
		await later.goto(saved);
		expect(await later.textContent('h2')).toBe('Payment received');
		expect(await later.textContent('#payment-reference')).toBe(payin.onusReference);
		expect(await payins(ref)).toHaveLength(1);
		await later.context().close();
	});
});

describe('TEST MODE, mobile money (issue 38 point 4)', () => {
	it("the wait shows the payment's reference; Simulate the customer paying ends on the receipt and one execution", async () => {
		const page = await newPage();
		await page.goto(flows.kes.url);
		await page.fill('#email', 'momo-sim@example.com');
		await submit(page, 'form button[type="submit"]');
		await page.selectOption('#network', 'MPESA_KE');
		await page.fill('#momo-phone', '0722 000 444');
		await submit(page, 'form button[type="submit"]');
		const ref = checkoutRef(flows.kes, page.url());
		const [prompt] = await payins(ref);
		expect(await page.textContent('#onus-reference')).toBe(prompt.onusReference);
		expect(await page.isVisible('#simulate')).toBe(true);
		await submit(page, '#simulate');
		await page.waitForSelector('h2#paid-h', { timeout: 30_000 });
		const item = await paidItem(flows.kes, ref);
		expect(item).toMatchObject({ paymentStatus: 'SUCCESSFUL', paymentChannel: 'MOBILE_MONEY', amount: 250, currency: 'KES', checkoutAttempt: 2 });
		await page.context().close();
	});
});

describe('a tab opened before the merchant changed the price (issue 36 point 2)', () => {
	it('creates nothing at the old price and starts again with a notice; a payment made at the old price is still recognised', async () => {
		const flow = flows.price;
		// Three buyers before the change: one on the form, one on an account, one who paid it.
		const onForm = await newPage();
		await onForm.goto(flow.url);
		await onForm.fill('#email', 'form@example.com');
		const onAccount = await newPage();
		await onAccount.goto(flow.url);
		await onAccount.fill('#email', 'account@example.com');
		await submit(onAccount, 'form button[type="submit"]');
		const accountRef = checkoutRef(flow, onAccount.url());
		// The third pays and closes the tab before any request of the page sees it.
		const payer = await newPage();
		await payer.goto(flow.url);
		await payer.fill('#email', 'paid@example.com');
		await submit(payer, 'form button[type="submit"]');
		const paidRef = checkoutRef(flow, payer.url());
		const paidUrl = payer.url();
		await payer.context().close();
		await fund((await payins(paidRef))[0]);

		// The merchant changes the price: 5,000 to 6,000.
		const changed = JSON.parse(JSON.stringify(flow.workflow)) as WorkflowJson;
		((changed.nodes[0] as Record<string, unknown>).parameters as Record<string, unknown>).amount = 6000;
		await n8n.updateWorkflow(flow.id, { name: changed.name, nodes: changed.nodes, connections: changed.connections, settings: changed.settings });
		await n8n.activate(flow.id);
		const deadline = Date.now() + 20_000;
		while (!(await (await fetch(flow.url)).text()).includes('6,000.00') && Date.now() < deadline) await sleep(300);

		// The form sent after the change: a notice, nothing created; sent again: the new price.
		await submit(onForm, 'form button[type="submit"]');
		const formRef = checkoutRef(flow, onForm.url());
		expect(await onForm.textContent('#page-notice')).toContain('it is now NGN 6,000.00 (it was NGN 5,000.00)');
		expect(await payins(formRef)).toHaveLength(0);
		expect(await onForm.inputValue('#email')).toBe('form@example.com');
		await submit(onForm, 'form button[type="submit"]');
		expect(await onForm.textContent('h2')).toBe('Transfer exactly NGN 6,000.00');
		expect((await payins(formRef)).map((p) => p.amount)).toEqual([6000]);

		// The open account at 5,000: the page's own status check sees the change and starts again; nothing at 5,000.
		// (It checks every 3 s, every 10 s after a failed check: while n8n re-registers the page's webhook, a check can fail.)
		await onAccount.waitForSelector('#page-notice', { timeout: 60_000 });
		expect(await onAccount.textContent('#page-notice')).toContain('If you already sent NGN 5,000.00, do not pay again');
		expect(await onAccount.isVisible('#account-number')).toBe(false);
		expect((await payins(accountRef)).map((p) => p.amount)).toEqual([5000]);

		// Paid at 5,000 before the change: the receipt, and a Paid item that says the price changed.
		const paidTab = await newPage();
		await paidTab.goto(paidUrl);
		await paidTab.waitForSelector('h2#paid-h', { timeout: 30_000 });
		expect(await paidTab.textContent('main')).toContain('NGN 5,000.00');
		expect(await paidItem(flow, paidRef)).toMatchObject({ amount: 5000, paymentStatus: 'SUCCESSFUL', pagePriceChanged: true });
		for (const p of [onForm, onAccount, paidTab]) await p.context().close();
	});
});

describe('a decimal comma in a chosen amount (issue 36, rule 7 on the page)', () => {
	it('"150,50" is refused with a message that names the form to use, and no payin is created', async () => {
		const page = await newPage();
		await page.goto(flows.chosen.url);
		await page.fill('#amount', '150,50');
		await page.fill('#email', 'comma@example.com');
		await submit(page, 'form button[type="submit"]');
		const ref = checkoutRef(flows.chosen, page.url());
		// The reader's message (checkout/input.ts and the shared amount reader, rule 7) names the form to use.
		expect(await page.textContent('#amount-error')).toContain('write 150.50 (not "150,50")');
		expect(await page.getAttribute('#amount', 'aria-invalid')).toBe('true');
		expect(await payins(ref)).toHaveLength(0);
		await page.context().close();
	});
});
