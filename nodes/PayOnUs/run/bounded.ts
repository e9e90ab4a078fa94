import { UnexpectedError, type IDataObject } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../../shared/clientInterface';

/** The runner of a run's items in flight (reads and writes), and the read-only client. */

/** The client handed to a read-only operation: GET only, nothing money-moving. */
export function readOnlyClient(client: PayOnUsClient): PayOnUsClient {
	return {
		environment: client.environment,
		defaults: client.defaults,
		request: async <T = IDataObject>(opts: RequestOptions): Promise<T> => {
			if (opts.method !== 'GET' || opts.moneyMoving) {
				throw new UnexpectedError(`${opts.method} ${opts.path} refused: this operation is run as read only (GET)`);
			}
			return await client.request<T>(opts);
		},
		paginate: async <T = IDataObject>(opts: PaginateOptions): Promise<T[]> => await client.paginate<T>(opts),
	};
}

/**
 * Runs items [from, to) with at most `limit` in flight, storing each result at
 * its index (so the output keeps the input order). A failure (thrown only
 * without continueOnFail) stops new items from starting; the items already
 * started finish, then the failure of the LOWEST failing item is thrown: the
 * same error a one-by-one run would have stopped at; a `run` that throws
 * before returning its promise fails at once, so no later item starts. With
 * `keys`, items sharing a key are never in flight together and run in input order.
 */
export async function runBounded<R>(
	from: number,
	to: number,
	limit: number,
	results: R[],
	run: (index: number) => Promise<R>,
	keys?: (index: number) => string[],
): Promise<void> {
	let next = from;
	let failedAt = -1;
	let failure: unknown;
	// Items sharing a key (`keys`): each waits for the earlier items holding
	// any of its keys to finish (they started before it: no cycle).
	const done = new Map<number, Promise<void>>();
	const lastOf = new Map<string, number>();
	const worker = async () => {
		while (next < to && failedAt < 0) {
			const index = next++;
			const before = new Set<number>();
			for (const key of keys?.(index) ?? []) {
				const last = lastOf.get(key);
				if (last !== undefined) before.add(last);
				lastOf.set(key, index);
			}
			let finish!: () => void;
			done.set(index, new Promise<void>((resolve) => (finish = resolve)));
			try {
				for (const k of before) await done.get(k);
				// An earlier item failed meanwhile (the run stops): this one is not started.
				if (failedAt >= 0 && failedAt < index) continue;
				results[index] = await run(index);
			} catch (error) {
				if (failedAt < 0 || index < failedAt) {
					failedAt = index;
					failure = error;
				}
			} finally {
				finish();
			}
		}
	};
	const workers = Math.max(1, Math.min(limit, to - from));
	await Promise.all(Array.from({ length: workers }, async () => await worker()));
	if (failedAt >= 0) throw failure;
}
