/**
 * A parameter whose expression only names a field of the item
 * (`={{ $json.amount }}`) is read from the item by the node when n8n would
 * give exactly that value (nodes/PayOnUs/run/parameters.ts itemField), and
 * evaluated by n8n otherwise. Here, in a real n8n (its own expression
 * runtime: an isolate on 2.41), the same Dry Run over items of every kind a
 * spreadsheet or a form gives (numbers for account numbers, a decimal
 * comma, blanks, true/false, missing fields) is run twice: once with
 * `$json.field` (read from the item where it can be) and once with
 * `$json["field"]` (always n8n's evaluation). Both must report the same,
 * item by item: the same checks, the same refusals naming item and field.
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { business, NODE, payOnUsWorkflow } from '../../dev/workflows';

const FIELDS = ['transferType', 'amount', 'currency', 'countryCode', 'reference', 'bank', 'eftBank', 'account', 'network', 'phone', 'name'] as const;
const PARAMETER: Record<(typeof FIELDS)[number], string> = {
	transferType: 'transferType',
	amount: 'amount',
	currency: 'currency',
	countryCode: 'countryCode',
	reference: 'reference',
	bank: 'beneficiaryBankCode',
	eftBank: 'eftBank',
	account: 'beneficiaryAccountNumber',
	network: 'momoNetwork',
	phone: 'beneficiaryPhoneNumber',
	name: 'beneficiaryAccountName',
};

describe('a field of the item read by the node or evaluated by n8n: the same outcome', () => {
	const e2e = useSandboxAndN8n('item-field');

	it('Dry Run of transfers gives the same report for every item either way', async () => {
		const stamp = Date.now().toString(36);
		const good = { transferType: 'WALLET_TO_BANK_ACCOUNT', amount: 1500.5, currency: 'NGN', countryCode: 'NG', reference: `if-${stamp}`, bank: '044', account: '9999991112', name: 'Sandbox Success Beneficiary' };
		const items: IDataObject[] = [
			good,
			{ ...good, reference: `if2-${stamp}`, amount: '1500.50' },
			{ ...good, reference: `if3-${stamp}`, amount: '150,50' },
			{ ...good, reference: `if4-${stamp}`, account: 123456789 },
			{ ...good, reference: `if5-${stamp}`, account: '0123456789' },
			{ ...good, reference: '' },
			{ ...good, reference: `  if6-${stamp}  ` },
			{ ...good, reference: `if7-${stamp}`, amount: true },
			{ ...good, reference: `if8-${stamp}`, currency: 'ngn' },
			{ ...Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'amount')), reference: `if9-${stamp}` },
			{ ...good, reference: `if10-${stamp}`, amount: null },
			{ ...good, reference: `if11-${stamp}`, name: 'Somebody Else' },
		];
		const run = async (form: (field: string) => string) => {
			const params: IDataObject = { resource: 'payout', operation: 'createTransfer', businessId: business('BUS-2001'), narration: 'Item field', dryRun: true };
			for (const field of FIELDS) params[PARAMETER[field]] = `={{ ${form(field)} }}`;
			const execution = await e2e.runWorkflow(payOnUsWorkflow(`item field e2e: ${form('x')}`, e2e.credentialId, params, items.map((json) => ({ json }))));
			return nodeItems(execution, NODE);
		};
		const fromItem = await run((f) => `$json.${f}`);
		const byN8n = await run((f) => `$json["${f}"]`);
		expect(fromItem).toHaveLength(items.length);
		expect(fromItem).toEqual(byN8n);
		// The forms are not all accepted: the comparison covers refusals as well as reports.
		const passed = fromItem.map((o) => (o.dryRun as IDataObject | undefined)?.passed ?? 'error');
		expect(passed).toContain(true);
		expect(passed.filter((p) => p !== true).length).toBeGreaterThanOrEqual(5);
	});
});
