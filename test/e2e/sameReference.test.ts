/**
 * Issue 22 point 6 and issue 24 in a real n8n: two items sharing a reference
 * at Money-Moving Concurrency above 1, the first POST answered 503 (held
 * 300 ms, before processing) while the second could land. One transfer; the
 * first item reports it, the second (the very same transfer) reports it as
 * already done. At Money-Moving Concurrency 2, and at its default.
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { itemsNode, manualWorkflow, business, NODE, PAYONUS } from '../../dev/workflows';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';

const PATH = '/api/v1/transfer-requests/bank-transfer';

describe('two items, one reference, at Money-Moving Concurrency above 1', () => {
	const e2e = useSandboxAndN8n('same reference', { clearRequestsBeforeEach: true });

	const parameters = (options?: IDataObject): IDataObject => ({
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: business('BUS-2001'),
		amount: 100,
		currency: 'NGN',
		countryCode: 'NG',
		reference: '={{ $json.reference }}',
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Sandbox Success Beneficiary',
		narration: 'same reference',
		verifyBeneficiaryName: false,
		...(options ? { options } : {}),
	});

	it.each([
		['Money-Moving Concurrency 2', 'two', { moneyMovingConcurrency: 2 }],
		['its default', 'default', undefined],
	])('%s: one transfer, one success, the other item reports it as already done', async (_title, name, options) => {
		const reference = `e2e-same-${name}-${Date.now().toString(36)}`;
		await e2e.sb.control('DELETE', '/faults');
		await e2e.sb.control('POST', '/faults', { method: 'POST', path: PATH, status: 503, every: 1, times: 1, latencyMs: 300 });
		try {
			const workflow = manualWorkflow(`same reference ${name}`, [
				itemsNode([{ json: { reference } }, { json: { reference } }]),
				{
					name: NODE,
					type: PAYONUS,
					typeVersion: 1,
					parameters: parameters(options),
					credentials: { payOnUsApi: { id: e2e.credentialId, name: 'PayOnUs e2e' } },
					onError: 'continueRegularOutput',
				},
			]);
			const execution = await e2e.runWorkflow(workflow);
			const out = nodeItems(execution, NODE) as IDataObject[];
			const made = ((await e2e.sb.ledger()).transfers as IDataObject[]).filter((t) => t.merchantReference === reference);
			expect(made).toHaveLength(1);
			expect(out).toHaveLength(2);
			expect(out[0].error).toBeUndefined();
			expect(out[0].onusReference).toBe(made[0].onusReference);
			expect(out[0].outcome).toBeUndefined();
			expect(out[1].error).toBeUndefined();
			expect(out[1]).toMatchObject({ outcome: 'alreadyDone', duplicateReference: true, onusReference: made[0].onusReference });
		} finally {
			await e2e.sb.control('DELETE', '/faults');
		}
	});
});
