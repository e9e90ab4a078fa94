import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { launchChromium } from '../../dev/chromium';
import { nodeItems, sharedN8n, type Execution, type N8nClient } from '../harness/e2e';
import { sandboxAccessToken, sandboxClient } from '../../dev/sandboxCredential';
import type { WorkflowJson } from '../../dev/n8n';
import { sleep } from '../../dev/wait';
import { loadExample, prepareExample } from '../../scripts/lib/examples';
import { credentialData } from '../../scripts/lib/provision';
import { deriveKey, open } from '../../nodes/PayOnUsPaymentPage/checkout/sealedState';

/** The Payment Page e2e suite's set-up and its customer's moves (Chromium), used by payment-page.test.ts. */

export const RUN = randomBytes(4).toString('hex');
export const PAGE_TYPE = 'n8n-nodes-payonus.payOnUsPaymentPage';
export const EXAMPLE_PAGE = 'Payment page';
export const CARDS = {
	ok: '4111111111111111',
	pin: '5399000000000008',
	otp: '5399000000000016',
	threeDs: '4000000000003220',
	declined: '4000000000000002',
};

export interface Flow {
	id: string;
	url: string;
	nodeName: string;
	nodeId: string;
}

/** What the suite set up (filled in beforeAll). */
export interface PageSuite {
	sb: SandboxHandle;
	n8n: N8nClient;
	browser: Browser;
	/** Where the example workflow writes its sales log. */
	filesDir: string;
	bankToken: string;
	flows: Record<'ngn' | 'expiring' | 'kes' | 'zar', Flow>;
}

export const pp: PageSuite = { flows: {} } as PageSuite;

/**
 * Every test buyer comes from 127.0.0.1, many within a minute: the suites
 * that are not about the page's bounds (rule 4, payment-page.bounds.test.ts)
 * raise them, as a builder can in Options.
 */
export const RAISED_LIMITS = { attemptsPerVisitor: 10_000, attemptsPerTarget: 10_000, attemptsPerPage: 10_000, callsPerVisitor: 100_000, callsPerPage: 100_000 };
export const workflowIds: string[] = [];


/** The Payment Page with `parameters` (Simplify off, the full items, unless they set it) and its limits raised. */
export function pageWorkflow(name: string, path: string, parameters: Record<string, unknown>): WorkflowJson {
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
				parameters: {
					path,
					title: 'Test checkout',
					businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
					simplify: false,
					...parameters,
					options: { ...RAISED_LIMITS, ...(parameters.options as object | undefined) },
				},
			},
			{ id: 'done', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: { Page: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

export async function ledgerPayins(): Promise<Array<Record<string, unknown>>> {
	return (await new SandboxClient(pp.sb.url).ledger()).payins;
}

/** The checkout reference behind a page URL (the test holds the same secret as the credential). */
export function checkoutRef(flow: Flow, pageUrl: string): string {
	const token = new URL(pageUrl).searchParams.get('c');
	const state = open(token, deriveKey(sandboxClient(1).clientSecret, `${flow.id}|${flow.nodeId}`));
	if (!state) throw new Error(`no checkout token in ${pageUrl}`);
	return `PP-${state.id}`;
}

export async function executionsOf(flow: Flow, ref: string): Promise<Execution[]> {
	const all = await pp.n8n.listExecutions(flow.id, true);
	return all.filter((e) => {
		try {
			return nodeItems(e, flow.nodeName, 0)[0]?.merchantCheckoutReference === ref;
		} catch {
			return false;
		}
	});
}

export async function paidExecution(flow: Flow, ref: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const found = (await executionsOf(flow, ref)).filter((e) => e.finished || e.status === 'success');
		if (found.length > 0) return nodeItems(found[0], flow.nodeName, 0)[0] as Record<string, unknown>;
		await sleep(300);
	}
	throw new Error(`no execution for checkout ${ref}`);
}

export async function notPaidItems(flow: Flow, ref: string): Promise<Array<Record<string, unknown>>> {
	const all = await pp.n8n.listExecutions(flow.id, true);
	return all.flatMap((e) => {
		try {
			return nodeItems(e, flow.nodeName, 1).filter((i) => i.merchantCheckoutReference === ref) as Array<Record<string, unknown>>;
		} catch {
			return [];
		}
	});
}

export async function submit(page: Page, selector: string): Promise<void> {
	await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

export async function startCheckout(
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

export async function enterCard(page: Page, pan: string): Promise<void> {
	await page.waitForSelector('#card-form:not([hidden])');
	await page.fill('#cc-number', pan.replace(/(\d{4})(?=\d)/g, '$1 '));
	await page.fill('#cc-exp', '12/30');
	await page.fill('#cc-csc', '123');
	await submit(page, '#card-form button[type="submit"]');
}

export async function expectPaid(page: Page): Promise<void> {
	await page.waitForSelector('h2#paid-h', { timeout: 30_000 });
	expect(await page.textContent('h2#paid-h')).toBe('Payment received');
}

export async function fundAccount(onusReference: string, accountNumber: string, amount: number): Promise<void> {
	const res = await fetch(`${pp.sb.url}/api/v1/fund-ngn-account`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${pp.bankToken}` },
		body: JSON.stringify({ onusReference, accountNumber, amount, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true }),
	});
	expect(res.status).toBe(200);
}

/** Registers the suite's set-up and tear-down: sandbox, credential, four page workflows, Chromium. */
export function paymentPageSuite(): PageSuite {
	beforeAll(async () => {
		pp.browser = await launchChromium();
		pp.n8n = sharedN8n();
		pp.sb = await startSandbox({ port: 0 });
		pp.bankToken = await sandboxAccessToken(pp.sb.url, 3);
		pp.filesDir = join(homedir(), '.n8n-files', `payonus-page-e2e-${RUN}`);
		mkdirSync(pp.filesDir, { recursive: true });
		const credName = `PayOnUs page e2e ${RUN}`;
		const credential = await pp.n8n.createCredential({ name: credName, type: 'payOnUsApi', data: credentialData(pp.sb.url, `page-key-${RUN}`) });
		const cred = { payOnUsApi: { id: credential.id, name: credName } };

		// NGN (bank transfer + card): the "Sell with a link" example itself,
		// with the sandbox's card key pasted into the page, as a builder does.
		const example = prepareExample(loadExample('sellWithLink'), {
			credential: { id: credential.id, name: credName },
			cardPublicKey: await new SandboxClient(pp.sb.url).publicKey(),
			name: `PayOnUs example: Sell with a link (e2e ${RUN})`,
			webhookIdSuffix: `e2e-${RUN}`,
			settings: { salesFile: join(pp.filesDir, 'sales.log') },
		});
		const pageNode = example.nodes.find((n) => n.type === PAGE_TYPE)!;
		// the example is on the page's newest version (Simplify on); these tests read the whole item
		pageNode.parameters = { ...pageNode.parameters, simplify: false, options: { ...RAISED_LIMITS, ...(pageNode.parameters?.options as object | undefined) } };
		const others: Array<[keyof typeof pp.flows, WorkflowJson]> = [
			['expiring', pageWorkflow(`page e2e expiring ${RUN}`, `pay-exp-${RUN}`, { currency: 'NGN', amount: 1500, methods: ['bank'], options: { expiryMinutes: 0.1 } })],
			['kes', pageWorkflow(`page e2e KES ${RUN}`, `pay-kes-${RUN}`, { currency: 'KES', amount: 250, methods: ['momo'], askPhone: 'optional' })],
			['zar', pageWorkflow(`page e2e ZAR ${RUN}`, `pay-zar-${RUN}`, { currency: 'ZAR', amount: 199.99, methods: ['eft', 'bank'], options: { notPaidOutput: true } })],
		];
		const ngnId = (await pp.n8n.createWorkflow(example as never)).id;
		pp.flows.ngn = { id: ngnId, url: pp.n8n.webhookUrl(String(pageNode.parameters?.path)), nodeName: EXAMPLE_PAGE, nodeId: String(pageNode.id) };
		workflowIds.push(ngnId);
		for (const [key, wf] of others) {
			for (const node of wf.nodes as Array<Record<string, unknown>>) if (node.type === PAGE_TYPE) node.credentials = cred;
			const id = (await pp.n8n.createWorkflow(wf)).id;
			const path = String(((wf.nodes[0] as Record<string, unknown>).parameters as Record<string, unknown>).path);
			pp.flows[key] = { id, url: pp.n8n.webhookUrl(path), nodeName: 'Page', nodeId: 'page' };
			workflowIds.push(id);
		}
		for (const id of workflowIds) await pp.n8n.activate(id);
		// n8n >= 2.3x registers webhooks in the background
		for (const flow of Object.values(pp.flows)) {
			const deadline = Date.now() + 20_000;
			while ((await fetch(flow.url)).status === 404 && Date.now() < deadline) await sleep(200);
		}
	});

	afterAll(async () => {
		await pp.browser?.close();
		for (const id of workflowIds) await pp.n8n.deactivate(id).catch(() => undefined);
		await pp.sb?.stop();
		if (pp.filesDir) rmSync(pp.filesDir, { recursive: true, force: true });
	});
	return pp;
}
