/**
 * The one claim/dedupe mechanism of the webhook nodes (nodes/shared/claim):
 * scope, what static data carried, the synchronous claim, keeping the newest
 * keys and the horizon, release, the horizon's decision, test mode. The
 * memory's own cases (as the payment page uses it) are also in
 * paymentPage.test.ts; here they run through the mechanism.
 */
import type { IDataObject } from 'n8n-workflow';
import { ClaimRegistry, type ClaimOptions, type ClaimScope } from '../../nodes/shared/claim';

const DAY = 24 * 60 * 60 * 1000;
const scope: ClaimScope = { workflowId: 'wf-1', nodeId: 'node-1', mode: 'webhook' };
const keptIn = { keys: 'emitted', horizon: 'emittedHorizon', newest: 2 };

function registry(options: Partial<ClaimOptions> = {}): ClaimRegistry {
	return new ClaimRegistry({ window: { ttlMs: 1000, maxEntries: 3 }, keptIn, ...options });
}

describe('claim: one copy wins, a release lets the next try', () => {
	it('claims once, releases after a failed run, merges what static data carried', () => {
		const data: IDataObject = {};
		const claims = registry().open(scope, 0, () => data);
		expect(claims.claim('a', 0)).toBe(true);
		expect(claims.claim('a', 1)).toBe(false);
		expect(claims.has('a', 1)).toBe(true);
		claims.release('a');
		expect(claims.has('a', 2)).toBe(false);
		expect(claims.claim('a', 2)).toBe(true);
		// Another process wrote b and c; this one opens with them.
		const r = registry();
		const carried = r.open(scope, 5, () => ({ emitted: [['b', 3], ['c', 4]] }));
		expect(carried.claim('b', 6)).toBe(false);
		expect(carried.claim('d', 7)).toBe(true);
		expect(carried.has('c', 7)).toBe(true);
		// Past the window a key is free again.
		expect(carried.claim('c', 5000)).toBe(true);
	});

	it('two requests of one scope share the memory: of two concurrent copies one claims', () => {
		const r = registry();
		const first = r.open(scope, 0, () => ({}));
		const second = r.open(scope, 0, () => ({}));
		expect([first.claim('k', 1), second.claim('k', 1)]).toEqual([true, false]);
	});

	it('one memory per workflow, node and mode; registries apart', () => {
		const r = registry();
		r.open(scope, 0).claim('k', 0);
		for (const other of [
			{ ...scope, workflowId: 'wf-2' },
			{ ...scope, nodeId: 'node-2' },
			{ ...scope, mode: 'manual' },
		]) {
			expect(r.open(other, 0).has('k', 0)).toBe(false);
		}
		expect(registry().open(scope, 0).has('k', 0)).toBe(false);
		expect(r.open(scope, 0).has('k', 0)).toBe(true);
		r.release(scope, 'k');
		expect(r.open(scope, 0).has('k', 0)).toBe(false);
		r.open(scope, 0).claim('k', 0);
		r.clear();
		expect(r.open(scope, 0).has('k', 0)).toBe(false);
	});

	it('reclaim starts the key\'s window again', () => {
		const claims = registry().open(scope, 0);
		claims.claim('k', 0);
		claims.reclaim('k', 900);
		expect(claims.has('k', 1500)).toBe(true);
		expect(claims.has('k', 1901)).toBe(false);
	});

	it('takes the window by reference: a memory created after a change has the new bounds', () => {
		const window = { ttlMs: 1000, maxEntries: 3 };
		const r = registry({ window });
		window.ttlMs = 10;
		const claims = r.open(scope, 0);
		claims.claim('k', 0);
		expect(claims.has('k', 11)).toBe(false);
	});
});

describe('keep: the newest keys and the horizon in static data', () => {
	it('writes the newest N keys (dated when the record date is known) under the node\'s field names', () => {
		const data: IDataObject = {};
		const claims = registry({ window: { ttlMs: DAY, maxEntries: 10 } }).open(scope, 0, () => data);
		claims.claim('a', 1);
		claims.keep('a', '2026-01-01 10:00:00');
		expect(data).toEqual({ emitted: [['a', 1, '2026-01-01 10:00:00']] });
		claims.claim('b', 2);
		claims.keep('b');
		claims.claim('c', 3);
		claims.keep('c', '2026-01-01 10:02:00');
		// a left out: the horizon covers it.
		expect(data.emitted).toEqual([
			['b', 2],
			['c', 3, '2026-01-01 10:02:00'],
		]);
		expect(data.emittedHorizon).toBe('2026-01-01 10:00:00');
	});

	it('a claim alone writes nothing; a release after a keep is written with the next keep', () => {
		const data: IDataObject = {};
		const claims = registry().open(scope, 0, () => data);
		claims.claim('a', 0);
		expect(data).toEqual({});
		claims.keep('a');
		claims.release('a');
		claims.claim('b', 1);
		claims.keep('b');
		expect(data.emitted).toEqual([['b', 1]]);
	});

	it('test mode (manual) neither reads nor writes static data', () => {
		const staticData = jest.fn((): IDataObject => ({ emitted: [['old', 0]] }));
		const claims = registry().open({ ...scope, mode: 'manual' }, 0, staticData);
		expect(claims.has('old', 0)).toBe(false);
		expect(claims.claimAndKeep('k', 0)).toEqual({ claimed: true });
		expect(staticData).not.toHaveBeenCalled();
	});

	it('without keptIn (held keys), in process only', () => {
		const staticData = jest.fn((): IDataObject => ({}));
		const claims = registry({ keptIn: undefined }).open(scope, 0, staticData);
		claims.claim('k', 0);
		claims.keep('k');
		expect(staticData).not.toHaveBeenCalled();
	});

	it('malformed static data is ignored', () => {
		const claims = registry().open(scope, 0, () => ({ emitted: 'not a list', emittedHorizon: 42 }));
		expect(claims.claim('k', 0)).toBe(true);
		expect(claims.decide('2020-01-01 00:00:00').known).toBe(false);
	});
});

describe('the horizon: past the memory, the record\'s date decides (issue 22)', () => {
	const window = { ttlMs: 7 * DAY, maxEntries: 20_000 };

	it('reopened after the window: a record created before the horizon is refused; a newer one goes on', () => {
		const claims = registry({ window }).open(scope, 0, () => ({}));
		expect(claims.decide('2026-01-01 10:00:00').known).toBe(false);
		expect(claims.claimAndKeep('PP-a', 0, '2026-01-01 10:00:00')).toEqual({ claimed: true });
		expect(claims.claimAndKeep('PP-b', 1000, '2026-01-01 10:05:00')).toEqual({ claimed: true });
		// Eight days later both aged out (a new claim prunes them); PP-a's receipt is opened again.
		expect(claims.claim('PP-c', 8 * DAY)).toBe(true);
		expect(claims.has('PP-a', 8 * DAY)).toBe(false);
		const again = claims.claimAndKeep('PP-a', 8 * DAY, '2026-01-01 10:00:00');
		expect(again.claimed).toBe(false);
		expect(!again.claimed && again.reason).toContain('may have been handled already');
		// Without a readable date (null: the record has none) the memory cannot vouch either.
		expect(claims.claimAndKeep('PP-x', 8 * DAY, null).claimed).toBe(false);
		// No date given at all: no decision is asked for.
		expect(claims.claimAndKeep('PP-y', 8 * DAY)).toEqual({ claimed: true });
		expect(claims.claimAndKeep('PP-d', 8 * DAY, '2026-01-09 09:00:00')).toEqual({ claimed: true });
	});

	it('past the count and over a restart beyond the persisted keys', () => {
		const data: IDataObject = {};
		const r = registry({ window: { ttlMs: 7 * DAY, maxEntries: 3 } });
		const claims = r.open(scope, 0, () => data);
		for (let n = 0; n < 5; n++) expect(claims.claimAndKeep(`PP-${n}`, n, `2026-01-01 10:0${n}:00`)).toEqual({ claimed: true });
		expect(claims.decide('2026-01-01 10:01:00').known).toBe(true); // PP-1 let go
		expect(claims.decide('2026-01-01 10:05:00').known).toBe(false);
		// Restart: only the newest 2 persisted, with the horizon of those left out.
		r.clear();
		const restarted = r.open(scope, 10, () => data);
		expect(restarted.has('PP-4', 10)).toBe(true);
		expect(restarted.decide('2026-01-01 10:02:00').known).toBe(true); // PP-2: left out of static data
		expect(restarted.decide('2026-01-01 10:06:00').known).toBe(false);
	});

	it('a repeat is refused without a reason (not a horizon refusal)', () => {
		const claims = registry().open(scope, 0);
		claims.claim('k', 0);
		expect(claims.claimAndKeep('k', 1, '2026-01-01 10:00:00')).toEqual({ claimed: false });
	});
});
