import { sleep, type IDataObject, type INodeProperties } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../../shared/client';

/**
 * Money-Moving Concurrency: items of a state-changing operation in flight at
 * once. Each item keeps its reference and its lookup before any resend
 * (transport.ts); results are stored by index (input order); one back-off is
 * shared by the execution (SharedBackoff). README "Performance over a real network".
 */

// 1: saved workflows keep sending one item after the other, as before the
// option existed (items that depend on each other, e.g. a repeat of a reference,
// keep their order); 2 to 8 is the user's choice for speed.
export const MONEY_MOVING_CONCURRENCY_DEFAULT = 1;
export const MONEY_MOVING_CONCURRENCY_MAX = 8;

/** The Options collection with Money-Moving Concurrency, shown for the given operations of a resource. */
export function concurrencyOptions(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: operations } },
		options: [
			{
				displayName: 'Money-Moving Concurrency',
				name: 'moneyMovingConcurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MONEY_MOVING_CONCURRENCY_MAX, numberPrecision: 0 },
				default: MONEY_MOVING_CONCURRENCY_DEFAULT,
				description:
					'How many items are sent at once (1 to 8; 1, the default, = one after the other, as before this option existed; more is faster over a slow link when the items do not depend on each other). Each item keeps its own reference and is looked up by it before any resend; the output keeps the input order; a "too many requests" or server error pauses every item of the run.',
			},
		],
	};
}

/** The option's value for this run: a whole number from 1 to the maximum (anything else: the default). */
export function moneyMovingConcurrency(value: unknown): number {
	const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	if (!Number.isFinite(n)) return MONEY_MOVING_CONCURRENCY_DEFAULT;
	return Math.min(MONEY_MOVING_CONCURRENCY_MAX, Math.max(1, Math.floor(n)));
}

/**
 * One back-off per execution: the transport's pause (429, 5xx, resend, lookup
 * retry) moves the shared resume time; every call waits at `gate` first.
 */
/** The clock of SharedBackoff; tests replace `now` and `wait` (injected time, no wall clock). */
export const backoffClock = {
	now: (): number => Date.now(),
	wait: async (ms: number): Promise<void> => await sleep(ms),
};

export class SharedBackoff {
	private resumeAt = 0;

	constructor(
		private readonly now: () => number = () => backoffClock.now(),
		private readonly wait: (ms: number) => Promise<void> = async (ms) => await backoffClock.wait(ms),
	) {}

	/** When calls may go again (ms, the injected clock). */
	get until(): number {
		return this.resumeAt;
	}

	/** Backs the whole run off for `ms` (from now), then waits until the shared resume time. */
	pause = async (ms: number): Promise<void> => {
		this.resumeAt = Math.max(this.resumeAt, this.now() + Math.max(0, ms));
		await this.gate();
	};

	/** Waits until no back-off is running (at once when none is). */
	gate = async (): Promise<void> => {
		for (;;) {
			const left = this.resumeAt - this.now();
			if (left <= 0) return;
			await this.wait(left);
		}
	};
}

/** The client an item gets: every call (lookups included) first waits out the run's back-off. */
export function gatedClient(client: PayOnUsClient, backoff: SharedBackoff): PayOnUsClient {
	return {
		environment: client.environment,
		defaults: client.defaults,
		request: async <T = IDataObject>(opts: RequestOptions): Promise<T> => {
			await backoff.gate();
			return await client.request<T>(opts);
		},
		paginate: async <T = IDataObject>(opts: PaginateOptions): Promise<T[]> => {
			await backoff.gate();
			return await client.paginate<T>(opts);
		},
	};
}
