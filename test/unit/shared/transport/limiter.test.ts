/**
 * The adaptive limiter (nodes/shared/transport/limiter.ts): grows while
 * answers come back fine, halves at once on a push-back (once per burst;
 * a 429 with Retry-After: no more than its window's fine answers carried),
 * holds every new call until the Retry-After has passed, never exceeds its
 * ceiling. Time is injected: a manual clock, no wall-clock waits.
 */
import { AdaptiveLimiter, retryAfterMs } from '../../../../nodes/shared/transport/limiter';

class ManualClock {
	t = 0;
	waits: Array<{ at: number; resolve: () => void }> = [];
	now = () => this.t;
	wait = async (ms: number) => await new Promise<void>((resolve) => this.waits.push({ at: this.t + ms, resolve }));
	advance(ms: number) {
		this.t += ms;
		const due = this.waits.filter((w) => w.at <= this.t);
		this.waits = this.waits.filter((w) => w.at > this.t);
		for (const w of due) w.resolve();
	}
}

/** `count` calls started at once, all answered fine `tookMs` later. */
async function answeredFine(limiter: AdaptiveLimiter, clock: ManualClock, count: number, tookMs: number): Promise<void> {
	const seqs = await Promise.all(Array.from({ length: count }, async () => await limiter.acquire()));
	clock.advance(tookMs);
	for (const s of seqs) limiter.release(s, { ok: true });
}

const settle = async () => {
	for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

describe('AdaptiveLimiter', () => {
	it('starts at `initial`, grows by one per fine answer up to the ceiling, never above', async () => {
		const limiter = new AdaptiveLimiter({ initial: 8, ceiling: 20, clock: new ManualClock() });
		expect(limiter.limit).toBe(8);
		for (let i = 0; i < 50; i++) limiter.release(await limiter.acquire(), { ok: true });
		expect(limiter.limit).toBe(20);
	});

	it('holds the calls beyond the limit until one ends', async () => {
		const limiter = new AdaptiveLimiter({ initial: 2, ceiling: 2, clock: new ManualClock() });
		const a = await limiter.acquire();
		await limiter.acquire();
		let third = false;
		void limiter.acquire().then(() => (third = true));
		await settle();
		expect(third).toBe(false);
		limiter.release(a, { ok: true });
		await settle();
		expect(third).toBe(true);
	});

	it('a burst of push-backs from one window halves once; every new call waits the Retry-After', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 16, ceiling: 64, clock });
		const seqs = await Promise.all(Array.from({ length: 16 }, async () => await limiter.acquire()));
		for (const s of seqs) limiter.release(s, { pushBackMs: 1000 });
		expect(limiter.limit).toBe(8);
		expect(limiter.stats.halvings).toBe(1);
		let started = false;
		void limiter.acquire().then(() => (started = true));
		await settle();
		clock.advance(999);
		await settle();
		expect(started).toBe(false);
		clock.advance(1);
		await settle();
		expect(started).toBe(true);
	});

	it('a push-back from a call started after the halving halves again; never below 1', async () => {
		const limiter = new AdaptiveLimiter({ initial: 4, ceiling: 8, clock: new ManualClock() });
		for (let i = 0; i < 5; i++) limiter.release(await limiter.acquire(), { pushBackMs: 0 });
		expect(limiter.limit).toBe(1);
		// After halving, growth is by 1/limit per answer (about one per round trip).
		for (let i = 0; i < 3; i++) limiter.release(await limiter.acquire(), { ok: true });
		expect(limiter.limit).toBeLessThanOrEqual(3);
	});

	it('after a push-back naming its Retry-After, grows back by one call in flight per Retry-After at most', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 8, ceiling: 64, clock });
		limiter.release(await limiter.acquire(), { pushBackMs: 1000 });
		expect(limiter.limit).toBe(4);
		clock.advance(1000);
		// Forty fine answers in the same instant: one more call in flight, not ten.
		for (let i = 0; i < 40; i++) limiter.release(await limiter.acquire(), { ok: true });
		expect(limiter.limit).toBe(5);
		clock.advance(999);
		for (let i = 0; i < 40; i++) limiter.release(await limiter.acquire(), { ok: true });
		expect(limiter.limit).toBe(5);
		clock.advance(1);
		limiter.release(await limiter.acquire(), { ok: true });
		expect(limiter.limit).toBe(6);
	});

	it('a long Retry-After paces the growth at one a second, not one per Retry-After', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 8, ceiling: 64, clock });
		limiter.release(await limiter.acquire(), { pushBackMs: 30_000 });
		clock.advance(30_000);
		for (let second = 0; second < 3; second++) {
			for (let i = 0; i < 10; i++) limiter.release(await limiter.acquire(), { ok: true });
			clock.advance(1000);
		}
		expect(limiter.limit).toBe(7);
	});

	it('a push-back without Retry-After sets no pace: growth by 1/limit per fine answer', async () => {
		const limiter = new AdaptiveLimiter({ initial: 8, ceiling: 64, clock: new ManualClock() });
		limiter.release(await limiter.acquire(), { pushBackMs: 0 });
		expect(limiter.limit).toBe(4);
		for (let i = 0; i < 10; i++) limiter.release(await limiter.acquire(), { ok: true });
		expect(limiter.limit).toBe(6);
	});

	it('a 429 naming its Retry-After: no more in flight than the fine answers of that window carried (their time over the window)', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 128, ceiling: 128, clock });
		const seqs = await Promise.all(Array.from({ length: 128 }, async () => await limiter.acquire()));
		// A quota of 50 calls a second: 50 answered fine after 200 ms each, the other 78 refused.
		clock.advance(200);
		for (const s of seqs.slice(0, 50)) limiter.release(s, { ok: true });
		for (const s of seqs.slice(50)) limiter.release(s, { pushBackMs: 1000, quota: true });
		// 50 × 200 ms over 1 s: 10 in flight (halving alone: 64).
		expect(limiter.limit).toBe(10);
		expect(limiter.stats.halvings).toBe(1);
	});

	it('only the fine answers within the Retry-After (and the last second) count; none: it halves', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 64, ceiling: 64, clock });
		await answeredFine(limiter, clock, 20, 100);
		clock.advance(500);
		await answeredFine(limiter, clock, 5, 100);
		// Retry-After 0.5 s: the 5 answers of the last 0.5 s (5 × 100 ms over 500 ms: 1), not the 20 before.
		limiter.release(await limiter.acquire(), { pushBackMs: 500, quota: true });
		expect(limiter.limit).toBe(1);

		const fresh = new AdaptiveLimiter({ initial: 64, ceiling: 64, clock });
		await answeredFine(fresh, clock, 30, 100);
		clock.advance(1000);
		// Retry-After 30 s: weighed over the last second only, which had no fine answer.
		fresh.release(await fresh.acquire(), { pushBackMs: 30_000, quota: true });
		expect(fresh.limit).toBe(32);
	});

	it('never above half: fine answers that carried more than half leave the halving as it is', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 16, ceiling: 16, clock });
		const seqs = await Promise.all(Array.from({ length: 16 }, async () => await limiter.acquire()));
		clock.advance(900);
		for (const s of seqs.slice(0, 15)) limiter.release(s, { ok: true });
		// 15 × 900 ms over 1 s: 14 sustained, more than half of 16.
		limiter.release(seqs[15], { pushBackMs: 1000, quota: true });
		expect(limiter.limit).toBe(8);
	});

	it('a 503 (overload) or a 429 without Retry-After only halves, whatever was answered fine', async () => {
		const clock = new ManualClock();
		const overload = new AdaptiveLimiter({ initial: 64, ceiling: 64, clock });
		for (let i = 0; i < 5; i++) overload.release(await overload.acquire(), { ok: true });
		overload.release(await overload.acquire(), { pushBackMs: 1000 });
		expect(overload.limit).toBe(32);

		const noRetryAfter = new AdaptiveLimiter({ initial: 64, ceiling: 64, clock });
		for (let i = 0; i < 5; i++) noRetryAfter.release(await noRetryAfter.acquire(), { ok: true });
		noRetryAfter.release(await noRetryAfter.acquire(), { pushBackMs: 0, quota: true });
		expect(noRetryAfter.limit).toBe(32);
	});

	it('reads Retry-After as seconds or as an HTTP date', () => {
		expect(retryAfterMs('2')).toBe(2000);
		expect(retryAfterMs(['1'])).toBe(1000);
		expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
		expect(retryAfterMs('soon')).toBeUndefined();
		expect(retryAfterMs(undefined)).toBeUndefined();
	});

	it('pause: passes at once when no hold runs; holds every new call; overlapping pauses end at the latest; the limit stays', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 4, ceiling: 4, clock });
		await limiter.pause(0);
		expect(clock.t).toBe(0);
		const ends: Record<string, number> = {};
		void limiter.pause(500).then(() => (ends.a = clock.t));
		void limiter.pause(200).then(() => (ends.b = clock.t));
		void limiter.acquire().then(() => (ends.c = clock.t));
		await settle();
		clock.advance(200);
		await settle();
		expect(ends).toEqual({});
		clock.advance(300);
		await settle();
		expect(ends).toEqual({ a: 500, b: 500, c: 500 });
		expect(limiter.heldUntil).toBe(500);
		expect(limiter.limit).toBe(4);
	});

	it('a pause and a push-back are one hold: a call waits for the later of the two', async () => {
		const clock = new ManualClock();
		const limiter = new AdaptiveLimiter({ initial: 4, ceiling: 4, clock });
		limiter.release(await limiter.acquire(), { pushBackMs: 300 });
		void limiter.pause(100);
		let started = -1;
		void limiter.acquire().then(() => (started = clock.t));
		await settle();
		clock.advance(100);
		await settle();
		expect(started).toBe(-1);
		clock.advance(200);
		await settle();
		expect(started).toBe(300);
	});
});
