/**
 * Wallet: List Wallets of the PayOnUs node in a real n8n against the sandbox.
 * One workflow: items with different filters (and bad ones, continueOnFail).
 *
 * Run: npm run build && npx jest --selectProjects e2e test/e2e/wallet.test.ts -i
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { NODE, payOnUsWorkflow } from '../../dev/workflows';

const e2e = useSandboxAndN8n('wallet', { credentialName: 'PayOnUs wallet e2e' });

it('List Wallets: one item per wallet with balance, lien and payout flag; filters; bad filters refused', async () => {
	const id = await e2e.createWorkflow(
		payOnUsWorkflow(
			'wallet e2e: list wallets',
			e2e.credentialId,
			{
				resource: 'wallet',
				operation: 'listWallets',
				merchantId: '={{ $json.merchantId }}',
				filters: { businessId: '={{ $json.businessId }}', currency: '={{ $json.currency }}' },
			},
			[
				{ json: { merchantId: 'MER-1001' } }, // every wallet
				{ json: { merchantId: 'MER-1001', businessId: 'BUS-2002' } },
				{ json: { merchantId: 'MER-1001', currency: 'usd' } },
				{ json: { merchantId: 'MER-1001', currency: 'US' } },
				{ json: { merchantId: 'MER 1001' } },
				// an expression that gives nothing is never filled by the credential's default merchant (rule 5)
				{ json: { merchantId: '' } },
			].map((i) => ({ json: i.json as IDataObject })),
			{ continueOnFail: true },
		),
	);
	await e2e.sb.clearRequests();
	const execution = await e2e.n8n.runWorkflow(id);
	const items = nodeItems(execution, NODE);
	const wallets = items.filter((i) => i.error === undefined);
	const errors = items.filter((i) => i.error !== undefined).map((i) => i.error);

	// Seed: BUS-2001 NGN, KES, ZAR, USD; BUS-2002 NGN, ZAR; BUS-2003 NGN
	const all = wallets.slice(0, 7);
	expect(all.map((w) => `${String(w.entityId)}/${String(w.currency)}`).sort()).toEqual(
		['BUS-2001/NGN', 'BUS-2001/KES', 'BUS-2001/ZAR', 'BUS-2001/USD', 'BUS-2002/NGN', 'BUS-2002/ZAR', 'BUS-2003/NGN'].sort(),
	);
	for (const w of all) {
		expect(w).toMatchObject({ availableBalance: 10000000, status: 'ACTIVE', entityType: 'BUSINESS' });
		expect(w).toHaveProperty('lienAmount');
		expect(w).toHaveProperty('payoutAllowed');
	}
	expect(wallets.slice(7, 9).map((w) => `${String(w.entityId)}/${String(w.currency)}`).sort()).toEqual(['BUS-2002/NGN', 'BUS-2002/ZAR']);
	expect(wallets.slice(9).map((w) => `${String(w.entityId)}/${String(w.currency)}`)).toEqual(['BUS-2001/USD']);
	expect(wallets).toHaveLength(10);
	expect(errors).toEqual([
		'"Currency" must be a 3-letter currency code such as NGN, KES or ZAR [item 3]',
		'"Merchant ID" must be an identifier without spaces or slashes, e.g. MER-1001 [item 4]',
		'"Merchant ID" came out empty: {{ $json.merchantId }} gave empty text "" [item 5]',
	]);
	// paired items: every wallet of the first run is paired with item 0
	const runData = (execution.data as { resultData: { runData: Record<string, Array<{ data: { main: Array<Array<{ pairedItem: { item: number } }>> } }>> } })
		.resultData.runData[NODE][0].data.main[0];
	expect(runData.map((o) => o.pairedItem.item)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5]);

	const requests = await e2e.sb.requests();
	expect(requests.map((r) => [r.method, r.path])).toEqual([
		['GET', '/api/v1/merchants/MER-1001/wallets'],
		['GET', '/api/v1/merchants/MER-1001/wallets'],
		['GET', '/api/v1/merchants/MER-1001/wallets'],
	]);
});
