/**
 * Issue 23 in a real n8n (both versions): Simplify from node version 3 (the
 * raw record on version 2, as saved workflows expect), a duplicate transfer
 * named in the user's terms with the existing record visible, and a failed
 * Dry Run shown as a warning hint above the output.
 */
import type { IDataObject } from 'n8n-workflow';
import { itemsNode, manualWorkflow, business, NODE, PAYONUS } from '../../dev/workflows';
import { executionData, nodeError, nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { SIMPLE_PAYMENT_FIELDS } from '../../nodes/shared/simplify';

describe('issue 23: outputs and errors for people, in n8n', () => {
	const e2e = useSandboxAndN8n('ux');

	function workflow(name: string, typeVersion: number, parameters: IDataObject, items: IDataObject[], continueOnFail = false) {
		return manualWorkflow(`${name} ${Date.now()}`, [
			itemsNode(items.map((json) => ({ json }))),
			{
				name: NODE,
				type: PAYONUS,
				typeVersion,
				parameters,
				credentials: { payOnUsApi: { id: e2e.credentialId, name: 'PayOnUs e2e' } },
				...(continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			},
		]);
	}

	const stamp = Date.now().toString(36);
	const transfer: IDataObject = {
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: business('BUS-2001'),
		amount: 1500,
		currency: 'NGN',
		reference: `ux-dup-${stamp}`,
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Sandbox Success Beneficiary',
		narration: 'UX test',
	};

	it('Get Many Payments: version 3 simplifies by default (status first), version 2 keeps the raw record', async () => {
		// A payment to list: a dynamic account.
		await e2e.runWorkflow(
			workflow('ux: a payin', 3, { resource: 'payin', operation: 'createDynamicAccount', businessId: business('BUS-2001'), amount: 2500, reference: `ux-pay-${stamp}`, customerName: 'Ada Obi', customerEmail: 'ada@example.com' }, [{}]),
		);
		const list = { resource: 'payin', operation: 'listPayments', returnAll: false, limit: 1, filters: {} };
		const v3 = nodeItems(await e2e.runWorkflow(workflow('ux: list v3', 3, list, [{}])), NODE);
		const v2 = nodeItems(await e2e.runWorkflow(workflow('ux: list v2', 2, list, [{}])), NODE);
		const off = nodeItems(await e2e.runWorkflow(workflow('ux: list v3 raw', 3, { ...list, simplify: false }, [{}])), NODE);
		expect(v3).toHaveLength(1);
		const simple = Object.keys(v3[0]);
		const raw = Object.keys(v2[0]);
		// The figures of the report: column positions (1-based) before and after.
		console.log(
			`List Payments columns: raw (v2) ${raw.length} fields, paymentStatus #${raw.indexOf('paymentStatus') + 1}, onusReference #${raw.indexOf('onusReference') + 1}; ` +
				`simplified (v3) ${simple.length} fields, paymentStatus #${simple.indexOf('paymentStatus') + 1}, onusReference #${simple.indexOf('onusReference') + 1}`,
		);
		expect(simple[0]).toBe('paymentStatus');
		expect(simple.length).toBeLessThanOrEqual(10);
		expect(simple.every((k) => (SIMPLE_PAYMENT_FIELDS as readonly string[]).includes(k))).toBe(true);
		expect(raw.length).toBeGreaterThan(30);
		expect(raw.indexOf('paymentStatus')).toBeGreaterThan(10);
		// Raw output one toggle away: the same record as version 2.
		expect(off[0]).toEqual(v2[0]);
	});

	it('a transfer sent twice: "Already paid" with the transfer, its status and amount; the existing record in the error item', async () => {
		const first = nodeItems(await e2e.runWorkflow(workflow('ux: transfer', 3, transfer, [{}])), NODE);
		expect(String(first[0].onusReference)).toMatch(/^ONUS-TRNF-/);

		const again = await e2e.runWorkflow(workflow('ux: transfer again', 3, transfer, [{}]));
		const title = nodeError(again, NODE) ?? '';
		// (The status is the transfer's current one: PENDING or SUCCESSFUL by then.)
		expect(title).toMatch(new RegExp(`^Already paid: reference "ux-dup-${stamp}" is transfer ${String(first[0].onusReference)} \\((PENDING|SUCCESSFUL), NGN 1,500\\.00\\)$`));
		console.log(`Duplicate transfer title: ${title}`);
		expect(title).not.toMatch(/\/api\/|409|failed with/);
		const runs = executionData(again).resultData?.runData?.[NODE] ?? [];
		const error = runs[runs.length - 1].error as IDataObject & { description?: string; context?: IDataObject };
		expect(error.description).toMatch(/nothing was sent again/);

		const continued = nodeItems(await e2e.runWorkflow(workflow('ux: transfer again, continue', 3, transfer, [{}], true)), NODE);
		expect(continued[0]).toMatchObject({ outcome: 'alreadyDone', existingRecord: { onusReference: first[0].onusReference } });
		expect(String(continued[0].error)).toMatch(/^Already paid: .* \[item 0\]$/);
		const ledger = await e2e.sb.ledger();
		expect((ledger.transfers as IDataObject[]).filter((t) => t.merchantReference === `ux-dup-${stamp}`)).toHaveLength(1);
	});

	it('a failed Dry Run: a warning hint above the output naming the item and the problem', async () => {
		const execution = await e2e.runWorkflow(workflow('ux: dry run', 3, { ...transfer, reference: `ux-dry-${stamp}`, amount: 999_999_999, dryRun: true }, [{}]));
		const out = nodeItems(execution, NODE);
		expect((out[0].dryRun as IDataObject).passed).toBe(false);
		const runs = executionData(execution).resultData?.runData?.[NODE] ?? [];
		const hints = ((runs[0] as unknown as { hints?: IDataObject[] }).hints ?? []) as IDataObject[];
		expect(hints).toEqual([
			expect.objectContaining({ type: 'warning', message: expect.stringMatching(/^Dry Run FAILED for 1 of 1 item \(nothing was sent\)\. First problem \[item 0\]: walletBalance: NGN [\d,]+\.\d\d available; this item needs NGN 999,999,999\.00/) }),
		]);
	});
});
