/**
 * Issue 31, point 5: a repeat of the very same request. From node version
 * 4, when a payout's reference already holds this same transfer (same
 * amount, currency and beneficiary), Create Transfer returns the existing
 * transfer as a SUCCESS item marked `outcome: "alreadyDone"`; a reference
 * held by a different request stays an error. Versions 1 to 3 keep the
 * "Already paid" error. Through the real transport (n8n-core's request
 * helpers) and the sandbox, which answers a reused reference with 409.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { PayOnUsApi } from '../../credentials/PayOnUsApi.credentials';
import { PayOnUs } from '../../nodes/PayOnUs/PayOnUs.node';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { SandboxClient } from '../../sandbox/client';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../dev/inProcessN8n';

jest.setTimeout(60_000);

let sb: SandboxHandle;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, requestLogLimit: 1000 } });
});
afterAll(async () => {
	await sb.stop();
});

function context(params: IDataObject, typeVersion: number): IExecuteFunctions {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
	const base = n8n.context();
	const node = { ...(base.getNode as () => IDataObject)(), typeVersion, parameters: params };
	return {
		...base,
		getNode: () => node,
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name: string, _i: number, fallback?: unknown) => (name in params ? params[name] : fallback),
		continueOnFail: () => true,
		getExecutionId: () => 'exec-1',
	} as unknown as IExecuteFunctions;
}

const transfer = (reference: string, amount = 100): IDataObject => ({
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	reference,
	amount,
	currency: 'NGN',
	countryCode: 'NG',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Sandbox Success Beneficiary',
	narration: 'already done',
	verifyBeneficiaryName: false,
});

async function runOnce(params: IDataObject, typeVersion: number): Promise<IDataObject> {
	const [out] = (await new PayOnUs().execute.call(context(params, typeVersion))) as INodeExecutionData[][];
	expect(out).toHaveLength(1);
	return out[0].json;
}

async function made(reference: string): Promise<IDataObject[]> {
	const ledger = (await new SandboxClient(sb.url).ledger()).transfers as IDataObject[];
	return ledger.filter((t) => t.merchantReference === reference);
}

describe('Create Transfer sent again with the same reference and the same details', () => {
	it('version 4: the existing transfer, as a success item marked outcome "alreadyDone"; paid once', async () => {
		const reference = `again-v4-${Date.now().toString(36)}`;
		const first = await runOnce(transfer(reference), 4);
		expect(first.error).toBeUndefined();
		expect(first.outcome).toBeUndefined();
		const again = await runOnce(transfer(reference), 4);
		expect(again.error).toBeUndefined();
		expect(again).toMatchObject({ outcome: 'alreadyDone', onusReference: first.onusReference, merchantReference: reference, amount: 100, currency: 'NGN' });
		expect(await made(reference)).toHaveLength(1);
	});

	it('version 4: a reference held by a DIFFERENT transfer stays an error; nothing more is paid', async () => {
		const reference = `other-v4-${Date.now().toString(36)}`;
		await runOnce(transfer(reference, 100), 4);
		const other = await runOnce(transfer(reference, 250), 4);
		expect(String(other.error)).toMatch(/^Reference ".*" is already used by a different transfer/);
		expect(other.outcome).toBeUndefined();
		expect(await made(reference)).toHaveLength(1);
	});

	it('versions 1 to 3 keep the "Already paid" error (outcome alreadyDone, the record under existingRecord)', async () => {
		for (const typeVersion of [1, 3]) {
			const reference = `again-v${typeVersion}-${Date.now().toString(36)}`;
			const first = await runOnce(transfer(reference), typeVersion);
			const again = await runOnce(transfer(reference), typeVersion);
			expect(String(again.error)).toMatch(/^Already paid: reference/);
			expect(again).toMatchObject({ outcome: 'alreadyDone', existingRecord: { onusReference: first.onusReference } });
			expect(await made(reference)).toHaveLength(1);
		}
	});
});
