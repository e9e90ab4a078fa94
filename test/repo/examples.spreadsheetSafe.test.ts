/**
 * Issue 36 point 3: nothing the package writes into a CSV runs as a formula.
 * The daily reconciliation example writes a CSV for people: its Code node
 * (run here as n8n would, with the nodes it reads faked) starts every text
 * a spreadsheet would run as a formula with '. On main the cell was written
 * as the service sent it.
 */
import { loadExample } from '../../scripts/lib/examples';

type Json = Record<string, unknown>;

function buildSummary(payments: Json[], transfers: Json[], wallets: Json[]): Json[] {
	const node = loadExample('reconciliation').nodes.find((n) => n.name === 'Build summary');
	const code = String(node?.parameters?.jsCode);
	const outputs: Record<string, Json[]> = {
		Settings: [{ reportDate: '2024-05-10', businessId: 'BUS-2001', outputFolder: '/tmp' }],
		'Payments of the day': payments,
		'Transfers of the day': transfers,
		'Wallet balances': wallets,
	};
	const $ = (name: string) => ({
		first: () => ({ json: outputs[name][0] }),
		all: () => outputs[name].map((json) => ({ json })),
	});
	const run = new Function('$', code) as ($: unknown) => Array<{ json: Json }>;
	return run($)[0].json.rows as Json[];
}

describe('the daily reconciliation CSV', () => {
	it("starts text a spreadsheet would run as a formula with '; numbers and ordinary text stay as they are", () => {
		const rows = buildSummary(
			[{ onusReference: 'ONUS-CARD-1', merchantReference: '=HYPERLINK("http://evil.example","Refund")', paymentChannel: 'CARD', currency: 'NGN', amount: 10, paymentStatus: 'SUCCESSFUL', createdDate: '2024-05-10 10:00:00' }],
			[{ onusReference: 'ONUS-TRNF-1', merchantReference: '@SUM(1+1)', transferType: '+cmd', currency: 'NGN', amount: 5, fee: 0, paymentStatus: 'SUCCESSFUL', createdDate: '2024-05-10 11:00:00' }],
			[{ id: 'W-1', businessName: '-Acme', currency: 'NGN', availableBalance: -3, status: 'ACTIVE' }],
		);
		expect(rows.map((r) => r.merchantReference)).toEqual(["'=HYPERLINK(\"http://evil.example\",\"Refund\")", "'@SUM(1+1)", "'-Acme"]);
		expect(rows[1].channel).toBe("'+cmd");
		expect(rows.map((r) => r.amount)).toEqual([10, 5, -3]);
		expect(rows[0]).toMatchObject({ kind: 'payment', onusReference: 'ONUS-CARD-1', createdDate: '2024-05-10 10:00:00' });
	});
});
