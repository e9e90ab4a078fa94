/**
 * The example workflows (examples/*.json), imported exactly as a user would
 * import them, running in the real n8n against the sandbox, in the
 * production topology: the sandbox sends every notification to ONE URL (as
 * the service does), the receiving workflow's PayOnUs Trigger, which hands
 * each event to the consumers that want it (Execute Workflow, "When Executed
 * by Another Workflow"). Outcomes are checked in the sandbox's ledger (GET
 * /_sandbox/ledger), in the mail catcher's inbox (MailDev's API), in the
 * files the workflows write, and in the items n8n produced, per consumer.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SandboxClient, type LedgerView } from '../../sandbox/client';
import type { WebhookSettings } from '../../sandbox/records';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { computeWebhookHash } from '../../nodes/shared/signature';
import { nodeError, nodeItems, sharedN8n, type Execution, type N8nClient } from '../harness/e2e';
import { startMailCatcher, smtpCredentialData, type CaughtMail, type MailCatcher } from '../../dev/mailCatcher';
import {
	CONSUMERS,
	SMTP_CREDENTIAL_TYPE,
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
let mail: MailCatcher;
let n8n: N8nClient;
let shop: Shop;
let filesDir: string;
let credential: { id: string; name: string };
let smtpCredential: { id: string; name: string };
/** The one URL the sandbox notifies: the receiver's PayOnUs Trigger. */
let receiverUrl: string;
const ids: Partial<Record<ExampleKey, string>> = {};
const workflows: Partial<Record<ExampleKey, ExampleWorkflow>> = {};
const created: string[] = [];

/** The node each consumer starts with (its "When Executed by Another Workflow" trigger). */
const START_NODE: Record<(typeof CONSUMERS)[number], string> = {
	autoPayout: 'Collection received',
	notifications: 'Payment event',
	cardOnFile: 'Card stored',
};

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

function triggerItem(e: Execution, node: string, output = 0): Record<string, unknown> | undefined {
	try {
		return nodeItems(e, node, output)[0] as Record<string, unknown>;
	} catch {
		return undefined;
	}
}

/** Runs of one consumer for one event (its start node's item names the reference). */
async function consumerRuns(key: (typeof CONSUMERS)[number], ref: string, field = 'onusReference'): Promise<Execution[]> {
	return await executionsWhere(ids[key]!, (e) => triggerItem(e, START_NODE[key])?.[field] === ref);
}

/** Runs of the receiver for one event, on the trigger's Confirmed (0) or Unconfirmed (1) output. */
async function receiverRuns(ref: string, output = 0, field = 'onusReference'): Promise<Execution[]> {
	return await executionsWhere(ids.receiver!, (e) => triggerItem(e, 'PayOnUs event', output)?.[field] === ref);
}

/**
 * The runs `list` finds once at least one is stored: an e-mail or a sub-workflow's
 * run can be seen before the run that caused it is stored as finished.
 */
async function stored(what: string, list: () => Promise<Execution[]>): Promise<Execution[]> {
	await until(what, 60_000, async () => ((await list()).length > 0 ? true : undefined));
	return await list();
}

/** E-mails in the catcher's inbox whose subject names `text`. */
async function mailsAbout(text: string): Promise<CaughtMail[]> {
	return (await mail.messages()).filter((m) => m.subject.includes(text));
}

async function importExample(
	key: ExampleKey,
	opts: { suffix: string; settings?: Record<string, string | number>; name?: string; activate?: boolean },
): Promise<{ id: string; workflow: ExampleWorkflow }> {
	// the receiver calls the consumers this file imported (by the names the file gives them)
	const workflowIds =
		key === 'receiver'
			? Object.fromEntries(CONSUMERS.map((c) => [loadExample(c).name, ids[c]!]))
			: undefined;
	const workflow = prepareExample(loadExample(key), {
		credential,
		smtpCredential,
		workflowIds,
		settings: { ...(exampleSettings(key, filesDir) ?? {}), ...(opts.settings ?? {}) },
		name: opts.name ?? `${loadExample(key).name} (e2e ${RUN})`,
		webhookIdSuffix: opts.suffix,
	});
	const { id } = await n8n.createWorkflow(workflow as never);
	created.push(id);
	if (opts.activate !== false) await n8n.activate(id);
	return { id, workflow };
}

/** A COLLECTION notification signed with the key, as the service would send it. */
async function postSigned(body: Record<string, unknown>): Promise<number> {
	const hash = computeWebhookHash(
		{ accountNumber: String(body.accountNumber), onusReference: String(body.onusReference), paymentStatus: String(body.paymentStatus) },
		KEY,
	);
	const res = await fetch(receiverUrl, { method: 'POST', headers: { 'content-type': 'text/plain', hash }, body: JSON.stringify(body) });
	await res.arrayBuffer();
	return res.status;
}

beforeAll(async () => {
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	sandbox = new SandboxClient(sb.url);
	shop = new Shop(sb.url);
	mail = await startMailCatcher();
	// the shared n8n may write under ~/.n8n-files only (its default file restriction)
	filesDir = join(homedir(), '.n8n-files', `payonus-examples-e2e-${RUN}`);
	mkdirSync(filesDir, { recursive: true });
	const name = `PayOnUs examples e2e ${RUN}`;
	const made = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, KEY) });
	credential = { id: made.id, name };
	const smtpName = `Mail catcher e2e ${RUN}`;
	const smtp = await n8n.createCredential({ name: smtpName, type: SMTP_CREDENTIAL_TYPE, data: smtpCredentialData(mail) });
	smtpCredential = { id: smtp.id, name: smtpName };

	// the consumers first (a sub-workflow runs only once published), then the receiver
	for (const key of ['autoPayout', 'notifications', 'cardOnFile', 'receiver', 'reconciliation'] as ExampleKey[]) {
		const { id, workflow } = await importExample(key, { suffix: RUN, activate: key !== 'reconciliation' });
		ids[key] = id;
		workflows[key] = workflow;
	}
	// exactly one PayOnUs Trigger among the examples a user imports for events
	for (const key of CONSUMERS) expect(payOnUsTriggerPaths(workflows[key] as never)).toEqual([]);
	const [path] = payOnUsTriggerPaths(workflows.receiver as never);
	receiverUrl = n8n.webhookUrl(path);
	await setWebhooks({ url: receiverUrl, verificationKey: KEY, duplicates: 1 });
});

afterAll(async () => {
	for (const id of created) await n8n.deactivate(id).catch(() => undefined);
	await mail?.stop();
	await sb?.stop();
	if (filesDir) rmSync(filesDir, { recursive: true, force: true });
});

describe('example workflows in a real n8n', () => {
	let nub: string;
	let mmo: string;

	it('auto-payout: a collection delivered twice pays the supplier share once, and the outcome is logged', async () => {
		await setWebhooks({ url: receiverUrl, verificationKey: KEY, duplicates: 2 });
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
		// one URL, each consumer that wants the event acted on it once: the receiver ran
		// once (the trigger suppressed the copy), handed it to auto-payout and notifications
		expect(await stored('the receiver run', () => receiverRuns(nub))).toHaveLength(1);
		expect(await stored('the auto-payout run', () => consumerRuns('autoPayout', nub))).toHaveLength(1);
		const notified = await until('the notification run of the collection', 30_000, async () => {
			const runs = await consumerRuns('notifications', nub);
			return runs.length > 0 ? runs : undefined;
		});
		expect(notified).toHaveLength(1);
		expect(await consumerRuns('cardOnFile', nub, 'onusReference')).toHaveLength(0);
		// the item arrived intact: what the receiver's trigger emitted is what the consumer started on
		const [receiverRun] = await receiverRuns(nub);
		const emitted = nodeItems(receiverRun, 'PayOnUs event', 0)[0];
		const [payoutRun] = await consumerRuns('autoPayout', nub);
		expect(nodeItems(payoutRun, 'Collection received')[0]).toEqual(emitted);
		expect(emitted).toMatchObject({ event: 'COLLECTION', confirmed: true, onusReference: nub, businessId: 'BUS-2001' });
		await setWebhooks({ url: receiverUrl, verificationKey: KEY, duplicates: 1 });
	});

	it('auto-payout: a KES mobile money collection is skipped (only NGN is shared), nothing is paid', async () => {
		mmo = await approveMobileMoney(shop, 1500, `e2e-${RUN}`);
		const executions = await until('the auto-payout run for the mobile money collection', 60_000, async () => {
			const found = await consumerRuns('autoPayout', mmo);
			return found.length > 0 ? found : undefined;
		});
		expect(nodeItems(executions[0], 'Skipped')[0]).toMatchObject({ outcome: 'skipped', collection: mmo });
		expect((await ledger()).transfers.filter((t) => t.merchantReference === `share-${mmo}`)).toHaveLength(0);
	});

	it('notifications: one e-mail per COLLECTION and PAYOUT event, in the mail catcher\'s inbox', async () => {
		const share = (await ledger()).transfers.find((t) => t.merchantReference === `share-${nub}`)!;
		const [received, kes, sent] = await until('the three e-mails', 60_000, async () => {
			const found = await Promise.all([mailsAbout(nub), mailsAbout(mmo), mailsAbout(share.onusReference)]);
			return found.every((f) => f.length > 0) ? found : undefined;
		});
		// the collection notification was delivered twice: one e-mail
		expect(received).toHaveLength(1);
		expect(received[0].subject).toBe(`Payment received: NGN 12345.6 (${nub})`);
		expect(received[0].to.map((t) => t.address)).toEqual(['payments-team@example.com']);
		expect(received[0].text).toMatch(/Payment received: NGN 12345\.6 +BANK_TRANSFER/);
		expect(received[0].text).toContain('Confirmed with PayOnUs: yes');
		expect(kes[0].text).toMatch(/Payment received: KES 1500 +MOBILE_MONEY .*from Wanjiru Kamau/);
		expect(sent[0].subject).toContain('Payout sent: NGN 1234.56');
		expect(sent[0].text).toMatch(/to Sandbox Success Beneficiary/);
		// a PAYOUT is for the notifications only
		expect(await consumerRuns('autoPayout', share.onusReference)).toHaveLength(0);
		expect(await stored('the PAYOUT notification run', () => consumerRuns('notifications', share.onusReference))).toHaveLength(1);
	});

	it('an event the service does not confirm reaches a person by e-mail, and no consumer acts on it', async () => {
		// a real payin, still unpaid: a signed SUCCESSFUL notification for it is not confirmed
		const account = await shop.unpaidPayin(`e2e-unconfirmed-${RUN}`, 4321);
		const ref = String(account.onusReference);
		const status = await postSigned({
			type: 'COLLECTION',
			businessId: 'BUS-2001',
			accountNumber: String(account.accountNumber),
			onusReference: ref,
			paymentStatus: 'SUCCESSFUL',
			transactionAmount: 4321,
		});
		expect(status).toBe(200);
		const [alert] = await until('the e-mail about the unconfirmed event', 60_000, async () => {
			const found = await mailsAbout(ref);
			return found.length > 0 ? found : undefined;
		});
		expect(alert.subject).toBe(`PayOnUs event NOT confirmed, check it by hand: COLLECTION ${ref}`);
		expect(alert.text).toContain('did NOT confirm');
		expect(alert.text).toMatch(/Why: .+/);
		expect(alert.text).toContain('Nothing was paid on it.');
		expect(await stored('the receiver run on the Unconfirmed output', () => receiverRuns(ref, 1))).toHaveLength(1);
		await sleep(2000);
		for (const key of CONSUMERS) expect(await consumerRuns(key, ref)).toHaveLength(0);
		expect((await ledger()).transfers.filter((t) => t.merchantReference === `share-${ref}`)).toHaveLength(0);
	});

	it('a failing consumer stops no other: notifications cannot send (SMTP down) while the auto-payout still pays once', async () => {
		// the notifications consumer's SMTP credential points at a closed port
		const closed = await startMailCatcher();
		const deadPort = closed.smtpPort;
		await closed.stop();
		await n8n.updateCredential(smtpCredential.id, {
			name: smtpCredential.name,
			type: SMTP_CREDENTIAL_TYPE,
			data: smtpCredentialData({ smtpHost: '127.0.0.1', smtpPort: deadPort }),
		});
		try {
			const ref = await payDynamicAccount(shop, 700, `e2e-smtp-down-${RUN}`);
			const [failed] = await until('the failed notification run', 60_000, async () => {
				const found = await consumerRuns('notifications', ref);
				return found.length > 0 ? found : undefined;
			});
			expect(failed.status).toBe('error');
			const kept = nodeItems(failed, 'Not delivered')[0];
			expect(kept.onusReference).toBe(ref);
			expect(String(kept.undelivered)).toContain(ref);
			expect(String(kept.reason)).not.toBe('unknown error');
			expect(nodeError(failed, 'Flag the failed notification')).toContain(ref);
			// the others went on: the share is paid once
			const line = await until('the auto-payout of the collection', 60_000, async () => payoutLog().find((l) => l.collection === ref));
			expect(line).toMatchObject({ outcome: 'paid', transferReference: `share-${ref}`, amount: 70 });
			expect((await ledger()).transfers.filter((t) => t.merchantReference === `share-${ref}`)).toHaveLength(1);
			// the receiver caught the failure on the hand-off's error output; its e-mail to a
			// person could not go either (the same SMTP is down): the receiver's run is red too
			const [receiverRun] = await until('the receiver run', 30_000, async () => {
				const found = await receiverRuns(ref);
				return found.length > 0 ? found : undefined;
			});
			expect(nodeItems(receiverRun, 'Hand-off failed')[0].subject).toBe(`PayOnUs event: "Payment notifications" failed (${ref})`);
			expect(receiverRun.status).toBe('error');
		} finally {
			await n8n.updateCredential(smtpCredential.id, { name: smtpCredential.name, type: SMTP_CREDENTIAL_TYPE, data: smtpCredentialData(mail) });
		}
	});

	it('a consumer that cannot be started (unpublished) is e-mailed to a person; the consumers after it still run', async () => {
		await n8n.deactivate(ids.autoPayout!);
		try {
			const ref = await payDynamicAccount(shop, 800, `e2e-unpublished-${RUN}`);
			const [alert] = await until('the e-mail about the failed hand-off', 60_000, async () => {
				const found = (await mailsAbout(ref)).filter((m) => m.subject.startsWith('PayOnUs event: '));
				return found.length > 0 ? found : undefined;
			});
			expect(alert.subject).toBe(`PayOnUs event: "Auto-payout on collection" failed (${ref})`);
			expect(alert.text).toMatch(/"Auto-payout on collection" failed, or could not be started, on a confirmed COLLECTION event: .+/);
			// the notifications consumer (called after it) still ran and e-mailed the payment
			const notified = await until('the notification of the payment', 60_000, async () => {
				const found = (await mailsAbout(ref)).filter((m) => m.subject.startsWith('Payment received'));
				return found.length > 0 ? found : undefined;
			});
			expect(notified).toHaveLength(1);
			expect(await consumerRuns('autoPayout', ref)).toHaveLength(0);
			expect((await ledger()).transfers.filter((t) => t.merchantReference === `share-${ref}`)).toHaveLength(0);
		} finally {
			await n8n.activate(ids.autoPayout!);
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
			const found = await consumerRuns('cardOnFile', link.linkId, 'cardTokenizationLinkId');
			return found.length > 0 ? found : undefined;
		});
		// one receiver run for the tokenization, handed to the card-on-file consumer only
		expect(await consumerRuns('cardOnFile', link.linkId, 'cardTokenizationLinkId')).toHaveLength(1);
		expect(await stored('the receiver run of the tokenization', () => receiverRuns(link.linkId, 0, 'cardTokenizationLinkId'))).toHaveLength(1);
		expect(await consumerRuns('notifications', link.linkId, 'cardTokenizationLinkId')).toHaveLength(0);
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
