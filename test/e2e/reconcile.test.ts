/**
 * Reconcile in a real n8n against the sandbox: transfers made through the
 * API, our records as input items, one output item per record in one
 * category.
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { NODE, payOnUsWorkflow } from '../../dev/workflows';

describe('PayOnUs Reconcile in n8n', () => {
	const e2e = useSandboxAndN8n('reconcile');

	it('sorts our records and the service transfers of the day into categories', async () => {
		const stamp = Date.now().toString(36);
		const pay = async (reference: string, amount: number) =>
			await e2e.sb.api('POST', '/api/v1/transfer-requests/bank-transfer', {
				transferType: 'WALLET_TO_BANK_ACCOUNT',
				amount,
				currency: 'NGN',
				countryCode: 'NG',
				reference,
				narration: 'reconcile e2e',
				businessId: 'BUS-2001',
				beneficiaryAccountNumber: '9999991112',
				beneficiaryAccountName: 'Sandbox Success Beneficiary',
				beneficiaryBankCode: '044',
			});
		const made = await pay(`rec-a-${stamp}`, 100);
		await pay(`rec-b-${stamp}`, 250);
		await pay(`rec-c-${stamp}`, 75);
		const today = String(made.createdDate ?? new Date().toISOString()).slice(0, 10);
		const items = [
			{ reference: `rec-a-${stamp}`, amount: 100, currency: 'NGN' },
			{ reference: `rec-b-${stamp}`, amount: 205, currency: 'NGN' },
			{ reference: `rec-missing-${stamp}`, amount: 1 },
		].map((json) => ({ json }));
		const params: IDataObject = {
			resource: 'reconciliation',
			operation: 'reconcile',
			records: 'payouts',
			businessId: 'BUS-2001',
			fromDate: today,
			toDate: today,
		};
		const out = nodeItems(await e2e.runWorkflow(payOnUsWorkflow('reconcile e2e', e2e.credentialId, params, items)), NODE);
		const mine = Object.fromEntries(out.filter((o) => String(o.reference).endsWith(stamp)).map((o) => [o.reference, o.category]));
		expect(mine).toEqual({
			[`rec-a-${stamp}`]: 'matched',
			[`rec-b-${stamp}`]: 'amountDiffers',
			[`rec-c-${stamp}`]: 'missingOnOurSide',
			[`rec-missing-${stamp}`]: 'missingAtService',
		});
		const reads = (await e2e.sb.requests()).filter((r) => r.path === '/api/v1/transfer-requests' && r.method === 'GET');
		expect(reads.length).toBeGreaterThan(0);
	});
});
