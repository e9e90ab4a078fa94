/**
 * Issue 22, point 6: two items, one reference, at Money-Moving Concurrency
 * above 1. The first item's POST is answered 503 (before processing, after a
 * delay), the second item's lands meanwhile. Before: the first item looked
 * the reference up, found the second item's transfer (the same request) and
 * adopted it: two successes for one transfer. Now items sharing a reference
 * are never in flight together (input order), and only one item reports a
 * given transfer as made by it: the other reports it as already done.
 * Through the real transport (n8n-core's request helpers) and the sandbox.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { PayOnUsApi } from '../../../../credentials/PayOnUsApi.credentials';
import { PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';
import { limiterClock } from '../../../../nodes/shared/transport/limiter';
import { startSandbox, type SandboxHandle } from '../../../../sandbox/server';
import { SandboxClient } from '../../../../sandbox/client';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../../dev/inProcessN8n';

jest.setTimeout(60_000);

const PATH = '/api/v1/transfer-requests/bank-transfer';
let sb: SandboxHandle;
const realClock = { ...limiterClock };
beforeAll(async () => {
	sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, requestLogLimit: 1000 } });
	// The run's back-off: no wall-clock waits (the order of events is the sandbox's fault latency, not a margin).
	limiterClock.wait = async () => {};
});
afterAll(async () => {
	Object.assign(limiterClock, realClock);
	await sb.stop();
});

function context(items: IDataObject[], params: (i: number) => IDataObject): IExecuteFunctions {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
	const base = n8n.context();
	const node = (base.getNode as () => IDataObject)();
	return {
		...base,
		getNode: () => node,
		getInputData: () => items.map((json) => ({ json })),
		getNodeParameter: (name: string, i: number, fallback?: unknown) => {
			const p = params(i);
			return name in p ? p[name] : fallback;
		},
		continueOnFail: () => true,
		getExecutionId: () => 'exec-1',
	} as unknown as IExecuteFunctions;
}

const transfer = (reference: string, concurrency?: number): IDataObject => ({
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	reference,
	amount: 100,
	currency: 'NGN',
	countryCode: 'NG',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Sandbox Success Beneficiary',
	narration: 'same reference',
	verifyBeneficiaryName: false,
	...(concurrency ? { options: { moneyMovingConcurrency: concurrency } } : {}),
});

async function twoItemsOneReference(concurrency?: number) {
	const control = new SandboxClient(sb.url);
	const reference = `same-${concurrency ?? 'default'}-${Date.now().toString(36)}`;
	await control.control('DELETE', '/faults');
	// The first POST: held 300 ms, then 503 before processing (nothing made).
	await control.control('POST', '/faults', { method: 'POST', path: PATH, status: 503, every: 1, times: 1, latencyMs: 300 });
	const ctx = context([{ n: 1 }, { n: 2 }], () => transfer(reference, concurrency));
	const [out] = (await new PayOnUs().execute.call(ctx)) as INodeExecutionData[][];
	await control.control('DELETE', '/faults');
	const ledger = (await control.ledger()).transfers as IDataObject[];
	const made = ledger.filter((t) => t.merchantReference === reference);
	return { out: out.map((o) => o.json), made };
}

describe('two items, one reference (issue 22, point 6)', () => {
	it.each([
		['Money-Moving Concurrency 2', 2],
		['its default', undefined],
	])('%s: one transfer, one success; the other item reports it as the existing transfer', async (_title, concurrency) => {
		const { out, made } = await twoItemsOneReference(concurrency);
		expect(made).toHaveLength(1);
		// The first item (input order) made the transfer; the second (the very same transfer)
		// reports that one transfer, marked as already done: nothing sent again.
		expect('error' in out[0]).toBe(false);
		expect(out[0].onusReference).toBe(made[0].onusReference);
		expect(out[0]).not.toHaveProperty('outcome');
		expect('error' in out[1]).toBe(false);
		expect(out[1]).toMatchObject({ outcome: 'alreadyDone', duplicateReference: true, onusReference: made[0].onusReference });
	});
});
