/**
 * Dry Run in a real n8n against the sandbox: the items report what would be
 * sent and each check, and the sandbox's request log shows no POST to a
 * transfer or charge path (only reads and name enquiries).
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { business, NODE, payOnUsWorkflow } from '../../dev/workflows';

const MONEY_PATHS = /transfer-requests\/(bank-transfer|bulk)|card-payments|mobile-money\/collection|eft-payment$/;

describe('PayOnUs Dry Run in n8n', () => {
	const e2e = useSandboxAndN8n('dry-run');

	it('checks transfers and charges and sends nothing that moves money', async () => {
		await e2e.sb.clearRequests();
		const stamp = Date.now().toString(36);
		const params: IDataObject = {
			resource: 'payout',
			operation: 'createTransfer',
			transferType: '={{ $json.transferType }}',
			businessId: business('BUS-2001'),
			amount: '={{ $json.amount }}',
			currency: '={{ $json.currency }}',
			countryCode: '={{ $json.countryCode }}',
			reference: '={{ $json.reference }}',
			beneficiaryBankCode: '={{ $json.bank }}',
			eftBank: '={{ $json.eftBank }}',
			beneficiaryAccountNumber: '={{ $json.account }}',
			momoNetwork: '={{ $json.network }}',
			beneficiaryPhoneNumber: '={{ $json.phone }}',
			beneficiaryAccountName: '={{ $json.name }}',
			narration: 'Dry run',
			dryRun: true,
		};
		const bank = { transferType: 'WALLET_TO_BANK_ACCOUNT', amount: 1500.5, currency: 'NGN', countryCode: 'NG', reference: `dry-${stamp}`, bank: '044', account: '9999991112', name: 'Sandbox Success Beneficiary' };
		const items = [
			bank,
			{ ...bank, reference: `dry2-${stamp}`, name: 'Somebody Else' },
			{ ...bank, transferType: 'WALLET_TO_MOMO', currency: 'KES', countryCode: 'KE', reference: `dry3-${stamp}`, network: 'MPESA_KE', phone: '254700000000', bank: '', account: '', amount: 10 },
			{ ...bank, amount: 0 },
		].map((json) => ({ json }));
		const execution = await e2e.runWorkflow(payOnUsWorkflow('dry run e2e: transfers', e2e.credentialId, params, items));
		const out = nodeItems(execution, NODE).map((o) => o.dryRun as IDataObject);
		expect(out).toHaveLength(4);
		const checks = (i: number) => Object.fromEntries((out[i].checks as IDataObject[]).map((c) => [c.check, c.passed]));
		expect(out[0]).toMatchObject({ passed: true, moneyMoved: false, currency: 'NGN', wouldSend: { path: '/api/v1/transfer-requests/bank-transfer' } });
		expect(checks(0)).toEqual({ validation: true, referenceUnused: true, walletBalance: true, bankCode: true, nameEnquiry: true });
		expect(out[1].passed).toBe(false);
		expect(checks(1).nameEnquiry).toBe(false);
		expect(out[2]).toMatchObject({ currency: 'KES', passed: true });
		expect(out[3]).toMatchObject({ passed: false, checks: [{ check: 'validation', passed: false }] });
		expect(out[0].runTotals).toEqual({ NGN: 3001, KES: 10 });

		const requests = await e2e.sb.requests();
		expect(requests.filter((r) => r.method !== 'GET' && MONEY_PATHS.test(String(r.path)))).toEqual([]);
		expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
			'/api/v1/transfer-requests/name-enquiry',
			'/api/v1/transfer-requests/name-enquiry',
		]);
		const ledger = await e2e.sb.ledger();
		expect((ledger.transfers as IDataObject[]).map((t) => t.merchantReference)).not.toContain(`dry-${stamp}`);
	});

	it('a tokenized card charge in dry run is not sent', async () => {
		await e2e.sb.clearRequests();
		const params: IDataObject = {
			resource: 'payin',
			operation: 'chargeTokenizedCard',
			businessId: business('BUS-2001'),
			cardTokenId: 'TOKEN-DOES-NOT-MATTER',
			amount: 25,
			reference: `dry-tok-${Date.now().toString(36)}`,
			dryRun: true,
		};
		const execution = await e2e.runWorkflow(payOnUsWorkflow('dry run e2e: token charge', e2e.credentialId, params, [{ json: {} }]));
		const [item] = nodeItems(execution, NODE);
		expect(item.dryRun).toMatchObject({ operation: 'payin:chargeTokenizedCard', moneyMoved: false, runTotals: { NGN: 25 } });
		expect(JSON.stringify(item)).not.toContain('TOKEN-DOES-NOT-MATTER');
		const requests = await e2e.sb.requests();
		expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
	});
});
