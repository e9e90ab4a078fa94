/**
 * Issue 37 (b), queue mode: PostgreSQL, Redis, one main, one worker, two
 * `n8n webhook` processes, the examples with their claim steps switched on
 * (n8n's own Redis node, INCR, on a claim Redis of this test's own: a
 * separate redis-server on a free port, so nothing else on the machine is
 * touched). 20 collections and 10 Payment Page checkouts paid with the tab
 * closed; each notification delivered 3 times across both webhook processes
 * at once, and each checkout's forward also sent to both processes at once
 * (as a buyer's poll on one and the receiver's forward on the other would):
 * every consumer runs once per event, the page's workflow goes on once per
 * checkout, 0 failed executions. Then the claim store refuses mid-way:
 * nothing handed on (so nothing twice): each run that could not claim stops
 * red at the claim, and the workflows' error workflow e-mails a person.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient, type DeliveryView } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { executionData, startN8n, N8N_VERSION, N8N_VERSIONS, type N8nInstance } from '../../dev/n8n';
import { sandboxAccessToken } from '../../dev/sandboxCredential';
import { claimRedisCredential, createErrorWorkflow, FAILED_RUN, fundAccount, startBankCheckout, startClaimRedis, type ClaimRedis } from '../../dev/queueClaims';
import { startMailCatcher, smtpCredentialData, type MailCatcher } from '../../dev/mailCatcher';
import { sleep } from '../../dev/wait';
import { Shop, payDynamicAccount } from '../../scripts/play-customer';
import { importEventExamples, loadExample, prepareExample, PAYMENT_PAGE_TYPE, SMTP_CREDENTIAL_TYPE, REDIS_CREDENTIAL_TYPE } from '../../scripts/lib/examples';
import { credentialData, exampleSettings } from '../../scripts/lib/provision';
import { RAISED_LIMITS } from './payment-page.fixtures';

const KEY = 'queue-exactly-once-key';
const EVENTS = 20;
const CHECKOUTS = 10;

let sb: SandboxHandle;
let control: SandboxClient;
let n8n: N8nInstance;
let mail: MailCatcher;
let sink: Server;
let claimRedis: ClaimRedis;
let bankToken = '';
let filesDir = '';
let ids: Record<string, string> = {};
let page = { id: '', nodeId: '', path: '' };
let errorWorkflowId = '';

async function inParallel(count: number, limit: number, fn: (i: number) => Promise<void>): Promise<void> {
	let next = 0;
	await Promise.all(Array.from({ length: Math.min(limit, count) }, async () => {
		while (next < count) await fn(next++);
	}));
}

const redisCli = (...args: string[]) => claimRedis.cli(...args);

/** Executions of a workflow once none is running and the count stayed the same for `quietMs`. */
async function settled(workflowId: string, quietMs = 5000, timeoutMs = 180_000): Promise<IDataObject[]> {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	let since = Date.now();
	let all: IDataObject[] = [];
	while (Date.now() < deadline) {
		all = (await n8n.api<{ data: IDataObject[] }>('GET', `/executions?workflowId=${workflowId}&includeData=false&limit=250`)).data;
		const key = `${all.length}/${all.filter((e) => ['new', 'running', 'waiting'].includes(String(e.status))).length}`;
		if (key !== last) {
			last = key;
			since = Date.now();
		}
		if (key.endsWith('/0') && Date.now() - since > quietMs) return all;
		await sleep(1000);
	}
	return all;
}

/** A checkout on the page, as a buyer's browser starts it (bank transfer), from webhook process 2; its reference. */
async function checkout(i: number): Promise<string> {
	return await startBankCheckout(n8n.webhookProcessUrl(1, page.path), { workflowId: page.id, nodeId: page.nodeId }, { email: `buyer${i}@example.com`, name: `Buyer ${i}` });
}

/** The buyer's bank pays the checkout's account; the buyer never comes back. Its payin. */
async function bankPays(ref: string): Promise<IDataObject> {
	const payin = (await control.ledger()).payins.find((p) => p.merchantReference === `${ref}-1`)!;
	await fundAccount(sb.url, bankToken, payin);
	return payin as unknown as IDataObject;
}

/** The sandbox's own notification of each payin (body and hash), captured at the sink. */
async function notificationsOf(onusReferences: string[]): Promise<DeliveryView[]> {
	const wanted = new Set(onusReferences);
	for (let tries = 0; tries < 60; tries++) {
		const found = new Map<string, DeliveryView>();
		for (const d of await control.deliveries()) if (d.event === 'COLLECTION' && wanted.has(String(d.body.onusReference))) found.set(String(d.body.onusReference), d);
		if (found.size === wanted.size) return [...found.values()];
		await sleep(250);
	}
	throw new Error('notifications not captured');
}

/** Each notification 3 times, copy k of event i to webhook process (i + k) % 2, all at once; each checkout's forward to both processes too. */
async function deliver(notifications: DeliveryView[], forwards: IDataObject[]): Promise<void> {
	const receiverPath = `payonus-example-events-q/webhook`;
	const shots: Array<() => Promise<unknown>> = [];
	notifications.forEach((d, i) => {
		for (let copy = 0; copy < 3; copy++) {
			shots.push(() => fetch(n8n.webhookProcessUrl((i + copy) % 2, receiverPath), { method: 'POST', headers: { 'content-type': 'text/plain', hash: d.headers.hash }, body: JSON.stringify(d.body) }));
		}
	});
	for (const payin of forwards) {
		for (const process of [0, 1]) {
			shots.push(() => fetch(n8n.webhookProcessUrl(process, `${page.path}/notify`), {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ onusReference: payin.onusReference, merchantReference: payin.merchantReference }),
			}));
		}
	}
	await inParallel(shots.length, 16, async (k) => void (await shots[k]()));
}

function salesLines(): string[] {
	const file = join(filesDir, 'sales.log');
	return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/**
 * On the current n8n only: four more n8n processes take minutes to start, and
 * `npm test` runs e2e on both versions; the minimum's queue mode is measured
 * by `npm run bench -- queue-payout-drill` (PAYONUS_N8N_VERSION=minimum).
 */
const queueDescribe = N8N_VERSION === N8N_VERSIONS.current ? describe : describe.skip;

queueDescribe('queue mode with the claim steps on', () => {
	beforeAll(async () => {
		filesDir = mkdtempSync(join(tmpdir(), 'payonus-queue-e2e-'));
		claimRedis = await startClaimRedis();
		sb = await startSandbox({ port: 0 });
		control = new SandboxClient(sb.url);
		bankToken = await sandboxAccessToken(sb.url, 3);
		sink = createServer((req, res) => {
			req.resume();
			req.on('end', () => res.writeHead(200).end('{}'));
		});
		await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
		const address = sink.address();
		await control.setWebhooks({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`, verificationKey: KEY, duplicates: 1 });
		n8n = await startN8n({ db: 'postgres', queueWorkers: 1, webhookProcesses: 2, env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir, GENERIC_TIMEZONE: 'UTC' } });
		mail = await startMailCatcher();
		const { id: credentialId } = await n8n.createCredential({ name: 'PayOnUs queue e2e', type: 'payOnUsApi', data: credentialData(sb.url, KEY) });
		const credential = { id: credentialId, name: 'PayOnUs queue e2e' };
		const { id: smtpId } = await n8n.createCredential({ name: 'Mail queue e2e', type: SMTP_CREDENTIAL_TYPE, data: smtpCredentialData(mail) });
		const { id: redisId } = await n8n.createCredential({ name: 'Claim Redis', type: REDIS_CREDENTIAL_TYPE, data: claimRedisCredential(claimRedis) });
		const redisCredential = { id: redisId, name: 'Claim Redis' };

		// The workflows' error workflow: a person gets an e-mail for every run that fails.
		errorWorkflowId = await createErrorWorkflow(n8n, { id: smtpId, name: 'Mail queue e2e' });
		const sell = prepareExample(loadExample('sellWithLink'), { credential, redisCredential, errorWorkflow: errorWorkflowId, settings: { salesFile: join(filesDir, 'sales.log') }, webhookIdSuffix: 'q' });
		const pageNode = sell.nodes.find((n) => n.type === PAYMENT_PAGE_TYPE)!;
		pageNode.parameters = { ...pageNode.parameters, methods: ['bank'], options: { ...RAISED_LIMITS } };
		page = { id: (await n8n.createWorkflow(sell as never)).id, nodeId: String(pageNode.id), path: String(pageNode.parameters.path) };
		await n8n.activate(page.id);
		const imported = await importEventExamples(n8n, {
			credential,
			smtpCredential: { id: smtpId, name: 'Mail queue e2e' },
			settings: { autoPayout: exampleSettings('autoPayout', filesDir) },
			suffix: 'q',
			pageNotifyUrl: n8n.webhookProcessUrl(0, `${page.path}/notify`),
			redisCredential,
			errorWorkflow: errorWorkflowId,
		});
		ids = { ...imported.ids };
		expect(imported.receiverPath).toBe('payonus-example-events-q/webhook');
		for (const process of [0, 1]) {
			const deadline = Date.now() + 30_000;
			while ((await fetch(n8n.webhookProcessUrl(process, page.path))).status === 404 && Date.now() < deadline) await sleep(300);
		}
	}, 300_000);

	afterAll(async () => {
		await n8n?.stop();
		await mail?.stop();
		sink?.close();
		await sb?.stop();
		await claimRedis?.close();
		if (filesDir) rmSync(filesDir, { recursive: true, force: true });
	});

	const events: string[] = [];
	const checkouts: string[] = [];

	it(`${EVENTS} events delivered 3 times across both webhook processes and ${CHECKOUTS} checkouts paid with the tab closed: each consumer runs once per event, the page's workflow goes on once per checkout, 0 failed executions`, async () => {
		const shop = new Shop(sb.url);
		events.push(await payDynamicAccount(shop, 1000, 'q-0'));
		for (let i = 1; i < EVENTS; i++) events.push(await payDynamicAccount(shop, 1000 + i, `q-${i}`));
		const payins: IDataObject[] = [];
		for (let i = 0; i < CHECKOUTS; i++) {
			const ref = await checkout(i);
			checkouts.push(ref);
			payins.push(await bankPays(ref));
		}
		const all = [...events, ...payins.map((p) => String(p.onusReference))];
		await deliver(await notificationsOf(all), payins);

		const runs = {
			receiver: await settled(ids.receiver),
			autoPayout: await settled(ids.autoPayout),
			notifications: await settled(ids.notifications),
			page: await settled(page.id),
		};
		// every collection (the 10 checkouts' too) reaches each consumer once
		expect(runs.autoPayout).toHaveLength(EVENTS + CHECKOUTS);
		expect(runs.notifications).toHaveLength(EVENTS + CHECKOUTS);
		const transfers = (await control.ledger()).transfers.filter((t) => /^share-/.test(t.merchantReference ?? ''));
		for (const ref of all) expect(`${ref}: ${transfers.filter((t) => t.merchantReference === `share-${ref}`).length}`).toBe(`${ref}: 1`);
		const mails = (await mail.messages()).map((m) => m.subject);
		for (const ref of all) expect(`${ref}: ${mails.filter((s) => s.includes(ref)).length}`).toBe(`${ref}: 1`);
		// each checkout on once: one sales line each, whatever number of page runs the copies started
		const lines = salesLines();
		for (const ref of checkouts) expect(`${ref}: ${lines.filter((l) => l.includes(ref)).length}`).toBe(`${ref}: 1`);
		expect(lines).toHaveLength(CHECKOUTS);
		const failed = Object.values(runs).flat().filter((e) => !['success'].includes(String(e.status)));
		expect(failed.map((e) => `${String(e.workflowId)} ${String(e.id)}: ${String(e.status)}`)).toEqual([]);
		// the claims were made in the claim Redis: one key per event copy group and per checkout
		expect(Number(redisCli('eval', "return #redis.call('keys', ARGV[1])", '0', 'payonus:checkout:*'))).toBe(CHECKOUTS);
	}, 400_000);

	it('the claim store refuses mid-way: nothing handed on, every run that could not claim stops red and a person is e-mailed', async () => {
		const before = {
			autoPayout: (await settled(ids.autoPayout, 1000)).length,
			notifications: (await settled(ids.notifications, 1000)).length,
			receiver: new Set((await settled(ids.receiver, 1000)).map((e) => String(e.id))),
			page: new Set((await settled(page.id, 1000)).map((e) => String(e.id))),
			lines: salesLines().length,
			mails: (await mail.messages()).length,
		};
		// The claim Redis stops taking claims: a password set, so every new connection is refused at
		// once (a Redis that is down is retried by n8n's Redis node for about 17 minutes first).
		redisCli('config', 'set', 'requirepass', 'changed-mid-way');
		try {
			const shop = new Shop(sb.url);
			const late: string[] = [];
			for (let i = 0; i < 5; i++) late.push(await payDynamicAccount(shop, 2000 + i, `q-late-${i}`));
			const ref = await checkout(99);
			const payin = await bankPays(ref);
			await deliver(await notificationsOf([...late, String(payin.onusReference)]), [payin]);
			const receiverRuns = (await settled(ids.receiver)).filter((e) => !before.receiver.has(String(e.id)));
			const pageRuns = (await settled(page.id)).filter((e) => !before.page.has(String(e.id)));
			// nothing handed on: no consumer ran, no payout, no sale
			expect((await settled(ids.autoPayout, 1000)).length).toBe(before.autoPayout);
			expect((await settled(ids.notifications, 1000)).length).toBe(before.notifications);
			expect(salesLines()).toHaveLength(before.lines);
			const transfers = (await control.ledger()).transfers.map((t) => t.merchantReference);
			for (const r of late) expect(transfers).not.toContain(`share-${r}`);
			// every run stopped red at the claim, and each event and the checkout has one
			const red = [...receiverRuns, ...pageRuns];
			expect(red.map((e) => e.status)).toEqual(red.map(() => 'error'));
			const named = new Set<string>();
			for (const e of red) {
				const full = await n8n.getExecution(String(e.id));
				const data = executionData(full).resultData;
				expect(`${String(e.id)} ${String(data?.lastNodeExecuted)}`).toBe(`${String(e.id)} Claim once (queue mode)`);
				const runData = data?.runData as Record<string, Array<{ data?: { main?: Array<Array<{ json: IDataObject }>> } }>>;
				const first = (runData['PayOnUs event'] ?? runData['Payment page'])?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
				named.add(String(first.onusReference));
			}
			for (const r of [...late, String(payin.onusReference)]) expect(named).toContain(r);
			// a person is told of each failed run (the error workflow's e-mail)
			const deadline = Date.now() + 60_000;
			let told: string[] = [];
			while (Date.now() < deadline) {
				told = (await mail.messages()).slice(before.mails).map((m) => m.subject).filter((x) => x.startsWith(FAILED_RUN));
				if (told.length >= red.length) break;
				await sleep(1000);
			}
			for (const e of red) expect(told.filter((x) => x.startsWith(`${FAILED_RUN} ${String(e.id)} `))).toHaveLength(1);
		} finally {
			redisCli('-a', 'changed-mid-way', '--no-auth-warning', 'config', 'set', 'requirepass', '');
		}
	}, 300_000);
});
