/**
 * `npm run customer`: plays the customers against a running `npm start`, so
 * the example workflows visibly run.
 *
 *   1. A shopper pays a dynamic NGN account (the merchant's shop creates the
 *      account through the API; the sandbox's fund simulation is the bank
 *      transfer) -> COLLECTION -> the receiving workflow hands it to
 *      "Auto-payout on collection", which pays the supplier's share, and to
 *      "Payment notifications", which e-mails the collection and the payout
 *      (the mail catcher's inbox).
 *   2. A customer approves a KES mobile money charge on their phone (the
 *      sandbox control API stands in for the phone) -> COLLECTION ->
 *      notification; the auto-payout skips it (only NGN is shared).
 *   3. A new subscriber signs up ("Card on file" webhook answers with a consent
 *      link) and stores a card on the consent page (a form post, as the
 *      browser sends it) -> card_tokenization_link.completed -> the workflow
 *      charges the stored card.
 *
 * The shop's API calls use `sandbox-client-2`, a separate API client of the
 * same merchant, so the token n8n holds for `sandbox-client-1` stays valid
 * (the service keeps one valid token per client).
 *
 * Options: --folder DIR (the `npm start` folder; addresses are read from its
 * start-state.json), --no-wait (do not wait for the workflows' results).
 */
import { SandboxClient } from '../sandbox/client';
import { SandboxApi as Shop } from '../dev/sandboxScenarios';
import { readState, resolveFolder, type StartState } from './lib/state';

const BUSINESS = 'BUS-2001';
const TEST_CARD = { cardNumber: '4111 1111 1111 1111', expiry: '12/30', cvv: '123' };

function say(line = ''): void {
	process.stdout.write(`${line}\n`);
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The merchant's shop: the sandbox client (sandbox/client.ts) as API client 2 (dev/sandboxScenarios.ts). */
export { Shop };

/** A dynamic NGN account created by the shop and paid by the shopper (fund simulation). */
export async function payDynamicAccount(shop: Shop, amount: number, tag: string): Promise<string> {
	const account = await shop.api<{ accountNumber: string; onusReference: string; bankName: string }>(
		'POST',
		'/api/v1/virtual-accounts/dynamic',
		{
			amount,
			reference: `order-${tag}`,
			businessId: BUSINESS,
			customer: { name: 'Ada Obi', email: 'ada.obi@example.com', phone: '+2348012345678' },
		},
	);
	await shop.api('POST', '/api/v1/fund-ngn-account', {
		onusReference: account.onusReference,
		accountNumber: account.accountNumber,
		amount,
		paymentStatus: 'SUCCESSFUL',
		forDynamicAccount: true,
	});
	return account.onusReference;
}

/** A KES mobile money charge, approved by the customer (the control API plays the phone). */
export async function approveMobileMoney(shop: Shop, amount: number, tag: string): Promise<string> {
	const charge = await shop.api<{ onusReference: string; paymentStatus: string }>(
		'POST',
		'/api/v1/mobile-money/collection',
		{
			amount,
			reference: `momo-${tag}`,
			businessId: BUSINESS,
			narration: 'Delivery fee',
			momoNetwork: 'MPESA_KE',
			customer: {
				name: 'Wanjiru Kamau',
				email: 'wanjiru@example.com',
				phone: '+254711000222',
				address: { city: 'Nairobi', postalCode: '00100', countryCode: 'KE' },
			},
		},
	);
	await shop.approvePayin(charge.onusReference);
	return charge.onusReference;
}

/**
 * Submits the consent page's form the way a browser does (urlencoded POST to
 * the form's action), with the sandbox's test card that gets saved.
 */
export async function completeConsentPage(linkUrl: string): Promise<string> {
	const page = await fetch(linkUrl);
	const html = await page.text();
	if (!page.ok) throw new Error(`consent page ${linkUrl} answered ${page.status}`);
	const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
	if (!action) throw new Error('the consent page has no form (link not PENDING?)');
	const form = new URLSearchParams({ ...TEST_CARD, consent: 'yes' });
	const answer = await fetch(new URL(action.replace(/&amp;/g, '&'), linkUrl), {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: form.toString(),
	});
	const result = await answer.text();
	const title = /<h1>([^<]*)<\/h1>/.exec(result)?.[1] ?? `HTTP ${answer.status}`;
	return title;
}

async function signUp(startUrl: string, tag: string): Promise<{ linkId: string; url: string }> {
	const res = await fetch(startUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Kofi Mensah', email: 'kofi.mensah@example.com', customerId: `cust-${tag}` }),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`the "Card on file" webhook answered ${res.status}: ${text.slice(0, 300)}`);
	const body = JSON.parse(text) as { linkId?: string; url?: string };
	if (!body.url || !body.linkId) throw new Error(`the "Card on file" webhook gave no link: ${text.slice(0, 300)}`);
	return { linkId: body.linkId, url: body.url };
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const found = await probe();
		if (found !== undefined) return found;
		await sleep(500);
	}
	say(`  (no ${what} after ${timeoutMs / 1000} s: look at Executions in n8n)`);
	return undefined;
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const folderArg = argv.includes('--folder') ? argv[argv.indexOf('--folder') + 1] : undefined;
	const folder = resolveFolder(folderArg);
	const state: StartState | undefined = readState(folder);
	if (!state?.sandboxUrl || !state.n8nUrl) {
		throw new Error(`no running demo found in ${folder}: start it first with \`npm start\``);
	}
	const alive = await new SandboxClient(state.sandboxUrl).clock().then(
		() => true,
		() => false,
	);
	if (!alive) throw new Error(`the sandbox at ${state.sandboxUrl} does not answer: is \`npm start\` running?`);

	const shop = new Shop(state.sandboxUrl);
	const tag = Date.now().toString(36);

	say('1. A shopper pays NGN 25,000 into a dynamic account...');
	const nub = await payDynamicAccount(shop, 25000, tag);
	say(`   paid: ${nub}`);

	say('2. A customer approves a KES 1,500 M-Pesa charge on their phone...');
	const mmo = await approveMobileMoney(shop, 1500, tag);
	say(`   approved: ${mmo}`);

	let link: { linkId: string; url: string } | undefined;
	if (state.cardOnFileStartUrl) {
		say('3. A subscriber signs up and gets a card consent link from the "Card on file" workflow...');
		link = await signUp(state.cardOnFileStartUrl, tag);
		say(`   link: ${link.url}`);
		const outcome = await completeConsentPage(link.url);
		say(`   consent page says: "${outcome}"`);
	} else {
		say('3. skipped: the "Card on file" workflow has no start webhook');
	}

	if (argv.includes('--no-wait')) return;
	say('');
	say('Waiting for the workflows...');
	const ledger = async () => await shop.ledger();
	const payout = await waitFor('supplier payout', 30000, async () =>
		(await ledger()).transfers.find((t) => t.merchantReference === `share-${nub}`),
	);
	if (payout) say(`  supplier share paid: ${payout.currency} ${payout.amount} (${payout.paymentStatus}), reference share-${nub}`);
	if (link) {
		const charge = await waitFor('card charge', 30000, async () =>
			(await ledger()).payins.find(
				(p) => p.paymentChannel === 'CARD' && (p.reference ?? p.merchantReference) === `first-charge-${link!.linkId}`,
			),
		);
		if (charge) say(`  stored card charged: NGN ${charge.amount} (${charge.paymentStatus}), ${charge.onusReference}`);
	}
	await sleep(1500);
	if (state.mailUrl) {
		try {
			const mails = (await (await fetch(`${state.mailUrl}api/email`)).json()) as Array<{ subject: string }>;
			say(`  e-mails in the inbox ${state.mailUrl} (last ones):`);
			for (const mail of mails.slice(-4)) say(`    ${mail.subject}`);
		} catch (error) {
			say(`  the mail inbox ${state.mailUrl} did not answer (${(error as Error).message})`);
		}
	}
	say('');
	say(`Open ${state.n8nUrl}/home/executions to see each run.`);
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`npm run customer failed: ${(error as Error).message}\n`);
		process.exit(1);
	});
}
