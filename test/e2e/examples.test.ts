/**
 * The example workflows (examples/*.json), imported exactly as a user would
 * import them, running in the real n8n against the sandbox. Outcomes are
 * checked in the sandbox's ledger (GET /_sandbox/ledger), in the files the
 * workflows write, and in the items n8n produced.
 *
 * The sandbox sends every notification to one URL (like the real service);
 * as `npm start` does, a relay fans each one out to the trigger workflows.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SandboxClient, type LedgerView } from '../../sandbox/client';
import type { WebhookSettings } from '../../sandbox/records';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeError, nodeItems, sharedN8n, type Execution, type N8nClient } from '../harness/e2e';
import { startFanout, type FanoutHandle } from '../../scripts/lib/fanout';
import {
	loadExample,
	payOnUsTriggerPaths,
	prepareExample,
	webhookNodePaths,
	type ExampleKey,
	type ExampleWorkflow,
} from '../../scripts/lib/examples';
import { credentialData, exampleSettings } from '../../scripts/lib/provision';
import { Shop, approveMobileMoney, completeConsentPage, payDynamicAccount } from '../../scripts/play-customer';
import { sleep, until } from '../../dev/wait';

jest.setTimeout(300_000);

const KEY = `examples-e2e-key-${randomBytes(6).toString('hex')}`;
const RUN = randomBytes(4).toString('hex');

let sb: SandboxHandle;
let sandbox: SandboxClient;
let relay: FanoutHandle;
let n8n: N8nClient;
let shop: Shop;
let filesDir: string;
let credential: { id: string; name: string };
const ids: Partial<Record<ExampleKey, string>> = {};
const workflows: Partial<Record<ExampleKey, ExampleWorkflow>> = {};
const created: string[] = [];

async function ledger(): Promise<LedgerView> {
	return await sandbox.ledger();
}

/** Points the sandbox's notifications at `settings.url`; fails the test unless the sandbox took them. */
async function setWebhooks(settings: Partial<WebhookSettings>): Promise<void> {
	expect(await sandbox.setWebhooks(settings)).toMatchObject(settings);
}

/** Finished executions of a workflow whose given node ran and whose trigger item matches. */
async function executionsWhere(workflowId: string, match: (e: Execution) => boolean): Promise<Execution[]> {
	const all = await n8n.listExecutions(workflowId, true);
	return all.filter((e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting' && match(e));
}

/** The auto-payout workflow's log lines (a line still being appended is left out). */
function payoutLog(): Array<Record<string, unknown>> {
	const log = join(filesDir, 'auto-payouts.log');
	if (!existsSync(log)) return [];
	return readFileSync(log, 'utf8')
		.split('\n')
		.flatMap((l) => {
			try {
				return [JSON.parse(l) as Record<string, unknown>];
			} catch {
				return [];
			}
		});
}

function triggerItem(e: Execution, node: string): Record<string, unknown> | undefined {
	try {
		return nodeItems(e, node)[0] as Record<string, unknown>;
	} catch {
		return undefined;
	}
}

async function importExample(
	key: ExampleKey,
	opts: { suffix: string; settings?: Record<string, string | number>; name?: string; activate?: boolean },
): Promise<{ id: string; workflow: ExampleWorkflow }> {
	const workflow = prepareExample(loadExample(key), {
		credential,
		settings: { ...(exampleSettings(key, filesDir) ?? {}), ...(opts.settings ?? {}) },
		name: opts.name ?? `${loadExample(key).name} (e2e ${RUN})`,
		webhookIdSuffix: opts.suffix,
	});
	const { id } = await n8n.createWorkflow(workflow as never);
	created.push(id);
	if (opts.activate !== false) await n8n.activate(id);
	return { id, workflow };
}

beforeAll(async () => {
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	sandbox = new SandboxClient(sb.url);
	shop = new Shop(sb.url);
	// the shared n8n may write under ~/.n8n-files only (its default file restriction)
	filesDir = join(homedir(), '.n8n-files', `payonus-examples-e2e-${RUN}`);
	mkdirSync(filesDir, { recursive: true });
	const name = `PayOnUs examples e2e ${RUN}`;
	const made = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, KEY) });
	credential = { id: made.id, name };

	for (const key of ['autoPayout', 'notifications', 'cardOnFile', 'reconciliation'] as ExampleKey[]) {
		const { id, workflow } = await importExample(key, { suffix: RUN, activate: key !== 'reconciliation' });
		ids[key] = id;
		workflows[key] = workflow;
	}
	relay = await startFanout({
		targets: (['autoPayout', 'notifications', 'cardOnFile'] as ExampleKey[]).flatMap((key) =>
			payOnUsTriggerPaths(workflows[key] as never).map((path) => n8n.webhookUrl(path)),
		),
	});
	await setWebhooks({ url: relay.url, verificationKey: KEY, duplicates: 1 });
});

afterAll(async () => {
	for (const id of created) await n8n.deactivate(id).catch(() => undefined);
	await relay?.stop();
	await sb?.stop();
	if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

describe('example workflows in a real n8n', () => {
	let nub: string;
	let mmo: string;

	it('auto-payout: a collection delivered twice pays the supplier share once, and the outcome is logged', async () => {
		await setWebhooks({ url: relay.url, verificationKey: KEY, duplicates: 2 });
		const before = await ledger();
		const ngnBefore = before.wallets.find((w) => w.entityId === 'BUS-2001' && w.currency === 'NGN')!.availableBalance;

		nub = await payDynamicAccount(shop, 12345.6, `e2e-${RUN}`);
		const transfer = await until('the supplier payout', 60_000, async () =>
			(await ledger()).transfers.find((t) => t.merchantReference === `share-${nub}`),
		);
		// every execution for this collection has finished (both copies of the notification)
		await until('the payout log line', 30_000, async () => {
			const log = join(filesDir, 'auto-payouts.log');
			return existsSync(log) && readFileSync(log, 'utf8').includes(nub) ? true : undefined;
		});
		await sleep(3000); // room for a second (duplicate) execution to do harm, if it could

		const after = await ledger();
		const shares = after.transfers.filter((t) => t.merchantReference === `share-${nub}`);
		expect(shares).toHaveLength(1);
		expect(transfer).toMatchObject({
			amount: 1234.56,
			currency: 'NGN',
			beneficiaryAccountNumber: '9999991112',
			businessId: 'BUS-2001',
		});
		const settled = after.transfers.find((t) => t.merchantReference === `share-${nub}`)!;
		expect(settled.paymentStatus).toBe('SUCCESSFUL');
		// the name the bank gave in the name enquiry is the beneficiary name sent
		expect(settled.beneficiaryAccountName).toBe('Sandbox Success Beneficiary');

		// the wallet got the collection (net of fees) and paid the share plus its fee
		const collected = after.payins.find((p) => p.onusReference === nub)!;
		expect(collected.paymentStatus).toBe('SUCCESSFUL');
		const ngnAfter = after.wallets.find((w) => w.entityId === 'BUS-2001' && w.currency === 'NGN')!.availableBalance;
		expect(ngnAfter).toBeLessThan(ngnBefore + collected.amount);

		const lines = payoutLog().filter((l) => l.collection === nub);
		expect(lines.filter((l) => l.outcome === 'paid')).toHaveLength(1);
		expect(lines.find((l) => l.outcome === 'paid')).toMatchObject({
			transferReference: `share-${nub}`,
			amount: 1234.56,
			collected: 12345.6,
			beneficiary: 'Sandbox Success Beneficiary',
		});
		// a second copy, if the trigger let one through, finds the share already
		// paid (the reference holds this very payout): logged as such, with it
		for (const line of lines.filter((l) => l.outcome !== 'paid')) {
			expect(line).toMatchObject({
				outcome: 'already paid',
				transferReference: `share-${nub}`,
				amount: 1234.56,
			});
		}
		await setWebhooks({ url: relay.url, verificationKey: KEY, duplicates: 1 });
	});

	it('auto-payout: a KES mobile money collection is skipped (only NGN is shared), nothing is paid', async () => {
		mmo = await approveMobileMoney(shop, 1500, `e2e-${RUN}`);
		const executions = await until('the auto-payout run for the mobile money collection', 60_000, async () => {
			const found = await executionsWhere(ids.autoPayout!, (e) => triggerItem(e, 'Collection received')?.onusReference === mmo);
			return found.length > 0 ? found : undefined;
		});
		expect(nodeItems(executions[0], 'Skipped')[0]).toMatchObject({ outcome: 'skipped', collection: mmo });
		expect((await ledger()).transfers.filter((t) => t.merchantReference === `share-${mmo}`)).toHaveLength(0);
	});

	it('notifications: one readable line per COLLECTION and PAYOUT event', async () => {
		const file = join(filesDir, 'payment-notifications.log');
		const share = (await ledger()).transfers.find((t) => t.merchantReference === `share-${nub}`)!;
		const text = await until('the three notification lines', 60_000, async () => {
			if (!existsSync(file)) return undefined;
			const t = readFileSync(file, 'utf8');
			return t.includes(nub) && t.includes(mmo) && t.includes(share.onusReference) ? t : undefined;
		});
		const lineOf = (ref: string) => text.split('\n').filter((l) => l.includes(ref));
		// the collection notification was delivered twice: the trigger started one run
		expect(lineOf(nub).filter((l) => l.includes('Payment received'))).toHaveLength(1);
		expect(lineOf(nub)[0]).toMatch(/Payment received: NGN 12345\.6 +BANK_TRANSFER/);
		expect(lineOf(mmo)[0]).toMatch(/Payment received: KES 1500 +MOBILE_MONEY .*from Wanjiru Kamau/);
		expect(lineOf(share.onusReference)[0]).toMatch(/Payout sent: NGN 1234\.56 .*to Sandbox Success Beneficiary/);
	});

	it('notifications: when the message cannot be written, the error branch keeps it and the run is flagged failed', async () => {
		// a copy of the example whose file is outside what n8n may write
		const suffix = `${RUN}-broken`;
		const { id, workflow } = await importExample('notifications', {
			suffix,
			name: `PayOnUs example: Payment notifications (broken file, e2e ${RUN})`,
			settings: { notificationsFile: '/proc/payonus-cannot-write-here.log' },
		});
		const [path] = payOnUsTriggerPaths(workflow as never);
		await setWebhooks({ url: n8n.webhookUrl(path), verificationKey: KEY, duplicates: 1 });
		try {
			const ref = await payDynamicAccount(shop, 700, `e2e-broken-${RUN}`);
			const [execution] = await until('the failed notification run', 60_000, async () => {
				const found = await executionsWhere(id, (e) => triggerItem(e, 'Payment event')?.onusReference === ref);
				return found.length > 0 ? found : undefined;
			});
			expect(execution.status).toBe('error');
			const kept = nodeItems(execution, 'Not delivered')[0];
			expect(kept.onusReference).toBe(ref);
			expect(String(kept.undelivered)).toContain(ref);
			expect(String(kept.reason)).not.toBe('unknown error');
			expect(nodeError(execution, 'Flag the failed notification')).toContain(ref);
		} finally {
			await n8n.deactivate(id);
			await setWebhooks({ url: relay.url, verificationKey: KEY, duplicates: 1 });
		}
	});

	it('card on file: sign-up link -> customer stores a card on the consent page -> the token is charged once', async () => {
		const [startPath] = webhookNodePaths(workflows.cardOnFile as never);
		const signUp = await fetch(n8n.webhookUrl(startPath), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'Kofi Mensah', email: 'kofi@example.com', customerId: `e2e-${RUN}` }),
		});
		expect(signUp.status).toBe(200);
		const link = (await signUp.json()) as { linkId: string; url: string; merchantReference: string };
		expect(link.url).toContain(sb.url);
		expect(link.merchantReference).toMatch(new RegExp(`^card-e2e-${RUN}-\\d{13}$`));

		expect(await completeConsentPage(link.url)).toBe('Card saved');

		const charge = await until('the first charge of the stored card', 60_000, async () =>
			(await ledger()).payins.find((p) => (p.reference ?? p.merchantReference) === `first-charge-${link.linkId}`),
		);
		expect(charge).toMatchObject({ amount: 5000, paymentStatus: 'SUCCESSFUL', businessId: 'BUS-2001' });
		expect(charge.onusReference).toMatch(/-TKPY-/);

		const after = await ledger();
		const storedLink = after.links.find((l) => l.id === link.linkId)!;
		expect(storedLink.status).toBe('COMPLETED');
		expect(after.tokens.map((t) => t.id)).toContain(storedLink.cardTokenId);
		expect(after.payins.filter((p) => (p.reference ?? p.merchantReference) === `first-charge-${link.linkId}`)).toHaveLength(1);

		const [execution] = await until('the card-on-file run', 30_000, async () => {
			const found = await executionsWhere(ids.cardOnFile!, (e) => triggerItem(e, 'Card stored')?.cardTokenizationLinkId === link.linkId);
			return found.length > 0 ? found : undefined;
		});
		expect(nodeItems(execution, 'Subscription active')[0]).toMatchObject({
			outcome: 'charged',
			cardTokenizationLinkId: link.linkId,
			chargeReference: charge.onusReference,
		});

		// The charge is an NGN collection too: its notification reaches the
		// auto-payout workflow, which pays the supplier 10% of it. Waiting for
		// that run's log line keeps this file's later tests (the day's totals)
		// from racing a payout still in flight.
		const line = await until('the auto-payout of the card charge', 60_000, async () =>
			payoutLog().find((l) => l.collection === charge.onusReference),
		);
		expect(line).toMatchObject({ outcome: 'paid', transferReference: `share-${charge.onusReference}`, amount: 500 });
		await until('the card share settled', 30_000, async () =>
			(await ledger()).transfers.find((t) => t.merchantReference === `share-${charge.onusReference}` && t.paymentStatus === 'SUCCESSFUL'),
		);
	});

	it('daily reconciliation: the summary totals and the CSV equal the ledger for the day', async () => {
		const before = await ledger();
		const day = before.clock.timestamp.slice(0, 10);
		const { id } = await importExample('reconciliation', {
			suffix: `${RUN}-today`,
			name: `PayOnUs example: Daily reconciliation (today, e2e ${RUN})`,
			settings: { reportDate: day },
			activate: false,
		});
		const execution = await n8n.runWorkflow(id, { triggerName: 'Run now', timeoutMs: 120_000 });
		expect(nodeError(execution)).toBeUndefined();
		const [summary] = nodeItems(execution, 'Daily summary') as Array<Record<string, any>>;

		const l = await ledger();
		const onDay = (d: string) => d.slice(0, 10) === day;
		const payins = l.payins.filter((p) => p.businessId === 'BUS-2001' && onDay(p.createdDate));
		const transfers = l.transfers.filter((t) => t.businessId === 'BUS-2001' && onDay(t.createdDate));
		const sum = <T>(list: T[], value: (x: T) => number, currency: (x: T) => string) =>
			list.reduce<Record<string, number>>((acc, x) => {
				acc[currency(x)] = Math.round(((acc[currency(x)] ?? 0) + value(x)) * 100) / 100;
				return acc;
			}, {});
		const collected = sum(
			payins.filter((p) => p.paymentStatus === 'SUCCESSFUL'),
			(p) => (typeof p.amountPaid === 'number' ? p.amountPaid : p.amount),
			(p) => p.currency,
		);
		const paidOut = sum(
			transfers.filter((t) => t.paymentStatus === 'SUCCESSFUL'),
			(t) => t.amount,
			(t) => t.currency,
		);
		const balances = sum(
			l.wallets.filter((w) => w.entityId === 'BUS-2001'),
			(w) => w.availableBalance,
			(w) => w.currency,
		);

		expect(payins.length).toBeGreaterThanOrEqual(3); // the NGN collections, the M-Pesa charge, the card charge
		expect(transfers.length).toBeGreaterThanOrEqual(1);
		expect(summary.reportDate).toBe(day);
		expect(summary.payments.count).toBe(payins.length);
		expect(summary.payments.collected).toEqual(collected);
		expect(summary.transfers.count).toBe(transfers.length);
		expect(summary.transfers.paidOut).toEqual(paidOut);
		expect(summary.walletBalances).toEqual(balances);

		const csv = readFileSync(String(summary.csvFile), 'utf8').trim().split('\n');
		expect(csv[0]).toBe('kind,createdDate,merchantReference,onusReference,channel,currency,amount,fee,status');
		const walletCount = l.wallets.filter((w) => w.entityId === 'BUS-2001').length;
		expect(csv).toHaveLength(1 + payins.length + transfers.length + walletCount);
		for (const p of payins) expect(csv.some((row) => row.includes(p.onusReference))).toBe(true);
		for (const t of transfers) expect(csv.some((row) => row.includes(t.onusReference))).toBe(true);
	});
});
