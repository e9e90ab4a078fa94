/**
 * The timers of a running sandbox (delayed transfer and refund outcomes,
 * mobile money test numbers, webhook delays). Real timers by default; a test
 * can hand the sandbox ManualTimers and move time on itself, so that "not
 * yet" is checked without waiting on the wall clock.
 */
export interface Timers {
	set(fn: () => void, ms: number): unknown;
	clear(handle: unknown): void;
}

export const realTimers: Timers = {
	set: (fn, ms) => setTimeout(fn, ms),
	clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface ManualTimer {
	at: number;
	seq: number;
	fn: () => void;
}

/** Timers that fire only when `advance` moves their time past them, in due order (then in the order they were set). */
export class ManualTimers implements Timers {
	private nowMs = 0;
	private seq = 0;
	private queue: ManualTimer[] = [];

	set(fn: () => void, ms: number): unknown {
		const timer: ManualTimer = { at: this.nowMs + Math.max(0, ms), seq: ++this.seq, fn };
		this.queue.push(timer);
		return timer;
	}

	clear(handle: unknown): void {
		this.queue = this.queue.filter((t) => t !== handle);
	}

	/** Moves time on by `ms`, running every timer due by then (timers they set run too when due). */
	advance(ms: number): void {
		const until = this.nowMs + ms;
		for (;;) {
			const due = this.queue.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
			if (!due) break;
			this.queue = this.queue.filter((t) => t !== due);
			this.nowMs = due.at;
			due.fn();
		}
		this.nowMs = until;
	}

	/** Timers set and not yet run. */
	get pending(): number {
		return this.queue.length;
	}
}
