/**
 * Issue 23 in a real n8n (both versions): Simplify from node version 3 (the
 * raw record on version 2, as saved workflows expect), a duplicate transfer
 * named in the user's terms with the existing record visible, and a failed
 * Dry Run shown as a warning hint above the output. Issue 31: the same
 * transfer sent again is a success marked "alreadyDone" on node version 4
 * (point 5); a fresh node's dropdowns say what they wait for (point 1).
 */
import type { IDataObject } from 'n8n-workflow';
import { itemsNode, manualWorkflow, business, NODE, PAYONUS } from '../../dev/workflows';
import { executionData, nodeError, nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { SIMPLE_PAYMENT_FIELDS } from '../../nodes/shared/simplify';
import { sandboxCredentialData } from '../../dev/sandboxCredential';

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

	it('node version 4: the very same transfer sent again is a success item marked outcome "alreadyDone" (issue 31 point 5); a different one stays an error', async () => {
		const v4 = { ...transfer, reference: `ux-again-v4-${stamp}` };
		const first = nodeItems(await e2e.runWorkflow(workflow('ux: v4 transfer', 4, v4, [{}])), NODE);
		expect(String(first[0].onusReference)).toMatch(/^ONUS-TRNF-/);
		const againRun = await e2e.runWorkflow(workflow('ux: v4 transfer again', 4, v4, [{}]));
		expect(nodeError(againRun, NODE)).toBeUndefined();
		const again = nodeItems(againRun, NODE);
		expect(again).toHaveLength(1);
		expect(again[0]).toMatchObject({ outcome: 'alreadyDone', onusReference: first[0].onusReference, merchantReference: v4.reference, amount: 1500, currency: 'NGN' });
		expect(again[0].error).toBeUndefined();
		const different = await e2e.runWorkflow(workflow('ux: v4 different transfer, same reference', 4, { ...v4, amount: 1400 }, [{}]));
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
		const load = async (methodName: string, credentialId: string | undefined, typeVersion: number) =>
			await e2e.n8n.rest<Array<{ name: string; value: string }>>('POST', '/dynamic-node-parameters/options', {
				nodeTypeAndVersion: { name: PAYONUS, version: typeVersion },
				methodName,
				path: 'parameters.currency',
				// What the editor sends for a fresh Create Transfer: the defaults, nothing picked.
				currentNodeParameters: { resource: 'payout', operation: 'createTransfer', transferType: 'WALLET_TO_BANK_ACCOUNT', businessId: { __rl: true, mode: 'list', value: '' }, currency: '' },
				...(credentialId ? { credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } } } : {}),
			});
		const search = async (credentialId: string | undefined) =>
			await e2e.n8n.rest<{ results: Array<{ name: string; value: string }> }>('POST', '/dynamic-node-parameters/resource-locator-results', {
				nodeTypeAndVersion: { name: PAYONUS, version: 4 },
				methodName: 'searchBusinesses',
				path: 'parameters.businessId',
				currentNodeParameters: { resource: 'payout', operation: 'createTransfer' },
				...(credentialId ? { credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } } } : {}),
			});
		await e2e.sb.clearRequests();
		for (const typeVersion of [3, 4]) {
			for (const method of ['getCurrencies', 'getEftBanks', 'getMobileMoneyNetworks', 'getFilterCurrencies']) {
				expect([method, await load(method, undefined, typeVersion)]).toEqual([method, [expect.objectContaining({ name: 'Choose a PayOnUs API credential first', value: '' })]]);
			}
			expect(await load('getBanks', undefined, typeVersion)).toEqual([{ name: 'Pick a Currency first', value: '' }]);
			expect(await load('getCurrencies', bare, typeVersion)).toEqual([{ name: 'Pick a Business first', value: '' }]);
		}
		expect((await search(undefined)).results).toEqual([{ name: 'Choose a PayOnUs API credential first', value: '' }]);
		expect((await search(bare)).results).toEqual([{ name: 'Set a Default Merchant ID in the PayOnUs credential (or choose By ID) first', value: '' }]);
		expect(await e2e.sb.requests()).toEqual([]);
		// With the credential's defaults, Currency lists the default business's wallets.
		const listed = (await load('getCurrencies', e2e.credentialId, 4)).map((o) => o.value);
		expect(listed.length).toBeGreaterThan(0);
		expect(listed).toContain('NGN');
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
