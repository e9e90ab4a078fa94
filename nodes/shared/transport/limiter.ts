import { sleep } from 'n8n-workflow';

/**
 * Calls in flight, adapted to the service (one limiter per client, so per
 * execution of a node): starts at `initial`, grows while answers come back
 * fine (by one per answer until the first push-back, so it doubles each round
 * trip; then by one per round trip), and halves at once on a push-back (a 429
 * or a 503), with every new call held until the service's Retry-After has
 * passed. A 429 (a quota: "too many requests") that names its Retry-After
 * falls further when the fine answers of that window (at most MAX_PACE_MS)
 * show fewer calls sustained: the time they took, summed, over the window is
 * the calls in flight the quota carried, on average; more would meet the
 * quota again within the window (a run starting at 128 against 50 calls a
 * second of about 0.2 s each: 10, not 64, 32 and 16 in three more bursts of
 * refusals). A 503 (overload) only halves: its fine answers say nothing of
 * a quota. A push-back that names its Retry-After also sets the pace of the
 * growth back: at most one more call in flight per Retry-After (at most
 * MAX_PACE_MS), since a service that counts calls in windows of that length
 * would otherwise be probed several times within one window, each probe a
 * burst of refusals. Never above `ceiling` (the user's), never below 1. A
 * burst of push-backs answering calls started before the last halving halves
 * only once (they report the same overload).
 *
 * The hold is the one way calls back off together: a push-back holds them
 * for its Retry-After, and `pause` lets a caller hold them for a wait of its
 * own (a run of the action node's writes makes every pause of its transport
 * one: a resend's, a lookup's, a 5xx's back-off holds every item of the run,
 * ../../PayOnUs/run/index.ts). Every call waits out the hold when it acquires.
 *
 * Time is injected (`clock`): tests move it; nothing here reads the wall clock
 * unless given none.
 */

export interface LimiterClock {
	now(): number;
	wait(ms: number): Promise<void>;
}

export const limiterClock: LimiterClock = {
	now: () => Date.now(),
	wait: async (ms: number) => await sleep(ms),
};

export interface LimiterOptions {
	/** Calls in flight at the start. Default 8 (or the ceiling when lower). */
	initial?: number;
	/** Calls in flight at most. */
	ceiling: number;
	clock?: LimiterClock;
}

/** The longest Retry-After honoured (longer ones are capped: the caller's own bounds decide). */
export const MAX_RETRY_AFTER_MS = 60_000;

/** The slowest pace of growth after a push-back: one more call in flight a second at least. */
export const MAX_PACE_MS = 1_000;

export class AdaptiveLimiter {
	readonly ceiling: number;
	private limitValue: number;
	/** Growth by one per answer below this (slow start), by 1/limit above. */
	private threshold = Infinity;
	private inFlight = 0;
	private started = 0;
	/** Calls started up to this sequence number belong to the window already halved. */
	private halvedAt = -1;
	private resumeAt = 0;
	/** After a push-back naming its Retry-After: the least time between two growths (0: none set). */
	private paceMs = 0;
	private grewAt = 0;
	/** When each call in flight started (by sequence number). */
	private readonly startedAt = new Map<number, number>();
	/** The fine answers of the last MAX_PACE_MS: when each came, and how long its call took (oldest first). */
	private fine: Array<{ at: number; tookMs: number }> = [];
	private readonly waiting: Array<() => void> = [];
	private readonly clock: LimiterClock;
	/** Counters (benches, tests). */
	readonly stats = { pushBacks: 0, halvings: 0, peak: 0 };

	constructor(options: LimiterOptions) {
		this.ceiling = Math.max(1, Math.floor(options.ceiling));
		this.limitValue = Math.max(1, Math.min(this.ceiling, Math.floor(options.initial ?? 8)));
		this.clock = options.clock ?? { now: () => limiterClock.now(), wait: async (ms) => await limiterClock.wait(ms) };
	}

	/** Calls allowed in flight now. */
	get limit(): number {
		return Math.floor(this.limitValue);
	}

	/** Waits for a slot (and for any Retry-After); returns the call's sequence number. */
	async acquire(): Promise<number> {
		for (;;) {
			const left = this.resumeAt - this.clock.now();
			if (left > 0) {
				await this.clock.wait(left);
				continue;
			}
			if (this.inFlight < this.limit) break;
			// Someone is in flight (limit >= 1): its release wakes us.
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
		this.inFlight++;
		this.stats.peak = Math.max(this.stats.peak, this.inFlight);
		this.startedAt.set(this.started, this.clock.now());
		return this.started++;
	}

	/**
	 * Holds every new call for `ms` (from now; a longer hold already running
	 * stays), then waits until the hold ends. Unlike a push-back, it does not
	 * change the calls allowed in flight.
	 */
	pause = async (ms: number): Promise<void> => {
		this.resumeAt = Math.max(this.resumeAt, this.clock.now() + Math.max(0, ms));
		for (;;) {
			const left = this.resumeAt - this.clock.now();
			if (left <= 0) return;
			await this.clock.wait(left);
		}
	};

	/** When new calls may start again (ms, the limiter's clock; in the past when no hold runs). */
	get heldUntil(): number {
		return this.resumeAt;
	}

	/**
	 * The call `seq` ended: fine (`ok`), failed otherwise (neutral), or pushed
	 * back by the service with its Retry-After (0: none); `quota`: the
	 * push-back was a 429 (a 503 is overload).
	 */
	release(seq: number, outcome: { ok: boolean } | { pushBackMs: number; quota?: boolean }): void {
		this.inFlight--;
		const now = this.clock.now();
		const began = this.startedAt.get(seq) ?? now;
		this.startedAt.delete(seq);
		while (this.fine.length > 0 && now - this.fine[0].at >= MAX_PACE_MS) this.fine.shift();
		if ('pushBackMs' in outcome) {
			this.stats.pushBacks++;
			this.resumeAt = Math.max(this.resumeAt, now + Math.min(MAX_RETRY_AFTER_MS, Math.max(0, outcome.pushBackMs)));
			if (outcome.pushBackMs > 0) this.paceMs = Math.min(MAX_PACE_MS, outcome.pushBackMs);
			this.grewAt = now;
			if (seq > this.halvedAt) {
				this.halvedAt = this.started - 1;
				this.limitValue = Math.max(1, Math.floor(this.limitValue / 2));
				if (outcome.quota && outcome.pushBackMs > 0) {
					const sustained = this.sustained(now, Math.min(MAX_PACE_MS, outcome.pushBackMs));
					if (sustained > 0 && sustained < this.limitValue) this.limitValue = sustained;
				}
				this.threshold = this.limitValue;
				this.stats.halvings++;
			}
		} else if (outcome.ok) {
			this.fine.push({ at: now, tookMs: now - began });
			const step = this.limitValue < this.threshold ? 1 : 1 / this.limitValue;
			const next = Math.min(this.ceiling, this.limitValue + step);
			if (this.paceMs > 0 && Math.floor(next) > this.limit) {
				// One more call in flight: not before the pace allows (the fraction waits).
				if (now - this.grewAt >= this.paceMs) {
					this.limitValue = next;
					this.grewAt = now;
				}
			} else this.limitValue = next;
		}
		// Every waiter looks again (in arrival order); those without a slot wait again.
		for (const wake of this.waiting.splice(0)) wake();
	}

	/**
	 * The calls in flight the fine answers of the last `windowMs` carried, on
	 * average (the time they took, summed, over the window), rounded up; 0
	 * when none came.
	 */
	private sustained(now: number, windowMs: number): number {
		let busyMs = 0;
		for (const f of this.fine) if (now - f.at < windowMs) busyMs += Math.max(1, f.tookMs);
		return busyMs > 0 ? Math.ceil(busyMs / Math.max(1, windowMs)) : 0;
	}
}

/** Retry-After (seconds, or an HTTP date) in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: unknown, now: number = Date.now()): number | undefined {
	const v = Array.isArray(value) ? value[0] : value;
	if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v * 1000;
	if (typeof v !== 'string' || v.trim() === '') return undefined;
	const s = v.trim();
	if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
	const at = Date.parse(s);
	return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
