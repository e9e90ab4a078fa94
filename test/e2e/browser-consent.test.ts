/**
 * The card-on-file example with a real browser: headless Chromium (Debian's
 * /usr/bin/chromium, driven by playwright-core) plays the customer on the
 * sandbox's tokenization consent page (the link's `url`), the way a person
 * would: types a card that is declined, sees the message, types a good card,
 * ticks the consent box and saves. The workflow then charges the stored card.
 */
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { SandboxClient, type LedgerView } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { launchChromium } from '../../dev/chromium';
import { nodeItems, sharedN8n, type N8nClient } from '../harness/e2e';
import { SMTP_CREDENTIAL_TYPE, importEventExamples, webhookNodePaths } from '../../scripts/lib/examples';
import { startMailCatcher, smtpCredentialData, type MailCatcher } from '../../dev/mailCatcher';
import { credentialData } from '../../scripts/lib/provision';
import { sleep } from '../../dev/wait';

jest.setTimeout(300_000);

const RUN = randomBytes(4).toString('hex');
const KEY = `browser-e2e-key-${RUN}`;

let sb: SandboxHandle;
let n8n: N8nClient;
let browser: Browser;
let workflowId: string;
let workflowIds: string[] = [];
let mail: MailCatcher;
let startUrl: string;

async function ledger(): Promise<LedgerView> {
	return await new SandboxClient(sb.url).ledger();
}

beforeAll(async () => {
	browser = await launchChromium();
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	const name = `PayOnUs browser e2e ${RUN}`;
	const credential = await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, KEY) });
	// the card-on-file consumer behind the receiving workflow, as a user sets them up
	mail = await startMailCatcher();
	const smtp = await n8n.createCredential({ name: `${name} mail`, type: SMTP_CREDENTIAL_TYPE, data: smtpCredentialData(mail) });
	const imported = await importEventExamples(n8n, {
		credential: { id: credential.id, name },
		smtpCredential: { id: smtp.id, name: `${name} mail` },
		suffix: `browser e2e ${RUN}`,
	});
	workflowIds = Object.values(imported.ids);
	workflowId = imported.ids.cardOnFile;
	const triggerPath = imported.receiverPath;
	const [startPath] = webhookNodePaths(imported.workflows.cardOnFile as never);
	startUrl = n8n.webhookUrl(startPath);
	const settings = await new SandboxClient(sb.url).setWebhooks({ url: n8n.webhookUrl(triggerPath), verificationKey: KEY });
	expect(settings).toMatchObject({ url: n8n.webhookUrl(triggerPath), verificationKey: KEY });
});

afterAll(async () => {
	await browser?.close();
	for (const id of workflowIds) await n8n.deactivate(id).catch(() => undefined);
	await mail?.stop();
	await sb?.stop();
});

it('a customer stores a card on the consent page in Chromium and the workflow charges it', async () => {
	const signUp = await fetch(startUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Amara Nwosu', email: 'amara@example.com', customerId: `browser-${RUN}` }),
	});
	expect(signUp.status).toBe(200);
	const link = (await signUp.json()) as { linkId: string; url: string };

	const page = await browser.newPage();
	await page.goto(link.url);
	await expect(page.locator('h1').textContent()).resolves.toBe('Save your card for Acme Stores');
	expect(await page.textContent('body')).toContain('Amara Nwosu');

	// first a card the gateway declines: the page says so and the link stays usable
	await page.fill('#cardNumber', '4000 0000 0000 0002');
	await page.fill('#expiry', '12/30');
	await page.fill('#cvv', '123');
	await page.check('input[name="consent"]');
	await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
	expect(await page.textContent('[role="status"]')).toMatch(/declin/i);
	expect((await ledger()).links.find((l) => l.id === link.linkId)?.status).toBe('PENDING');

	// then the good test card
	await page.fill('#cardNumber', '4111 1111 1111 1111');
	await page.fill('#expiry', '12/30');
	await page.fill('#cvv', '123');
	await page.check('input[name="consent"]');
	await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
	await expect(page.locator('h1').textContent()).resolves.toBe('Card saved');
	await page.close();

	// the workflow heard of it and charged the stored card, once
	const deadline = Date.now() + 60_000;
	let charges: Awaited<ReturnType<typeof ledger>>['payins'] = [];
	while (Date.now() < deadline) {
		charges = (await ledger()).payins.filter((p) => (p.reference ?? p.merchantReference) === `first-charge-${link.linkId}`);
		if (charges.length > 0) break;
		await sleep(300);
	}
	expect(charges).toHaveLength(1);
	expect(charges[0]).toMatchObject({ amount: 5000, paymentStatus: 'SUCCESSFUL' });
	const stored = (await ledger()).links.find((l) => l.id === link.linkId)!;
	expect(stored.status).toBe('COMPLETED');

	const [execution] = await n8n.waitForExecutions(workflowId, 2, 30_000).then((all) =>
		all.filter((e) => {
			try {
				return nodeItems(e, 'Card stored')[0]?.cardTokenizationLinkId === link.linkId;
			} catch {
				return false;
			}
		}),
	);
	expect(nodeItems(execution, 'Subscription active')[0]).toMatchObject({
		outcome: 'charged',
		chargeReference: charges[0].onusReference,
	});
});
