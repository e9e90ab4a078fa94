import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import type { ClientOptions } from '../../../../nodes/shared/transport';
import { FakeClient } from '../../fakes';
import { fakeExecuteContext, type Params } from '../../fakes';

/**
 * Money-moving (state-changing) operations with Money-Moving Concurrency:
 * at most N items in flight (default 1, at most 8), output in input order,
 * continueOnFail unchanged, and ONE back-off for the whole execution. Time is
 * injected (a virtual clock); nothing here depends on the wall clock.
 */

let client: FakeClient;
let clientOptions: ClientOptions | undefined;
jest.mock('../../../../nodes/shared/transport', () => ({
	createClient: async (_ctx: unknown, options: ClientOptions) => {
		clientOptions = options;
		return client;
	},
}));

import { MONEY_MOVING_CONCURRENCY_DEFAULT, MONEY_MOVING_CONCURRENCY_MAX, PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';
import { moneyMovingConcurrency } from '../../../../nodes/PayOnUs/run/concurrency';
import { limiterClock } from '../../../../nodes/shared/transport/limiter';

/** A virtual clock: `wait` resolves when `run` moves time to its deadline (earliest first). */
class VirtualClock {
	t = 0;
	private timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
	private seq = 0;
	now = () => this.t;
	wait = async (ms: number) =>
		await new Promise<void>((resolve) => {
			this.timers.push({ at: this.t + Math.max(0, ms), seq: this.seq++, resolve });
		});
	/** Settles `work`, moving time forward whenever nothing else can run. */
	async run<T>(work: Promise<T>): Promise<T> {
		let done = false;
		let failed = false;
		let result: T | undefined;
		let error: unknown;
		work.then(
			(r) => {
				done = true;
				result = r;
			},
			(e: unknown) => {
				done = failed = true;
				error = e;
			},
		);
		for (let guard = 0; guard < 100000; guard++) {
			for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
			if (done) break;
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift();
			if (!next) throw new Error('stuck: nothing to run and no timer');
			this.t = Math.max(this.t, next.at);
			next.resolve();
		}
		if (failed) throw error;
		return result as T;
	}
}

const node = new PayOnUs();
const PATH = '/api/v1/fund-ngn-account';
const simulate = (i: number, options?: IDataObject): Params => ({
	resource: 'payin',
	operation: 'simulatePayment',
	onusReference: `ONUS-NUB-${i}`,
	accountNumber: '9900000001',
	amount: 1000,
	paymentStatus: 'SUCCESSFUL',
	forDynamicAccount: true,
	...(options ? { options } : {}),
});
const refOf = (req: RequestOptions) => String((req.body as IDataObject).onusReference);

let clock: VirtualClock;
const realClock = { ...limiterClock };
beforeEach(() => {
	clock = new VirtualClock();
	limiterClock.now = clock.now;
	limiterClock.wait = clock.wait;
});
afterAll(() => {
	Object.assign(limiterClock, realClock);
});

/** Each call takes `duration(ref)` virtual ms; records start times and the peak in flight. */
function timed(duration: (ref: string) => number, answer: (req: RequestOptions) => unknown = () => null) {
	const t = { inFlight: 0, peak: 0, starts: new Map<string, number>(), order: [] as string[] };
	const fn = async (req: RequestOptions) => {
		const ref = refOf(req);
		t.inFlight++;
		t.peak = Math.max(t.peak, t.inFlight);
		t.starts.set(ref, clock.now());
		t.order.push(ref);
		try {
			await clock.wait(duration(ref));
			return answer(req);
		} finally {
			t.inFlight--;
		}
	};
	return { t, fn };
}

describe('Money-Moving Concurrency', () => {
	it('defaults to MONEY_MOVING_CONCURRENCY_DEFAULT items in flight', async () => {
		const { t, fn } = timed(() => 10);
		client = new FakeClient().respond('POST', PATH, fn);
		const ctx = fakeExecuteContext(Array.from({ length: 40 }, (_, i) => ({ i })), (i) => simulate(i));
		const [out] = (await clock.run(node.execute.call(ctx))) as INodeExecutionData[][];
		expect(out).toHaveLength(40);
		expect(t.peak).toBe(MONEY_MOVING_CONCURRENCY_DEFAULT);
		expect(MONEY_MOVING_CONCURRENCY_DEFAULT).toBe(32);
	});

	it('with 2 in flight, keeps the output in input order', async () => {
		// Later items answer faster: completion order differs from input order.
		const { t, fn } = timed((ref) => 100 - Number(ref.split('-')[2]) * 10, (req) => ({ ref: refOf(req) }));
		client = new FakeClient().respond('POST', PATH, fn);
		const ctx = fakeExecuteContext(Array.from({ length: 7 }, (_, i) => ({ i })), (i) => simulate(i, { moneyMovingConcurrency: 2 }));
		const [out] = (await clock.run(node.execute.call(ctx))) as INodeExecutionData[][];
		expect(t.peak).toBe(2);
		expect(out.map((o) => o.pairedItem)).toEqual(Array.from({ length: 7 }, (_, item) => ({ item })));
		expect(out.map((o) => (o.json as IDataObject).ref)).toEqual(Array.from({ length: 7 }, (_, i) => `ONUS-NUB-${i}`));
		// The run's limiter reached the transport, its pause as the transport's: a back-off holds the run.
		expect(clientOptions?.limiter).toBeDefined();
		expect(clientOptions?.sleep).toBe(clientOptions?.limiter?.pause);
	});

	it('honours the option, and clamps it to 1..64', async () => {
		expect(MONEY_MOVING_CONCURRENCY_MAX).toBe(64);
		for (const [asked, expected] of [
			[5, 5],
			[100, MONEY_MOVING_CONCURRENCY_MAX],
			[0, 1],
		] as const) {
			const { t, fn } = timed(() => 10);
			client = new FakeClient().respond('POST', PATH, fn);
			const ctx = fakeExecuteContext(Array.from({ length: 70 }, (_, i) => ({ i })), (i) => simulate(i, { moneyMovingConcurrency: asked }));
			const [out] = (await clock.run(node.execute.call(ctx))) as INodeExecutionData[][];
			expect(out).toHaveLength(70);
			expect(t.peak).toBe(expected);
		}
		expect(moneyMovingConcurrency('3')).toBe(3);
		expect(moneyMovingConcurrency('x')).toBe(MONEY_MOVING_CONCURRENCY_DEFAULT);
		expect(moneyMovingConcurrency(2.7)).toBe(2);
	});

	it('a back-off of one item holds every other item of the run (shared, not per item)', async () => {
		// Item 1 is told to slow down: the transport pauses 1,000 ms (its back-off) before answering.
		const { t, fn } = timed(() => 10);
		client = new FakeClient().respond('POST', PATH, async (req: RequestOptions) => {
			if (refOf(req) === 'ONUS-NUB-1') await clientOptions!.sleep!(1000);
			// Every call acquires the run's limiter first, as the transport's attempt() does.
			const limiter = clientOptions!.limiter!;
			const seq = await limiter.acquire();
			try {
				return await fn(req);
			} finally {
				limiter.release(seq, { ok: true });
			}
		});
		const ctx = fakeExecuteContext(Array.from({ length: 6 }, (_, i) => ({ i })), (i) => simulate(i, { moneyMovingConcurrency: 2 }));
		await clock.run(node.execute.call(ctx));
		// Item 0 started at once; item 1 asked for the pause at 0 and went at 1,000.
		expect(t.starts.get('ONUS-NUB-0')).toBe(0);
		expect(t.starts.get('ONUS-NUB-1')).toBe(1000);
		// Item 0 finished at 10, but item 2 waited for the run's back-off: nothing else was sent meanwhile.
		for (let i = 2; i < 6; i++) expect(t.starts.get(`ONUS-NUB-${i}`)).toBeGreaterThanOrEqual(1000);
	});

	it('without continueOnFail: starts nothing after a failure, throws the first failing item, names the items sent alongside', async () => {
		const { t, fn } = timed(
			(ref) => (ref === 'ONUS-NUB-2' ? 50 : 10),
			(req) => {
				if (refOf(req) === 'ONUS-NUB-2') throw new Error('Invalid request: amount');
				return { ref: refOf(req) };
			},
		);
		client = new FakeClient().respond('POST', PATH, fn);
		const ctx = fakeExecuteContext(Array.from({ length: 10 }, (_, i) => ({ i })), (i) => simulate(i, { moneyMovingConcurrency: 2 }));
		const error = (await clock.run(node.execute.call(ctx)).catch((e: unknown) => e)) as NodeApiError | NodeOperationError;
		expect(error instanceof NodeApiError || error instanceof NodeOperationError).toBe(true);
		expect(error.message).toBe('Invalid request: amount');
		expect(error.context.itemIndex).toBe(2);
		// Item 2 ran from 10 to 60; beside it items 3..7 (10 ms each, the last from 50 to 60); none started after it failed.
		expect(t.order).toEqual(Array.from({ length: 8 }, (_, i) => `ONUS-NUB-${i}`));
		expect(t.starts.get('ONUS-NUB-7')).toBe(50);
		expect(error.description).toContain('Items 3, 4, 5, 6, 7 (numbered from 0, as n8n does) ran at the same time');
	});

	it('with continueOnFail: the failed item becomes an error item in place, the others run', async () => {
		const { fn } = timed(
			() => 10,
			(req) => {
				if (refOf(req) === 'ONUS-NUB-1') throw new Error('Invalid request: amount');
				return { ref: refOf(req) };
			},
		);
		client = new FakeClient().respond('POST', PATH, fn);
		const ctx = fakeExecuteContext(Array.from({ length: 4 }, (_, i) => ({ i })), (i) => simulate(i), true);
		const [out] = (await clock.run(node.execute.call(ctx))) as INodeExecutionData[][];
		expect(out).toHaveLength(4);
		expect(out[1].pairedItem).toEqual({ item: 1 });
		expect(String((out[1].json as IDataObject).error)).toBe('Invalid request: amount [item 1]');
		expect(out.filter((_, i) => i !== 1).map((o) => (o.json as IDataObject).ref)).toEqual(['ONUS-NUB-0', 'ONUS-NUB-2', 'ONUS-NUB-3']);
	});
});

describe('items that share a reference or a card token (issue 22, point 6)', () => {
	const CHARGE = '/api/v1/card-payments/with-token';
	const charge = (reference: string, cardTokenId: string, options?: IDataObject): Params => ({
		resource: 'payin',
		operation: 'chargeTokenizedCard',
		businessId: 'BUS-2001',
		cardTokenId,
		amount: 100,
		reference,
		additionalFields: {},
		...(options ? { options } : {}),
	});
	const body = (req: RequestOptions) => req.body as IDataObject;

	/** Each call takes 10 virtual ms; records the start and end of each call by item key. */
	function tracker(answer: (req: RequestOptions) => IDataObject) {
		const spans: Array<{ key: string; start: number; end: number }> = [];
		const fn = async (req: RequestOptions) => {
			const start = clock.now();
			await clock.wait(10);
			spans.push({ key: `${String(body(req).reference)}/${String(body(req).cardTokenId)}`, start, end: clock.now() });
			return answer(req);
		};
		return { spans, fn };
	}

	it('are never in flight together, and run in input order; the others run alongside', async () => {
		const { spans, fn } = tracker((req) => ({ onusReference: `ONUS-${String(body(req).reference)}`, reference: body(req).reference }));
		client = new FakeClient().respond('POST', CHARGE, fn);
		// Items 0 and 2 share card token T1; items 1 and 3 share reference R1.
		const params = [charge('A', 'T1'), charge('R1', 'T2'), charge('B', 'T1'), charge('R1', 'T3'), charge('C', 'T4')];
		const ctx = fakeExecuteContext(params.map((_, i) => ({ i })), (i) => ({ ...params[i], options: { moneyMovingConcurrency: 5 } }), true);
		await clock.run(node.execute.call(ctx));
		const span = (key: string) => spans.find((s) => s.key === key)!;
		expect(span('B/T1').start).toBeGreaterThanOrEqual(span('A/T1').end);
		expect(span('R1/T3').start).toBeGreaterThanOrEqual(span('R1/T2').end);
		// Independent items started at once.
		expect([span('A/T1').start, span('R1/T2').start, span('C/T4').start]).toEqual([0, 0, 0]);
	});

	it('only one item reports a given payment as its own: a second item ending on the same record reports a duplicate', async () => {
		// The service answers the same payment to two items (e.g. the existing record for a reused reference).
		client = new FakeClient().respond('POST', CHARGE, () => ({ onusReference: 'ONUS-SAME', reference: 'R1', amount: 100 }));
		const params = [charge('R1', 'T1'), charge('R1', 'T1')];
		const ctx = fakeExecuteContext(params.map((_, i) => ({ i })), (i) => ({ ...params[i], options: { moneyMovingConcurrency: 2 } }), true);
		const [out] = (await clock.run(node.execute.call(ctx))) as INodeExecutionData[][];
		expect((out[0].json as IDataObject).onusReference).toBe('ONUS-SAME');
		expect(out[0].json.error).toBeUndefined();
		expect(String(out[1].json.error)).toMatch(/^Duplicate of item 0: the onusReference "ONUS-SAME" is already reported there \[item 1\]$/);
		expect(out[1].json.outcome).toBe('alreadyDone');
	});
});
