import { addMoney } from '../moneyRequest';

/**
 * The running totals of this n8n process: per execution, and per node over
 * a sliding window, each per currency (kept in memory, never in workflow
 * static data: see ./index.ts).
 */

/** An execution's totals are forgotten only after this long unused (never while it may still run). */
export const EXECUTION_IDLE_MS = 24 * 60 * 60 * 1000;
/** More calls than this in one window for one node: refused (cannot be counted in bounded memory). */
export const MAX_WINDOW_ENTRIES = 10_000;

/** Executions whose running totals are kept at most (oldest forgotten first). */
export const MAX_TRACKED_EXECUTIONS = 1000;

/**
 * Running totals per execution (scoped to workflow and node) and currency,
 * in memory (one n8n process). An execution's totals are forgotten only once
 * unused for EXECUTION_IDLE_MS, never because other executions came: beyond
 * `softMax` executions the oldest idle ones are dropped, and the map grows
 * rather than forget one that may still be running (fail closed).
 */
export class ExecutionTotals {
	private readonly totals = new Map<string, { used: number; byCurrency: Map<string, number> }>();

	constructor(
		private readonly softMax = MAX_TRACKED_EXECUTIONS,
		private readonly now: () => number = () => Date.now(),
	) {}

	get(executionId: string, currency: string): number {
		return this.totals.get(executionId)?.byCurrency.get(currency) ?? 0;
	}

	add(executionId: string, currency: string, amount: number): void {
		const entry = this.totals.get(executionId) ?? { used: 0, byCurrency: new Map<string, number>() };
		this.totals.delete(executionId);
		entry.used = this.now();
		entry.byCurrency.set(currency, addMoney(entry.byCurrency.get(currency) ?? 0, amount));
		this.totals.set(executionId, entry);
		while (this.totals.size > this.softMax) {
			const [oldestId, oldest] = this.totals.entries().next().value as [string, { used: number }];
			if (this.now() - oldest.used < EXECUTION_IDLE_MS) break;
			this.totals.delete(oldestId);
		}
	}

	get size(): number {
		return this.totals.size;
	}
}

/**
 * Money-moving calls of one node in one workflow over a sliding window, per
 * currency, in memory (one n8n process).
 */
export class WindowTotals {
	private readonly calls = new Map<string, Array<{ at: number; currency: string; amount: number }>>();

	constructor(readonly now: () => number = () => Date.now()) {}

	private live(scope: string, windowMs: number) {
		const since = this.now() - windowMs;
		const list = (this.calls.get(scope) ?? []).filter((c) => c.at > since);
		if (list.length === 0) this.calls.delete(scope);
		else this.calls.set(scope, list);
		return list;
	}

	/** The total in the window, or undefined when too many calls to count. */
	get(scope: string, currency: string, windowMs: number): number | undefined {
		const list = this.live(scope, windowMs);
		if (list.length >= MAX_WINDOW_ENTRIES) return undefined;
		return list.filter((c) => c.currency === currency).reduce((sum, c) => addMoney(sum, c.amount), 0);
	}

	add(scope: string, currency: string, amount: number): void {
		const list = this.calls.get(scope) ?? [];
		list.push({ at: this.now(), currency, amount });
		this.calls.set(scope, list);
	}
}

/** The totals of this n8n process. */
export const EXECUTION_TOTALS = new ExecutionTotals();
/** The window totals of this n8n process. */
export const WINDOW_TOTALS = new WindowTotals();
