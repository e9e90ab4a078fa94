import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { FakeClient } from '../../fakes';
import { fakeExecuteContext, type Params } from '../../fakes';

/**
 * Issue 39, deliverable 6: a read run sends each item as soon as it is
 * validated (its first call does not wait for the last item's expressions);
 * a money-moving run still validates every item before its first call.
 * No clock: every call waits at a gate until the test opens it, and the
 * order of events (an item's parameters read, a call started) is a log.
 */

let client: FakeClient;
jest.mock('../../../../nodes/shared/transport', () => ({
	createClient: async () => client,
}));

import { PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';

const node = new PayOnUs();
const ITEMS = 40;

/** What happened, in order: `read <item>` (an item's parameters evaluated) and `call <item>` (its request started). */
let log: string[];
/** Calls waiting at the gate; `open()` answers them all, now and from then on. */
let gate: { waiting: Array<() => void>; open: boolean };

/** One turn of the event loop: every promise reaction queued so far has run (no timers are involved). */
const settle = async () => await new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
	log = [];
	gate = { waiting: [], open: false };
});

const openGate = () => {
	gate.open = true;
	for (const release of gate.waiting.splice(0)) release();
};

/** Answers a call once the gate is open, logging its start by item (`item` in the request). */
const gated = (itemOf: (req: RequestOptions) => number, answer: (req: RequestOptions) => unknown) => async (req: RequestOptions) => {
	log.push(`call ${itemOf(req)}`);
	if (!gate.open) await new Promise<void>((release) => gate.waiting.push(release));
	return answer(req);
};

/** The node's context: `params(i)` per item, each evaluation logged as `read <i>` (the first parameter read for that item). */
function context(params: (i: number) => Params, continueOnFail = false, stored: IDataObject = {}): IExecuteFunctions {
	const base = fakeExecuteContext(Array.from({ length: ITEMS }, (_, i) => ({ i })), params, continueOnFail);
	const seen = new Set<number>();
	return {
		...base,
		getNode: () => ({ ...base.getNode(), typeVersion: 4, parameters: stored }),
		getNodeParameter: (name: string, i: number, fallback?: unknown) => {
			if (!seen.has(i) && name !== 'resource' && name !== 'operation' && name !== 'options') {
				seen.add(i);
				log.push(`read ${i}`);
			}
			return base.getNodeParameter(name, i, fallback as never);
		},
	} as unknown as IExecuteFunctions;
}

const firstIndex = (entry: string) => log.indexOf(entry);

describe('a read run sends each item as soon as it is validated', () => {
	const getPayment = (i: number): Params => ({
		resource: 'payin',
		operation: 'getPayment',
		businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
		onusReference: i === 30 ? 'bad ref' : `ONUS-${i}`,
		options: { maxRequestsInFlight: 4 },
	});
	const stored = { onusReference: '={{ $json.onusReference }}' };
	const itemOf = (req: RequestOptions) => Number(String((req.qs as IDataObject).onusReference).split('-')[1]);

	it("item 0's call starts before later items are read; the output keeps input order, pairing and the bad item's error", async () => {
		client = new FakeClient().respondAll(gated(itemOf, (req) => ({ onusReference: (req.qs as IDataObject).onusReference })));
		const run = node.execute.call(context(getPayment, true, stored));
		await settle();
		// The calls in flight wait at the gate: item 0 was sent, the last items are not even read yet.
		expect(firstIndex('call 0')).toBeGreaterThanOrEqual(0);
		expect(firstIndex('call 0')).toBeLessThan(firstIndex('read 1'));
		expect(log).not.toContain(`read ${ITEMS - 1}`);
		expect(gate.waiting).toHaveLength(4); // Max Requests in Flight, from the first call
		openGate();
		const [out] = (await run) as INodeExecutionData[][];
		expect(out).toHaveLength(ITEMS);
		expect(out.map((o) => o.pairedItem)).toEqual(Array.from({ length: ITEMS }, (_, item) => ({ item })));
		expect(out[29].json).toEqual({ onusReference: 'ONUS-29' });
		expect(out[30].json.error).toMatch(/^"PayOnUs Reference" .* \[item 30\]$/);
		expect(out[31].json).toEqual({ onusReference: 'ONUS-31' });
		// Each item read once and sent once (the bad one never).
		expect(log.filter((e) => e.startsWith('read '))).toHaveLength(ITEMS);
		expect(client.requests).toHaveLength(ITEMS - 1);
	});

	it('without continueOnFail a bad item stops the run with its own error, naming the item and the field; later items are not started', async () => {
		client = new FakeClient().respondAll(gated(itemOf, (req) => ({ onusReference: (req.qs as IDataObject).onusReference })));
		openGate();
		const error = (await node.execute.call(context(getPayment, false, stored)).catch((e: unknown) => e)) as NodeOperationError;
		expect(error.message).toMatch(/^"PayOnUs Reference" must be an identifier without spaces or slashes/);
		expect(error.context.itemIndex).toBe(30);
		// Every item before it was started (and finished), none after it.
		expect(client.requests.map(itemOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
		expect(log).not.toContain(`read ${ITEMS - 1}`);
	});
});

describe('a money-moving run still validates every item before its first call', () => {
	const transfer = (i: number): Params => ({
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
		reference: `ref-${i}`,
		amount: i === 30 ? -5 : 100,
		currency: 'NGN',
		countryCode: 'NG',
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Ada Obi',
		narration: 'readsAsValidated',
		verifyBeneficiaryName: false,
		options: { moneyMovingConcurrency: 4 },
	});
	const stored = { reference: '={{ $json.reference }}', amount: '={{ $json.amount }}' };
	const refOf = (req: RequestOptions) => String((req.body as IDataObject | undefined)?.reference ?? (req.qs as IDataObject | undefined)?.reference ?? '');
	const itemOf = (req: RequestOptions) => Number(refOf(req).split('-')[1]);

	it('every item is read before the first call', async () => {
		client = new FakeClient().respondAll(gated(itemOf, (req) => ({ onusReference: `ONUS-${refOf(req)}`, merchantReference: refOf(req), transferStatus: 'SUCCESSFUL' })));
		const valid = (i: number) => ({ ...transfer(i), amount: 100 });
		const run = node.execute.call(context(valid, false, stored));
		await settle();
		const firstCall = log.findIndex((e) => e.startsWith('call '));
		expect(firstCall).toBeGreaterThanOrEqual(0);
		expect(firstIndex(`read ${ITEMS - 1}`)).toBeLessThan(firstCall);
		openGate();
		const [out] = (await run) as INodeExecutionData[][];
		expect(out.map((o) => o.pairedItem)).toEqual(Array.from({ length: ITEMS }, (_, item) => ({ item })));
	});

	it('a bad item 30 stops the run before anything is sent, naming the item and the field', async () => {
		client = new FakeClient().respondAll(gated(itemOf, () => ({})));
		openGate();
		const error = (await node.execute.call(context(transfer, false, stored)).catch((e: unknown) => e)) as NodeOperationError;
		expect(error.message).toMatch(/^"Amount" /);
		expect(error.context.itemIndex).toBe(30);
		expect(client.requests).toHaveLength(0);
	});
});
