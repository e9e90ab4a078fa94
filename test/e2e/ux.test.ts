/**
 * Issue 23 in a real n8n (both versions): Simplify on by default (the raw
 * record one toggle away), and a failed Dry Run shown as a warning hint above
 * the output. Issue 31: the same transfer sent again is a success marked
 * "alreadyDone", a different one under its reference an error naming the
 * existing transfer (point 5); a fresh node's dropdowns say what they wait
 * for (point 1).
 */
import type { IDataObject } from 'n8n-workflow';
import { itemsNode, manualWorkflow, business, NODE, PAYONUS } from '../../dev/workflows';
import { executionData, nodeError, nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { SIMPLE_PAYMENT_FIELDS } from '../../nodes/shared/simplify';
import { sandboxCredentialData } from '../../dev/sandboxCredential';

describe('issue 23: outputs and errors for people, in n8n', () => {
	const e2e = useSandboxAndN8n('ux');

	function workflow(name: string, parameters: IDataObject, items: IDataObject[], continueOnFail = false) {
		return manualWorkflow(`${name} ${Date.now()}`, [
			itemsNode(items.map((json) => ({ json }))),
			{
				name: NODE,
				type: PAYONUS,
				typeVersion: 1,
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

	it('Get Many Payments: simplified by default (status first), the raw record one toggle away', async () => {
		// A payment to list: a dynamic account.
		await e2e.runWorkflow(
			workflow('ux: a payin', { resource: 'payin', operation: 'createDynamicAccount', businessId: business('BUS-2001'), amount: 2500, reference: `ux-pay-${stamp}`, customerName: 'Ada Obi', customerEmail: 'ada@example.com' }, [{}]),
		);
		const list = { resource: 'payin', operation: 'listPayments', returnAll: false, limit: 1, filters: {} };
		const simplified = nodeItems(await e2e.runWorkflow(workflow('ux: list', list, [{}])), NODE);
		const off = nodeItems(await e2e.runWorkflow(workflow('ux: list raw', { ...list, simplify: false }, [{}])), NODE);
		expect(simplified).toHaveLength(1);
		const simple = Object.keys(simplified[0]);
		const raw = Object.keys(off[0]);
		// The figures of the report: column positions (1-based), raw and simplified.
		console.log(
			`List Payments columns: raw ${raw.length} fields, paymentStatus #${raw.indexOf('paymentStatus') + 1}, onusReference #${raw.indexOf('onusReference') + 1}; ` +
				`simplified ${simple.length} fields, paymentStatus #${simple.indexOf('paymentStatus') + 1}, onusReference #${simple.indexOf('onusReference') + 1}`,
		);
		expect(simple[0]).toBe('paymentStatus');
		expect(simple.length).toBeLessThanOrEqual(10);
		expect(simple.every((k) => (SIMPLE_PAYMENT_FIELDS as readonly string[]).includes(k))).toBe(true);
		expect(raw.length).toBeGreaterThan(30);
		expect(raw.indexOf('paymentStatus')).toBeGreaterThan(10);
	});

	it('the very same transfer sent again is a success item marked outcome "alreadyDone" (issue 31 point 5); a different one stays an error', async () => {
		const v4 = { ...transfer, reference: `ux-again-${stamp}` };
		const first = nodeItems(await e2e.runWorkflow(workflow('ux: transfer', v4, [{}])), NODE);
		expect(String(first[0].onusReference)).toMatch(/^ONUS-TRNF-/);
		const againRun = await e2e.runWorkflow(workflow('ux: transfer again', v4, [{}]));
		expect(nodeError(againRun, NODE)).toBeUndefined();
		const again = nodeItems(againRun, NODE);
		expect(again).toHaveLength(1);
		expect(again[0]).toMatchObject({ outcome: 'alreadyDone', onusReference: first[0].onusReference, merchantReference: v4.reference, amount: 1500, currency: 'NGN' });
		expect(again[0].error).toBeUndefined();
		const different = await e2e.runWorkflow(workflow('ux: different transfer, same reference', { ...v4, amount: 1400 }, [{}]));
		expect(nodeError(different, NODE) ?? '').toMatch(new RegExp(`^Reference "${v4.reference}" is already used by a different transfer`));
		const ledger = await e2e.sb.ledger();
		expect((ledger.transfers as IDataObject[]).filter((t) => t.merchantReference === v4.reference)).toHaveLength(1);
	});

	it('a fresh node: no dropdown shows an error before its prerequisites (issue 31 point 1), with no credential yet and with a credential without defaults', async () => {
		const { id: bare } = await e2e.n8n.createCredential({
			name: `PayOnUs ux no defaults ${Date.now()}`,
			type: 'payOnUsApi',
			data: sandboxCredentialData(e2e.handle.url, { merchantId: '', businessId: '' }),
		});
		const load = async (methodName: string, credentialId: string | undefined) =>
			await e2e.n8n.rest<Array<{ name: string; value: string }>>('POST', '/dynamic-node-parameters/options', {
				nodeTypeAndVersion: { name: PAYONUS, version: 1 },
				methodName,
				path: 'parameters.currency',
				// What the editor sends for a fresh Create Transfer: the defaults, nothing picked.
				currentNodeParameters: { resource: 'payout', operation: 'createTransfer', transferType: 'WALLET_TO_BANK_ACCOUNT', businessId: { __rl: true, mode: 'list', value: '' }, currency: '' },
				...(credentialId ? { credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } } } : {}),
			});
		const search = async (credentialId: string | undefined) =>
			await e2e.n8n.rest<{ results: Array<{ name: string; value: string }> }>('POST', '/dynamic-node-parameters/resource-locator-results', {
				nodeTypeAndVersion: { name: PAYONUS, version: 1 },
				methodName: 'searchBusinesses',
				path: 'parameters.businessId',
				currentNodeParameters: { resource: 'payout', operation: 'createTransfer' },
				...(credentialId ? { credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } } } : {}),
			});
		await e2e.sb.clearRequests();
		for (const method of ['getCurrencies', 'getEftBanks', 'getMobileMoneyNetworks', 'getFilterCurrencies']) {
			expect([method, await load(method, undefined)]).toEqual([method, [expect.objectContaining({ name: 'Choose a PayOnUs API credential first', value: '' })]]);
		}
		expect(await load('getBanks', undefined)).toEqual([{ name: 'Pick a Currency first', value: '' }]);
		expect(await load('getCurrencies', bare)).toEqual([{ name: 'Pick a Business first', value: '' }]);
		expect((await search(undefined)).results).toEqual([{ name: 'Choose a PayOnUs API credential first', value: '' }]);
		expect((await search(bare)).results).toEqual([{ name: 'Set a Default Merchant ID in the PayOnUs credential (or choose By ID) first', value: '' }]);
		expect(await e2e.sb.requests()).toEqual([]);
		// With the credential's defaults, Currency lists the default business's wallets.
		const listed = (await load('getCurrencies', e2e.credentialId)).map((o) => o.value);
		expect(listed.length).toBeGreaterThan(0);
		expect(listed).toContain('NGN');
	});

	it('a failed Dry Run: a warning hint above the output naming the item and the problem', async () => {
		const execution = await e2e.runWorkflow(workflow('ux: dry run', { ...transfer, reference: `ux-dry-${stamp}`, amount: 999_999_999, dryRun: true }, [{}]));
		const out = nodeItems(execution, NODE);
		expect((out[0].dryRun as IDataObject).passed).toBe(false);
		const runs = executionData(execution).resultData?.runData?.[NODE] ?? [];
		const hints = ((runs[0] as unknown as { hints?: IDataObject[] }).hints ?? []) as IDataObject[];
		expect(hints).toEqual([
			expect.objectContaining({ type: 'warning', message: expect.stringMatching(/^Dry Run FAILED for 1 of 1 item \(nothing was sent\)\. First problem \[item 0\]: walletBalance: NGN [\d,]+\.\d\d available; this item needs NGN 999,999,999\.00/) }),
		]);
	});
});
