/**
 * Issue 14, point 7, in a real n8n: the name enquiry by default, exact
 * amounts, duplicate bulk rows, and the https rule for a custom base address.
 */
import type { IDataObject } from 'n8n-workflow';
import { itemsNode, manualWorkflow, business, NODE, PAYONUS } from '../../dev/workflows';
import { nodeError, nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { createPayOnUsCredential } from '../../dev/sandboxCredential';

jest.setTimeout(300_000);

describe('PayOnUs inputs in n8n', () => {
	const e2e = useSandboxAndN8n('inputs', { clearRequestsBeforeEach: true });
	const { n8n } = e2e;
	const stamp = Date.now().toString(36);

	async function run(parameters: IDataObject, items: IDataObject[], credential = e2e.credentialId) {
		const workflow = manualWorkflow(`inputs ${Date.now()}`, [
			itemsNode(items.map((json) => ({ json }))),
			{ name: NODE, type: PAYONUS, typeVersion: 1, parameters, credentials: { payOnUsApi: { id: credential, name: 'PayOnUs e2e' } } },
		]);
		return await e2e.runWorkflow(workflow);
	}

	// No verifyBeneficiaryName parameter: what a node dropped on the canvas has.
	const transfer: IDataObject = {
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: business('BUS-2001'),
		amount: '={{ $json.amount }}',
		currency: 'NGN',
		countryCode: 'NG',
		reference: '={{ $json.reference }}',
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: '={{ $json.name }}',
		narration: 'e2e inputs',
	};
	const paths = async () => (await e2e.sb.requests()).map((r) => `${String(r.method)} ${String(r.path)}`);

	it('runs the name enquiry before a bank transfer by default and refuses a wrong name', async () => {
		const execution = await run(transfer, [{ amount: 10, reference: `e2e-v2-${stamp}`, name: 'Somebody Else' }]);
		expect(nodeError(execution, NODE)).toContain('"Beneficiary Account Name" does not match the name on the account, nothing was sent');
		expect(await paths()).toEqual(['POST /api/v1/transfer-requests/name-enquiry']);
	});

	it('pays after a matching name enquiry', async () => {
		const execution = await run(transfer, [{ amount: 10, reference: `e2e-v2ok-${stamp}`, name: 'Sandbox Success Beneficiary' }]);
		expect(nodeItems(execution, NODE)[0]).toMatchObject({ nameCheck: { matched: true } });
		expect((await paths()).slice(0, 2)).toEqual(['POST /api/v1/transfer-requests/name-enquiry', 'POST /api/v1/transfer-requests/bank-transfer']);
	});

	it('an amount that would lose digits, or in exponent notation, is refused naming item and field; nothing is sent', async () => {
		const big = await run(transfer, [{ amount: '12345678901234567.89', reference: `e2e-big-${stamp}`, name: 'x' }]);
		expect(nodeError(big, NODE)).toBe('"Amount" must be at most 999999999999.99');
		const exp = await run(transfer, [{ amount: 5, reference: `e2e-e1-${stamp}`, name: 'x' }, { amount: '1e20', reference: `e2e-e2-${stamp}`, name: 'x' }]);
		expect(nodeError(exp, NODE)).toContain('"Amount" must be a number');
		expect(await paths()).toEqual([]);
	});

	it('duplicate bulk rows (input items) are refused with their item numbers; nothing is sent', async () => {
		const row = { beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Ada', beneficiaryBankCode: '044', amount: 10 };
		const execution = await run(
			{ resource: 'payout', operation: 'bulkTransfer', source: 'items', businessId: business('BUS-2001'), currency: 'NGN', reference: `e2e-dup-${stamp}` },
			[row, { ...row, beneficiaryAccountNumber: '9999991113' }, { ...row, amount: '10.00' }],
		);
		expect(nodeError(execution, NODE)).toContain('duplicate rows: item 1, item 3 pay account 9999991112 at bank 044 the same amount 10');
		expect(await paths()).toEqual([]);
	});

	it('a custom base address over plain http to another host is refused before anything is sent', async () => {
		const remote = await createPayOnUsCredential(n8n, 'http://payonus.example.invalid', `PayOnUs http remote ${Date.now()}`);
		const execution = await run({ resource: 'wallet', operation: 'listWallets' }, [{}], remote);
		expect(nodeError(execution, NODE)).toContain('must use https://');
	});
});
