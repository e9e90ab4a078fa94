import type { IDataObject, INodeExecutionData, NodeOperationError } from 'n8n-workflow';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { FakeClient } from '../../fakes';
import { fakeExecuteContext, type Params } from '../../fakes';

/**
 * How the node runs its items: read-only operations with up to
 * Max Requests in Flight calls in flight (output order, pairedItem and
 * continueOnFail as in a one-by-one run), everything else strictly one after
 * the other.
 */

let client: FakeClient;
let clientOptions: { limiter?: { ceiling: number; limit: number } } | undefined;
jest.mock('../../../../nodes/shared/transport', () => ({
	createClient: async (_ctx: unknown, options: typeof clientOptions) => {
		clientOptions = options;
		return client;
	},
}));

import { PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';
import { findOperation } from '../../../../nodes/PayOnUs/resources';
import { runBounded } from '../../../../nodes/PayOnUs/run/bounded';
import { READ_CEILING_DEFAULT } from '../../../../nodes/PayOnUs/run/concurrency';
import type { NodeOperation } from '../../../../nodes/PayOnUs/resources/types';

/** Read-only by its own declaration: the node runs it concurrently, GET only. */
const isReadOnly = (op: NodeOperation) => op.effect === 'read';

/** The node's context for `count` input items `{ i }`, with per-item parameters. */
const fakeContext = (count: number, params: (i: number) => Params, continueOnFail = false) =>
	fakeExecuteContext(Array.from({ length: count }, (_, i) => ({ i })), params, continueOnFail);

const node = new PayOnUs();

/**
 * No wall clock: every call waits at a gate until the test releases it, one
 * at a time, whenever nothing else can move (every started item waits on a
 * call). `pick` chooses which waiting call answers next, so "later items
 * answer faster" or "item 3 fails last" are orders, not timing margins.
 */
class Gate {
	readonly waiting: Array<{ key: string; release: () => void }> = [];

	async wait(key: string): Promise<void> {
		await new Promise<void>((release) => this.waiting.push({ key, release }));
	}
}

/** One turn of the event loop: every promise reaction queued so far has run (no timers are involved). */
const settle = async () => await new Promise((resolve) => setImmediate(resolve));

/** Runs `work` to its end, releasing the waiting call `pick` chooses (default: the first to wait) each time all wait. */
async function drive<T>(gate: Gate, work: Promise<T>, pick: (keys: string[]) => number = () => 0): Promise<T> {
	let finished = false;
	const ended = work.then(
		() => (finished = true),
		() => (finished = true),
	);
	for (let idle = 0; !finished; ) {
		await settle();
		if (finished) break;
		if (gate.waiting.length === 0) {
			if (++idle > 100) throw new Error('the run waits on something other than its calls');
			continue;
		}
		idle = 0;
		const [next] = gate.waiting.splice(pick(gate.waiting.map((w) => w.key)), 1);
		next.release();
	}
	await ended;
	return await work;
}

/** Later items answer first: the waiting call of the highest item number. */
const latestFirst = (keys: string[]) => keys.indexOf(keys.reduce((a, b) => (Number(b.split('-')[1]) > Number(a.split('-')[1]) ? b : a)));

/** Counts calls in flight; each call waits at `gate` until released. */
function tracked(gate: Gate, answer: (req: RequestOptions) => unknown) {
	const t = { inFlight: 0, peak: 0, order: [] as string[], peaks: [] as number[] };
	const fn = async (req: RequestOptions) => {
		const ref = String((req.qs ?? req.body ?? {}).onusReference ?? '');
		t.inFlight++;
		t.peak = Math.max(t.peak, t.inFlight);
		t.peaks.push(t.inFlight);
		t.order.push(ref);
		try {
			await gate.wait(ref);
			return answer(req);
		} finally {
			t.inFlight--;
		}
	};
	return { t, fn };
}

const getPayment = (ref: string): Params => ({
	resource: 'payin',
	operation: 'getPayment',
	businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
	onusReference: ref,
});
const PATH = '/api/v1/payment-requests/businesses/BUS-2001';

describe('PayOnUs node: read-only operations run concurrently', () => {
	it('keeps at most Max Requests in Flight items in flight from the first call, and the output in input order', async () => {
		// Later items answer faster: completion order differs from input order.
		const gate = new Gate();
		const { t, fn } = tracked(gate, (req) => ({ onusReference: (req.qs as IDataObject).onusReference }));
		client = new FakeClient().respond('GET', PATH, fn);
		const ctx = fakeContext(25, (i) => ({ ...getPayment(`ONUS-${i}`), options: { maxRequestsInFlight: 8 } }));
		const [out] = (await drive(gate, node.execute.call(ctx), latestFirst)) as INodeExecutionData[][];
		// The transport gets the adaptive limiter: the ceiling from the first call.
		expect(clientOptions?.limiter?.ceiling).toBe(8);
		expect(clientOptions?.limiter?.limit).toBe(8);
		expect(t.peak).toBe(8);
		// Items 0 to 7 start together: a read does not wait for item 0's answer (nor for later items' parameters).
		expect(t.peaks.slice(0, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		expect(t.order.slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, i) => `ONUS-${i}`));
		expect(out).toEqual(Array.from({ length: 25 }, (_, i) => ({ json: { onusReference: `ONUS-${i}` }, pairedItem: { item: i } })));
		expect(client.requests).toHaveLength(25);
	});

	it('by default, up to READ_CEILING_DEFAULT items are started at once; the limiter allows as many from the first call (no slow start)', async () => {
		const gate = new Gate();
		const { t, fn } = tracked(gate, (req) => ({ onusReference: (req.qs as IDataObject).onusReference }));
		client = new FakeClient().respond('GET', PATH, fn);
		const ctx = fakeContext(200, (i) => getPayment(`ONUS-${i}`));
		await drive(gate, node.execute.call(ctx), latestFirst);
		expect(clientOptions?.limiter?.ceiling).toBe(READ_CEILING_DEFAULT);
		expect(clientOptions?.limiter?.limit).toBe(READ_CEILING_DEFAULT);
		expect(t.peak).toBe(READ_CEILING_DEFAULT);
	});

	it('without continueOnFail throws the error of the FIRST failing item, starts nothing after a failure', async () => {
		// Item 3 fails last, item 5 fails first: a one-by-one run stops at item 3.
		const gate = new Gate();
		const { fn } = tracked(gate, (req) => {
			const ref = String((req.qs as IDataObject).onusReference);
			if (ref === 'ONUS-3' || ref === 'ONUS-5') throw new Error(`Payment ${ref} not found`);
			return { onusReference: ref };
		});
		client = new FakeClient().respond('GET', PATH, fn);
		const ctx = fakeContext(200, (i) => getPayment(`ONUS-${i}`));
		const slowLast = (keys: string[]) => (keys.length > 1 && keys[0] === 'ONUS-3' ? 1 : 0);
		const error = (await drive(gate, node.execute.call(ctx), slowLast).catch((e: unknown) => e)) as NodeOperationError;
		expect(error.message).toBe('Payment ONUS-3 not found');
		expect(error.context.itemIndex).toBe(3);
		// Started before the failures were known: a bounded handful, never the rest.
		expect(client.requests.length).toBeLessThan(200);
		expect(client.requests.length).toBeGreaterThan(5);
	});

	it('with continueOnFail, failed items become error items in place, paired with their input', async () => {
		const gate = new Gate();
		const { fn } = tracked(gate, (req) => {
			const ref = String((req.qs as IDataObject).onusReference);
			if (ref === 'ONUS-2') throw new Error(`Payment ${ref} not found`);
			return { onusReference: ref };
		});
		client = new FakeClient().respond('GET', PATH, fn);
		const ctx = fakeContext(12, (i) => getPayment(i === 6 ? 'bad ref' : `ONUS-${i}`), true);
		const [out] = (await drive(gate, node.execute.call(ctx))) as INodeExecutionData[][];
		expect(out).toHaveLength(12);
		expect(out[2]).toEqual({ json: { error: 'Payment ONUS-2 not found [item 2]' }, pairedItem: { item: 2 } });
		expect(out[6].pairedItem).toEqual({ item: 6 });
		expect(String(out[6].json.error)).toMatch(/^"PayOnUs Reference" .* \[item 6\]$/);
		expect(out[11]).toEqual({ json: { onusReference: 'ONUS-11' }, pairedItem: { item: 11 } });
		expect(client.requests).toHaveLength(11);
	});
});

describe('PayOnUs node: other operations with Money-Moving Concurrency 1 run one item after the other', () => {
	it('runs a POST operation strictly sequentially, in order', async () => {
		const gate = new Gate();
		const { t, fn } = tracked(gate, () => null);
		client = new FakeClient().respond('POST', '/api/v1/fund-ngn-account', fn);
		const ctx = fakeContext(10, (i) => ({
			resource: 'payin',
			operation: 'simulatePayment',
			onusReference: `ONUS-NUB-${i}`,
			accountNumber: '9900000001',
			amount: 1000,
			paymentStatus: 'SUCCESSFUL',
			forDynamicAccount: true,
			options: { moneyMovingConcurrency: 1 },
		}));
		const [out] = (await drive(gate, node.execute.call(ctx))) as INodeExecutionData[][];
		expect(out).toHaveLength(10);
		expect(t.peak).toBe(1);
		expect(t.order).toEqual(Array.from({ length: 10 }, (_, i) => `ONUS-NUB-${i}`));
	});

	it('lists as read-only only operations that exist, and no money-moving one', () => {
		const readOnly = [
			['payin', 'getPayment'],
			['payin', 'listPayments'],
			['payin', 'listEftBanks'],
			['payout', 'getTransfer'],
			['payout', 'searchTransfers'],
			['payout', 'listBanks'],
			['wallet', 'listWallets'],
			['cardTokenization', 'getLink'],
			['cardTokenization', 'searchLinks'],
			['cardTokenization', 'searchTokens'],
		];
		for (const [resource, operation] of readOnly) {
			const op = findOperation(resource, operation);
			expect(op).toBeDefined();
			expect(isReadOnly(op!)).toBe(true);
		}
		for (const [resource, operation] of [
			['payin', 'chargeCard'],
			['payin', 'createDynamicAccount'],
			['payin', 'simulatePayment'],
			['payout', 'createTransfer'],
			['payout', 'bulkTransfer'],
			['payout', 'nameEnquiry'],
			['cardTokenization', 'createLink'],
			['cardTokenization', 'deleteToken'],
		]) {
			const op = findOperation(resource, operation);
			expect(op).toBeDefined();
			expect(isReadOnly(op!)).toBe(false);
		}
	});
});

describe('runBounded', () => {
	it('stores results by index and never exceeds the bound', async () => {
		let inFlight = 0;
		let peak = 0;
		const results: number[] = [];
		const gate = new Gate();
		// Items finish out of order: the waiting one with the smallest (i * 7) % 5 first.
		const order = (keys: string[]) => keys.map((k) => (Number(k) * 7) % 5).reduce((best, v, at, all) => (v < all[best] ? at : best), 0);
		const run = runBounded(2, 30, 4, results, async (i) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await gate.wait(String(i));
			inFlight--;
			return i * 10;
		});
		await drive(gate, run, order);
		expect(peak).toBe(4);
		expect(results.slice(2)).toEqual(Array.from({ length: 28 }, (_, k) => (k + 2) * 10));
		expect(results[0]).toBeUndefined();
	});
});
