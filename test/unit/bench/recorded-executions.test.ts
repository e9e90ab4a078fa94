import { byStatus, settleRecorded, type Recorded } from '../../../bench/recorded-executions';

/** A clock that only moves when the wait pauses. */
function fakeClock() {
	let now = 0;
	return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

/** What the database holds at each read: the n-th read gets `reads[n]` (the last one from then on). */
function database(reads: Recorded[][]) {
	let n = 0;
	return () => reads[Math.min(n++, reads.length - 1)];
}

const done = (id: number): Recorded => ({ id, status: 'success' });

describe('settleRecorded: counting what n8n recorded for a drill phase', () => {
	it('waits while an execution is still new or running, then for the quiet period', async () => {
		const clock = fakeClock();
		const read = database([
			[done(1), { id: 2, status: 'new' }],
			[done(1), { id: 2, status: 'running' }],
			[done(1), done(2)],
		]);
		const settled = await settleRecorded(read, { atLeast: 2, quietMs: 5000, giveUpMs: 600_000, pollMs: 500, clock });
		expect(settled.settled).toBe(true);
		expect(settled.statuses).toEqual({ success: 2 });
		// Two reads before both were done (t=1000), then 5 s unchanged.
		expect(settled.waitedMs).toBe(6000);
	});

	it('keeps waiting below the expected count, and counts an execution that arrives late', async () => {
		const clock = fakeClock();
		const reads: Recorded[][] = Array.from({ length: 40 }, () => [done(1)]);
		reads.push([done(1), done(2)]);
		const settled = await settleRecorded(database(reads), { atLeast: 2, quietMs: 5000, giveUpMs: 600_000, pollMs: 500, clock });
		expect(settled.settled).toBe(true);
		expect(settled.executions.map((e) => e.id)).toEqual([1, 2]);
	});

	it('gives up after the give-up time and says so, with what it saw', async () => {
		const clock = fakeClock();
		const settled = await settleRecorded(database([[done(1), { id: 2, status: 'running' }]]), {
			atLeast: 3,
			quietMs: 5000,
			giveUpMs: 60_000,
			pollMs: 500,
			clock,
		});
		expect(settled.settled).toBe(false);
		expect(settled.waitedMs).toBe(60_000);
		expect(settled.reason).toBe('gave up after 60 s: 2 recorded (expected at least 3), 1 still new or running');
	});

	it('counts only the executions of the phase (ids after afterId)', async () => {
		const clock = fakeClock();
		const settled = await settleRecorded(database([[done(1), done(2), done(7), { id: 8, status: 'error' }]]), {
			afterId: 2,
			atLeast: 2,
			quietMs: 1000,
			giveUpMs: 60_000,
			clock,
		});
		expect(settled.settled).toBe(true);
		expect(settled.executions.map((e) => e.id)).toEqual([7, 8]);
		expect(settled.statuses).toEqual({ success: 1, error: 1 });
	});

	it('counts by status', () => {
		expect(byStatus([done(1), { id: 2, status: 'crashed' }, done(3)])).toEqual({ success: 2, crashed: 1 });
	});
});
