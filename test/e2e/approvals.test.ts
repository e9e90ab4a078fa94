/**
 * Four eyes on payouts (examples/auto-payout-on-collection.json) in a real
 * n8n, in the production topology (the sandbox notifies the receiver, which
 * hands each collection to the auto-payout): a supplier share above the
 * Settings' approvalThreshold waits for a person's decision by e-mail (n8n's
 * Send Email, "Send and Wait for Response"). The e-mail, caught by the mail
 * catcher, shows what the Dry Run of that very transfer shows; following its
 * Approve link pays once, Decline pays nothing, a second approval (or one
 * after the collection was delivered again) pays nothing more, and no
 * decision within the time limit pays nothing and tells a person.
 *
 * Counts checked per case: approval e-mails, transfers in the sandbox's
 * ledger, other e-mails. The time from the Approve click to the transfer
 * reaching the sandbox is measured (printed, and kept under 30 s).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SandboxClient, type LedgerView } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { computeWebhookHash } from '../../nodes/shared/signature';
import { executionData, nodeError, nodeItems, sharedN8n, type Execution, type N8nClient } from '../harness/e2e';
import { startMailCatcher, smtpCredentialData, type CaughtMail, type MailCatcher } from '../../dev/mailCatcher';
import {
	CONSUMERS,
	SMTP_CREDENTIAL_TYPE,
	loadExample,
	payOnUsTriggerPaths,
	prepareExample,
	settingOf,
	type ExampleKey,
} from '../../scripts/lib/examples';
import { credentialData, exampleSettings } from '../../scripts/lib/provision';
import { Shop, payDynamicAccount } from '../../scripts/play-customer';
import { sleep, until } from '../../dev/wait';
import { launchChromium } from '../../dev/chromium';
import { followLink as follow } from './approvals.fixtures';

jest.setTimeout(420_000);

const KEY = `approvals-e2e-key-${randomBytes(6).toString('hex')}`;
const RUN = randomBytes(4).toString('hex');
/** A browser's User-Agent: n8n answers approval links opened by bots (link previews) with nothing. */
/** The time limit of the e2e copy: long enough for a click, short enough to wait for (n8n resumes by its own timer). */
const LIMIT_MINUTES = 1;

let sb: SandboxHandle;
let sandbox: SandboxClient;
let mail: MailCatcher;
let n8n: N8nClient;
let shop: Shop;
let filesDir: string;
let threshold: number;
const ids: Partial<Record<ExampleKey, string>> = {};
/**
 * More receivers linked to the same consumers: a collection "delivered again"
 * reaches the auto-payout once more through each (a receiver's trigger lets
 * one copy of an event through, as the service's retries demand).
 */
const otherReceiverUrls: string[] = [];
/** The collection left without a decision: started first, checked last (n8n resumes it by its own timer). */
let unanswered: Promise<{ ref: string; asked: number }>;
const created: string[] = [];
const figures: string[] = [];

async function ledger(): Promise<LedgerView> {
	return await sandbox.ledger();
}

async function shares(ref: string): Promise<LedgerView['transfers']> {
	return (await ledger()).transfers.filter((t) => t.merchantReference === `share-${ref}`);
}

function payoutLog(ref: string): Array<Record<string, unknown>> {
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
		})
		.filter((l) => l.collection === ref);
}

async function approvalMails(ref: string): Promise<CaughtMail[]> {
	return (await mail.messages()).filter((m) => m.subject.startsWith('Approve payout') && m.subject.includes(`share-${ref}`));
}

async function mailsAbout(ref: string): Promise<CaughtMail[]> {
	return (await mail.messages()).filter((m) => m.subject.includes(ref));
}

/** The n approval e-mails for a collection, once they are all in. */
async function waitForApprovalMails(ref: string, n = 1): Promise<CaughtMail[]> {
	return await until(`${n} approval e-mail(s) for ${ref}`, 90_000, async () => {
		const found = await approvalMails(ref);
		return found.length >= n ? found : undefined;
	});
}

/** The Approve and Decline links of an approval e-mail (n8n signs them; they resume the waiting execution). */
function links(message: CaughtMail): { approve: string; decline: string } {
	const hrefs = [...String(message.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
	const approve = hrefs.find((h) => h.includes('approved=true'));
	const decline = hrefs.find((h) => h.includes('approved=false'));
	if (!approve || !decline) throw new Error(`no Approve/Decline links in the e-mail: ${hrefs.join(' ')}`);
	return { approve, decline };
}

/** The auto-payout's runs for one collection (any status). */
async function payoutRuns(ref: string): Promise<Execution[]> {
	const all = await n8n.listExecutions(ids.autoPayout!, true);
	return all.filter((e) => {
		try {
			return nodeItems(e, 'Collection received')[0]?.onusReference === ref;
		} catch {
			return false;
		}
	});
}

/** The receiver's runs for one collection (its trigger's Confirmed output). */
async function receiverRuns(ref: string): Promise<Execution[]> {
	const all = await n8n.listExecutions(ids.receiver!, true);
	return all.filter((e) => {
		try {
			return nodeItems(e, 'PayOnUs event', 0)[0]?.onusReference === ref;
		} catch {
			return false;
		}
	});
}

/** The receiver waits for the auto-payout (Wait For Sub-Workflow Completion): its run ends once the payout is decided. */
async function receiverFinished(ref: string): Promise<Execution> {
	return await until(`the receiver's run for ${ref} to finish`, 90_000, async () => {
		const [run] = await receiverRuns(ref);
		return run && run.status !== 'waiting' && run.status !== 'running' && run.status !== 'new' ? run : undefined;
	});
}

async function finishedPayoutRuns(ref: string, n = 1): Promise<Execution[]> {
	return await until(`${n} finished auto-payout run(s) for ${ref}`, 180_000, async () => {
		const runs = (await payoutRuns(ref)).filter((e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting');
		return runs.length >= n ? runs : undefined;
	});
}

/** A COLLECTION notification signed with the key, as the service sends it, to a receiver's URL. */
async function deliverAgain(url: string, ref: string): Promise<void> {
	const payin = (await ledger()).payins.find((p) => p.onusReference === ref)!;
	const body = {
		type: 'COLLECTION',
		businessId: payin.businessId,
		accountNumber: payin.accountNumber,
		onusReference: ref,
		paymentStatus: 'SUCCESSFUL',
		transactionAmount: payin.amount,
	};
	const hash = computeWebhookHash({ accountNumber: String(body.accountNumber), onusReference: ref, paymentStatus: 'SUCCESSFUL' }, KEY);
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', hash }, body: JSON.stringify(body) });
	await res.arrayBuffer();
	expect(res.status).toBe(200);
}

/**
 * The docs' pictures (docs/approvals.md), taken when PAYONUS_APPROVAL_PICTURES
 * names a folder: the approval e-mail in the mail catcher's web inbox, and the
 * auto-payout's execution waiting for the decision in the n8n editor.
 */
async function pictures(message: CaughtMail, ref: string): Promise<void> {
	const dir = process.env.PAYONUS_APPROVAL_PICTURES;
	if (!dir) return;
	const [waiting] = (await payoutRuns(ref)).filter((e) => e.status === 'waiting');
	const browser = await launchChromium();
	try {
		const inbox = await browser.newPage({ viewport: { width: 1100, height: 980 } });
		await inbox.goto(`${mail.webUrl}#/email/${message.id}`);
		await inbox.getByText('Approve payout', { exact: true }).first().waitFor({ timeout: 20_000 }).catch(() => undefined);
		await inbox.waitForTimeout(1500);
		await inbox.screenshot({ path: join(dir, 'approval-email.png') });
		if (waiting) {
			const context = await browser.newContext({ viewport: { width: 1440, height: 800 } });
			const url = new URL(n8n.baseUrl);
			await context.addCookies([{ name: 'n8n-auth', value: n8n.cookie, domain: url.hostname, path: '/' }]);
			const editor = await context.newPage();
			await editor.goto(`${n8n.baseUrl}/workflow/${ids.autoPayout!}/executions/${waiting.id}`);
			await editor.waitForTimeout(6000);
			await editor.screenshot({ path: join(dir, 'approval-waiting.png') });
		}
	} finally {
		await browser.close();
	}
}

beforeAll(async () => {
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	sandbox = new SandboxClient(sb.url);
	shop = new Shop(sb.url);
	mail = await startMailCatcher();
	filesDir = join(homedir(), '.n8n-files', `payonus-approvals-e2e-${RUN}`);
	mkdirSync(filesDir, { recursive: true });
	const name = `PayOnUs approvals e2e ${RUN}`;
	const made = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, KEY) });
	const credential = { id: made.id, name };
	const smtpName = `Mail catcher approvals e2e ${RUN}`;
	const smtp = await n8n.createCredential({ name: smtpName, type: SMTP_CREDENTIAL_TYPE, data: smtpCredentialData(mail) });
	const smtpCredential = { id: smtp.id, name: smtpName };
	threshold = Number(settingOf(loadExample('autoPayout'), 'approvalThreshold'));
	expect(threshold).toBe(5000);

	const byName: Record<string, string> = {};
	for (const key of [...CONSUMERS, 'receiver', 'receiver', 'receiver'] as ExampleKey[]) {
		const second = key === 'receiver' && ids.receiver !== undefined;
		const suffix = second ? `${RUN}-again-${otherReceiverUrls.length}` : `${RUN}-approvals`;
		const example = loadExample(key);
		const settings = key === 'autoPayout' ? { ...exampleSettings(key, filesDir), approvalTimeLimitMinutes: LIMIT_MINUTES } : exampleSettings(key, filesDir);
		const workflow = prepareExample(example, {
			credential,
			smtpCredential,
			settings,
			workflowIds: key === 'receiver' ? byName : undefined,
			name: `${example.name} (approvals e2e ${suffix})`,
			webhookIdSuffix: suffix,
		});
		const { id } = await n8n.createWorkflow(workflow as never);
		created.push(id);
		await n8n.activate(id);
		byName[example.name] = id;
		if (second) otherReceiverUrls.push(n8n.webhookUrl(payOnUsTriggerPaths(workflow as never)[0]));
		else ids[key] = id;
		if (key === 'receiver' && !second) {
			const url = n8n.webhookUrl(payOnUsTriggerPaths(workflow as never)[0]);
			expect(await sandbox.setWebhooks({ url, verificationKey: KEY, duplicates: 1 })).toMatchObject({ url });
		}
	}
	unanswered = (async () => {
		const ref = await payDynamicAccount(shop, 80_000, `appr-late-${RUN}`);
		await waitForApprovalMails(ref);
		return { ref, asked: Date.now() };
	})();
	await unanswered;
});

afterAll(async () => {
	for (const id of created) await n8n.deactivate(id).catch(() => undefined);
	await mail?.stop();
	await sb?.stop();
	if (filesDir) rmSync(filesDir, { recursive: true, force: true });
	if (figures.length > 0) process.stdout.write(`\napprovals e2e figures:\n${figures.map((f) => `  ${f}`).join('\n')}\n`);
});

describe('four eyes on payouts: the auto-payout example with n8n Send Email (send and wait)', () => {
	it('at or below the threshold the share is paid at once: no approval e-mail', async () => {
		const ref = await payDynamicAccount(shop, 30_000, `appr-below-${RUN}`);
		await until('the share paid', 60_000, async () => ((await shares(ref)).length > 0 ? true : undefined));
		const [run] = await finishedPayoutRuns(ref);
		expect(run.status).toBe('success');
		expect(nodeItems(run, 'Payout sent')[0]).toMatchObject({ outcome: 'paid', amount: 3000 });
		expect(await shares(ref)).toHaveLength(1);
		expect(await approvalMails(ref)).toHaveLength(0);
		figures.push(`below threshold (share NGN 3,000): approval e-mails 0, payouts 1`);
	});

	it('above it: the e-mail shows the dry run of the transfer; nothing is paid until Approve, which pays once; a second Approve and a late Decline pay nothing more', async () => {
		const ref = await payDynamicAccount(shop, 100_000, `appr-yes-${RUN}`);
		const [message] = await waitForApprovalMails(ref);

		// what the checker reads
		expect(message.subject).toBe(`Approve payout: NGN 10,000.00 to Sandbox Success Beneficiary (share-${ref})`);
		expect(message.to.map((t) => t.address)).toEqual(['payments-checker@example.com']);
		const html = String(message.html);
		expect(html).toContain('Amount: NGN 10,000.00');
		expect(html).toContain('To: Sandbox Success Beneficiary (the name the bank gives for account 9999991112, bank 044)');
		expect(html).toContain(`Reference: share-${ref}`);
		expect(html).toContain(`Pays from: collection ${ref} of NGN 100,000.00 (10% share), business BUS-2001`);
		expect(html).toContain('every check passed');
		for (const check of ['validation', 'referenceUnused', 'walletBalance', 'bankCode', 'nameEnquiry']) expect(html).toContain(`[ok] ${check}: `);
		expect(html).toContain('Nothing has been sent yet.');
		expect(html).not.toMatch(/[{][{]|undefined|\[object Object\]/);

		// waiting: no transfer, no finished run
		await sleep(1000);
		expect(await shares(ref)).toHaveLength(0);
		expect((await payoutRuns(ref)).filter((e) => ['success', 'error', 'crashed', 'canceled'].includes(String(e.status)))).toHaveLength(0);

		await pictures(message, ref);
		const { approve, decline } = links(message);
		const clicked = Date.now();
		const first = await follow(approve);
		expect(first.status).toBe(200);
		// measured with a tighter probe than until()'s 300 ms
		let transfer: LedgerView['transfers'][number] | undefined;
		while (!transfer && Date.now() - clicked < 60_000) {
			transfer = (await shares(ref))[0];
			if (!transfer) await sleep(25);
		}
		const ms = Date.now() - clicked;
		if (!transfer) throw new Error('the approved transfer did not reach the sandbox within 60 s');
		figures.push(`Approve click -> transfer in the sandbox: ${ms} ms`);
		expect(ms).toBeLessThan(30_000);
		expect(transfer).toMatchObject({ amount: 10_000, currency: 'NGN', beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Sandbox Success Beneficiary' });

		const [run] = await finishedPayoutRuns(ref);
		expect(run.status).toBe('success');
		expect(nodeItems(run, 'Ask for approval')[0]).toMatchObject({ data: { approved: true } });
		expect(nodeItems(run, 'Payout sent')[0]).toMatchObject({ outcome: 'paid', transferReference: `share-${ref}`, amount: 10_000 });
		expect((await receiverFinished(ref)).status).toBe('success');
		// the receiver hands the collection to the notifications after the auto-payout (it waits for each consumer): now
		await until('the payment notification, after the decision', 60_000, async () =>
			(await mailsAbout(ref)).some((m) => m.subject.startsWith('Payment received')) ? true : undefined,
		);

		// the same link again, and the Decline link after the decision: nothing more happens
		const again = await follow(approve);
		const late = await follow(decline);
		await sleep(3000);
		expect(await shares(ref)).toHaveLength(1);
		expect(await payoutRuns(ref)).toHaveLength(1);
		expect(payoutLog(ref).map((l) => l.outcome)).toEqual(['paid']);
		expect(await approvalMails(ref)).toHaveLength(1);
		figures.push(`approve (share NGN 10,000): approval e-mails 1, payouts 1; second Approve answered ${again.status}, late Decline ${late.status}, payouts still 1`);
	});

	it('Decline: nothing is sent; the decision is in the execution and the log', async () => {
		const ref = await payDynamicAccount(shop, 60_000, `appr-no-${RUN}`);
		const [message] = await waitForApprovalMails(ref);
		expect((await follow(links(message).decline)).status).toBe(200);
		const [run] = await finishedPayoutRuns(ref);
		expect(run.status).toBe('success');
		expect(nodeItems(run, 'Ask for approval')[0]).toMatchObject({ data: { approved: false } });
		expect(nodeItems(run, 'Declined')[0]).toMatchObject({ outcome: 'declined', transferReference: `share-${ref}`, amount: 6000 });
		expect((await receiverFinished(ref)).status).toBe('success');
		expect(() => nodeItems(run, 'Pay supplier share')).toThrow();
		// a later Approve on the same e-mail is too late
		const late = await follow(links(message).approve);
		await sleep(3000);
		expect(await shares(ref)).toHaveLength(0);
		expect(payoutLog(ref).map((l) => l.outcome)).toEqual(['declined']);
		figures.push(`decline (share NGN 6,000): approval e-mails ${(await approvalMails(ref)).length}, payouts 0; Approve after Decline answered ${late.status}, payouts still 0`);
	});

	it('the collection delivered again: two approval e-mails, both approved, one payout; a third delivery after it is paid asks nobody', async () => {
		const ref = await payDynamicAccount(shop, 70_000, `appr-twice-${RUN}`);
		await waitForApprovalMails(ref, 1);
		// the same collection reaches the auto-payout again (a second receiver: the first one's trigger suppresses a copy)
		await deliverAgain(otherReceiverUrls[0], ref);
		const [one, two] = await waitForApprovalMails(ref, 2);
		expect(await shares(ref)).toHaveLength(0);

		await follow(links(one).approve);
		await until('the first approval paid', 60_000, async () => ((await shares(ref)).length > 0 ? true : undefined));
		await follow(links(two).approve);
		const runs = await finishedPayoutRuns(ref, 2);
		expect(runs.map((r) => r.status)).toEqual(['success', 'success']);
		await sleep(2000);
		expect(await shares(ref)).toHaveLength(1);
		expect(payoutLog(ref).map((l) => l.outcome).sort()).toEqual(['already paid', 'paid']);

		// delivered once more, now that it is paid: the dry run finds the reference used; no e-mail, nothing sent
		await deliverAgain(otherReceiverUrls[1], ref);
		const third = await finishedPayoutRuns(ref, 3);
		expect(third).toHaveLength(3);
		await sleep(2000);
		expect(await approvalMails(ref)).toHaveLength(2);
		expect(await shares(ref)).toHaveLength(1);
		expect(payoutLog(ref).map((l) => l.outcome).sort()).toEqual(['already paid', 'already paid', 'paid']);
		figures.push(`delivered again (share NGN 7,000): approval e-mails 2 (+0 after paid), approvals 2, payouts 1`);
	});

	it(`no decision within the time limit (${LIMIT_MINUTES} min in this copy): nothing is sent and the approver is told`, async () => {
		const { ref, asked } = await unanswered;
		const [message] = await approvalMails(ref);
		let lastSeen = '';
		const run = await until('the unanswered run resumed by its time limit', 180_000, async () => {
			const [found] = await finishedPayoutRuns(ref);
			lastSeen = `execution ${found.id}: status ${String(found.status)}, ran ${Object.keys(executionData(found).resultData?.runData ?? {}).join(', ')}; error ${String(nodeError(found))}`;
			return found.status === 'error' || Object.keys(executionData(found).resultData?.runData ?? {}).includes('Append to payout log') ? found : undefined;
		}).catch((error: Error) => {
			throw new Error(`${error.message} (last seen: ${lastSeen})`);
		});
		const waited = Date.now() - asked;
		expect(run.status).toBe('success');
		expect(nodeItems(run, 'No decision in time')[0]).toMatchObject({ outcome: 'not approved in time', transferReference: `share-${ref}`, amount: 8000 });
		const [told] = await until('the e-mail saying the payout was not sent', 60_000, async () => {
			const found = (await mailsAbout(ref)).filter((m) => m.subject.startsWith('Payout NOT sent'));
			return found.length > 0 ? found : undefined;
		});
		expect(told.subject).toBe(`Payout NOT sent, no decision in time: share-${ref}`);
		expect(told.text).toContain('Nothing was sent');
		expect((await receiverFinished(ref)).status).toBe('success');
		// the link no longer pays
		const late = await follow(links(message).approve);
		await sleep(3000);
		expect(await shares(ref)).toHaveLength(0);
		expect(payoutLog(ref).map((l) => l.outcome)).toEqual(['not approved in time']);
		figures.push(`timeout (share NGN 8,000): approval e-mails 1, payouts 0, "not sent" e-mails 1; resumed ${(waited / 1000).toFixed(0)} s after the e-mail; Approve after it answered ${late.status}`);
	});
});
