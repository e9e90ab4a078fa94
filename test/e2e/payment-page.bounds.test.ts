/**
 * Rule 4 in a real n8n against the sandbox: scripted checkouts at full speed
 * against KES mobile money pages with the default bounds (3 payments a
 * minute per visitor, 2 per phone or e-mail, 30 per page). Each visitor is a
 * loopback source address of its own (127.0.0.x: n8n's req.ip), so "one
 * client" and "many clients" are real TCP peers; X-Forwarded-For is sent
 * spoofed and changes nothing (n8n trusts no proxy hop by default). The
 * sandbox's request log says how many prompts and token calls reached it.
 */
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { sharedN8n, type N8nClient } from '../harness/e2e';
import { sleep } from '../../dev/wait';
import { closeVisitors, visit } from '../../dev/visitor';
import { credentialData } from '../../scripts/lib/provision';
import { pageWorkflow, RUN } from './payment-page.fixtures';

jest.setTimeout(240_000);

let n8n: N8nClient;
let sb: SandboxHandle;
let sandbox: SandboxClient;
const workflowIds: string[] = [];
const call = visit;

/** One scripted checkout: open the page, the form, the prompt. The last answer. */
async function scriptedCheckout(url: string, from: string, phone: string, email: string) {
	const first = await call(from, url);
	const c = /name="c" value="([^"]+)"/.exec(first.body)?.[1];
	if (!c) throw new Error(`no checkout (${first.status})`);
	const details = await call(from, url, { c, step: 'start', email, method: 'momo' });
	const next = decodeURIComponent(/c=([^&]+)/.exec(details.location ?? '')?.[1] ?? '');
	return await call(from, url, { c: next, step: 'momo', network: 'MPESA_KE', phone });
}

/** A KES mobile money page with the node's default bounds (no limit set in Options). */
async function boundedPage(name: string): Promise<string> {
	const wf = pageWorkflow(`page bounds ${name} ${RUN}`, `pay-bounds-${name}-${RUN}`, { currency: 'KES', amount: 250, methods: ['momo'] });
	const node = wf.nodes[0] as Record<string, unknown>;
	// As a new node has it: Simplify on, the node's own limits.
	(node.parameters as Record<string, unknown>).simplify = true;
	(node.parameters as Record<string, unknown>).options = {};
	node.credentials = credentials;
	const id = (await n8n.createWorkflow(wf)).id;
	workflowIds.push(id);
	await n8n.activate(id);
	const url = n8n.webhookUrl(`pay-bounds-${name}-${RUN}`);
	const deadline = Date.now() + 20_000;
	while ((await fetch(url)).status === 404 && Date.now() < deadline) await sleep(200);
	return url;
}

let credentials: Record<string, { id: string; name: string }>;

beforeAll(async () => {
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	sandbox = new SandboxClient(sb.url);
	const credName = `PayOnUs page bounds ${RUN}`;
	const credential = await n8n.createCredential({ name: credName, type: 'payOnUsApi', data: credentialData(sb.url, `page-bounds-key-${RUN}`) });
	credentials = { payOnUsApi: { id: credential.id, name: credName } };
});

afterAll(async () => {
	for (const id of workflowIds) await n8n.deactivate(id).catch(() => undefined);
	closeVisitors();
	await sb?.stop();
});

/**
 * What a bound of `perMinute` lets through in `ms` of real time: its burst,
 * and one more every 60/perMinute seconds (the drill runs on n8n's clock).
 */
const allowed = (perMinute: number, ms: number) => perMinute + Math.floor((ms * perMinute) / 60_000);

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
	const started = Date.now();
	const value = await run();
	return { value, ms: Date.now() - started };
}

const prompts = async () => (await sandbox.requests({ path: '/api/v1/mobile-money/collection', method: 'POST' })).length;
const tokenCalls = async () => (await sandbox.requests({ path: '/api/v1/access-token', tokenCalls: true })).length;

it('one client scripting 20 checkouts at once: 3 prompts (and one per 20 s the burst lasts), the rest 429 with Retry-After and no call; an honest buyer on another address is served', async () => {
	const url = await boundedPage('one');
	// A first visit: the page reads its networks (the credential's one token call).
	expect((await call('127.0.0.1', url)).status).toBe(200);
	const tokensBefore = await tokenCalls();
	const promptsBefore = await prompts();
	const { value: answers, ms } = await timed(
		async () =>
			await Promise.all(
				Array.from({ length: 20 }, async (_, i) => await scriptedCheckout(url, '127.0.0.5', `+2547000011${String(i).padStart(2, '0')}`, `script${i}@example.com`)),
			),
	);
	const admitted = answers.filter((a) => a.status === 303).length;
	expect(admitted).toBeGreaterThanOrEqual(3);
	expect(admitted).toBeLessThanOrEqual(allowed(3, ms));
	const refused = answers.filter((a) => a.status === 429);
	expect(refused).toHaveLength(20 - admitted);
	for (const a of refused) {
		expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
		expect(Number(a.retryAfter)).toBeLessThanOrEqual(60);
		expect(a.body).toContain('Nothing was charged by this request.');
	}
	expect((await prompts()) - promptsBefore).toBe(admitted);
	expect((await tokenCalls()) - tokensBefore).toBe(0);

	const honest = await scriptedCheckout(url, '127.0.0.9', '+254722000999', 'honest@example.com');
	expect(honest.status).toBe(303);
	const wait = await call('127.0.0.9', new URL(honest.location!, url).toString());
	expect(wait.status).toBe(200);
	expect(wait.body).toContain('Approve on your phone');
	expect((await prompts()) - promptsBefore).toBe(admitted + 1);
});

it('many clients: one phone gets 2 prompts a minute; the page starts 30 a minute from 60 addresses; no token call', async () => {
	const phoneUrl = await boundedPage('phone');
	expect((await call('127.0.0.1', phoneUrl)).status).toBe(200);
	let before = await prompts();
	const tokensBefore = await tokenCalls();
	const phone = await timed(
		async () =>
			await Promise.all(
				Array.from({ length: 10 }, async (_, i) => await scriptedCheckout(phoneUrl, `127.0.1.${i + 1}`, '+254 722 123 456', `victim${i}@example.com`)),
			),
	);
	const samePhone = phone.value;
	const toPhone = samePhone.filter((a) => a.status === 303).length;
	expect(toPhone).toBeGreaterThanOrEqual(2);
	expect(toPhone).toBeLessThanOrEqual(allowed(2, phone.ms));
	expect(samePhone.filter((a) => a.status === 429).every((a) => a.body.includes('one phone number or email address'))).toBe(true);
	expect((await prompts()) - before).toBe(toPhone);

	const pageUrl = await boundedPage('page');
	expect((await call('127.0.0.1', pageUrl)).status).toBe(200);
	before = await prompts();
	const many = await timed(
		async () =>
			await Promise.all(
				Array.from({ length: 60 }, async (_, i) => await scriptedCheckout(pageUrl, `127.0.2.${i + 1}`, `+2547010${String(10000 + i)}`, `crowd${i}@example.com`)),
			),
	);
	const crowd = many.value;
	const started = crowd.filter((a) => a.status === 303).length;
	expect(started).toBeGreaterThanOrEqual(30);
	expect(started).toBeLessThanOrEqual(allowed(30, many.ms));
	expect(crowd.filter((a) => a.status === 429).every((a) => a.body.includes('This page is busy'))).toBe(true);
	expect((await prompts()) - before).toBe(started);
	expect((await tokenCalls()) - tokensBefore).toBe(0);
});
