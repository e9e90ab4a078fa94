/**
 * The one claim/dedupe mechanism of the webhook nodes (nodes/shared/claim):
 * scope, what static data carried, the synchronous claim, keeping the newest
 * keys and the horizon, release, rule 3 (`judge`: new by the date of the
 * record's last change), test mode, the bound on scopes. The cases of the
 * former SeenKeys (the Payment Page tests) and SeenRegistry
 * (trigger/claim.dedupe.test.ts) moved here.
 */
import type { IDataObject } from 'n8n-workflow';
import { changeOf, Claims, type ClaimScope, type ClaimWindow, type KeptIn } from '../../../nodes/shared/claim';

const DAY = 24 * 60 * 60 * 1000;
const keptIn: KeptIn = { keys: 'emitted', horizon: 'emittedHorizon', newest: 2 };
const legacyKeptIn: KeptIn = { ...keptIn, legacy: { keys: 'oldKeys', horizon: 'oldHorizon' } };
const at = (data?: IDataObject, mode = 'webhook', workflowId = 'wf-1'): ClaimScope => ({
	workflowId,
	nodeId: 'node-1',
	mode,
	staticData: data ? () => data : undefined,
});
/** A record that changed at `changed` (created then too unless said). */
const rec = (changed: string, created = changed): IDataObject => ({ createdDate: created, lastUpdatedDate: changed });

function claims(window: ClaimWindow = { ttlMs: 1000, maxEntries: 3 }, kept: KeptIn | undefined = keptIn, maxScopes?: number): Claims {
	return new Claims(window, kept, maxScopes);
}

describe('claim: one copy wins, a release lets the next try', () => {
	it('claims once, releases after a failed run, merges what static data carried', () => {
		const data: IDataObject = {};
		const c = claims();
		expect(c.claim(at(data), 'a', 0)).toBe(true);
		expect(c.claim(at(data), 'a', 1)).toBe(false);
		expect(c.has(at(data), 'a', 1)).toBe(true);
		c.release(at(data), 'a');
		expect(c.has(at(data), 'a', 2)).toBe(false);
		expect(c.claim(at(data), 'a', 2)).toBe(true);
		// Another process wrote b and c; this one starts with them.
		const other = claims();
		const carried = at({ emitted: [['b', 3], ['c', 4]] });
		expect(other.claim(carried, 'b', 6)).toBe(false);
		expect(other.claim(carried, 'd', 7)).toBe(true);
		expect(other.has(carried, 'c', 7)).toBe(true);
		// Past the window a key is free again.
		expect(other.claim(carried, 'c', 5000)).toBe(true);
	});

	it('keeps at most maxEntries keys, the oldest let go first; the newest are written', () => {
		const data: IDataObject = {};
		const c = claims({ ttlMs: 1000, maxEntries: 3 }, { ...keptIn, newest: 2 });
		for (const [k, t] of [['a', 0], ['b', 3], ['c', 4], ['d', 7]] as const) {
			c.claim(at(data), k, t);
			c.keep(at(data), k);
		}
		expect(c.has(at(data), 'a', 7)).toBe(false);
		expect(['b', 'c', 'd'].map((k) => c.has(at(data), k, 7))).toEqual([true, true, true]);
		expect((data.emitted as string[][]).map(([k]) => k)).toEqual(['c', 'd']);
	});

	it('two requests of one scope share the memory: of two concurrent copies one claims', () => {
		const c = claims();
		expect([c.claim(at({}), 'k', 1), c.claim(at({}), 'k', 1)]).toEqual([true, false]);
	});

	it('one memory per workflow, node and mode; instances apart; clear forgets all', () => {
		const c = claims();
		c.claim(at(), 'k', 0);
		for (const other of [at(undefined, 'webhook', 'wf-2'), { ...at(), nodeId: 'node-2' }, at(undefined, 'manual')]) {
			expect(c.has(other, 'k', 0)).toBe(false);
		}
		expect(claims().has(at(), 'k', 0)).toBe(false);
		expect(c.has(at(), 'k', 0)).toBe(true);
		c.release(at(), 'k');
		expect(c.has(at(), 'k', 0)).toBe(false);
		c.claim(at(), 'k', 0);
		c.clear();
		expect(c.has(at(), 'k', 0)).toBe(false);
	});

	it('drops the oldest scope beyond its bound', () => {
		const c = new Claims({ ttlMs: 1000, maxEntries: 3 }, undefined, 2);
		c.claim(at(undefined, 'webhook', '1'), 'k', 0);
		c.claim(at(undefined, 'webhook', '2'), 'k', 0);
		c.claim(at(undefined, 'webhook', '3'), 'k', 0);
		expect(c.has(at(undefined, 'webhook', '1'), 'k', 0)).toBe(false);
		expect(c.has(at(undefined, 'webhook', '3'), 'k', 0)).toBe(true);
	});

	it('a release and a claim again start the key\'s window again', () => {
		const c = claims();
		c.claim(at(), 'k', 0);
		c.release(at(), 'k');
		c.claim(at(), 'k', 900);
		expect(c.has(at(), 'k', 1500)).toBe(true);
		expect(c.has(at(), 'k', 1901)).toBe(false);
	});

	it('reads the window at every use: a change of the bounds applies to memories made before', () => {
		const window = { ttlMs: 1000, maxEntries: 3 };
		const c = claims(window);
		window.ttlMs = 10;
		c.claim(at(), 'k', 0);
		expect(c.has(at(), 'k', 11)).toBe(false);
	});
});

describe('keep: the newest keys and the horizon in static data', () => {
	it("writes the newest N keys, dated with their record's last change, under the node's field names", () => {
		const data: IDataObject = {};
		const c = claims({ ttlMs: DAY, maxEntries: 10 });
		c.claim(at(data), 'a', 1);
		c.keep(at(data), 'a', rec('2026-01-01 10:00:00', '2025-12-01 09:00:00'));
		expect(data).toEqual({ emitted: [['a', 1, '2026-01-01 10:00:00']] });
		c.claim(at(data), 'b', 2);
		c.keep(at(data), 'b');
		c.claim(at(data), 'c', 3);
		c.keep(at(data), 'c', rec('2026-01-01 10:02:00'));
		// a left out: the horizon covers it.
		expect(data.emitted).toEqual([
			['b', 2],
			['c', 3, '2026-01-01 10:02:00'],
		]);
		expect(data.emittedHorizon).toBe('2026-01-01 10:00:00');
	});

	it('a claim alone writes nothing; a release after a keep is written at once', () => {
		const data: IDataObject = {};
		const c = claims();
		c.claim(at(data), 'a', 0);
		expect(data).toEqual({});
		c.keep(at(data), 'a');
		expect(data.emitted).toEqual([['a', 0]]);
		c.release(at(data), 'a');
		expect(data.emitted).toEqual([]);
		c.claim(at(data), 'b', 1);
		c.keep(at(data), 'b');
		expect(data.emitted).toEqual([['b', 1]]);
	});

	it('a claim in flight is never written: a process starting from static data does not take it for handled', () => {
		// Request A claims K (its confirmation still running); request B keeps J meanwhile.
		const a: IDataObject = {};
		const b: IDataObject = {};
		const c = claims({ ttlMs: DAY, maxEntries: 10 });
		c.claim(at(a), 'K', 1);
		c.claim(at(b), 'J', 2);
		c.keep(at(b), 'J', rec('2026-01-01 10:00:00'));
		expect((b.emitted as string[][]).map(([k]) => k)).toEqual(['J']);
		// A's event is not confirmed: released. A later copy, read through B's static data, may claim it again.
		c.release(at(a), 'K');
		expect(c.claim(at(b), 'K', 3)).toBe(true);
		c.clear();
		expect(c.claim(at(b), 'K', 4)).toBe(true);
		expect(c.claim(at(b), 'J', 4)).toBe(false);
	});

	it('test mode (manual) neither reads nor writes static data', () => {
		const staticData = jest.fn((): IDataObject => ({ emitted: [['old', 0]] }));
		const c = claims();
		const manual = { ...at(undefined, 'manual'), staticData };
		expect(c.has(manual, 'old', 0)).toBe(false);
		expect(c.claim(manual, 'k', 0)).toBe(true);
		c.keep(manual, 'k');
		expect(staticData).not.toHaveBeenCalled();
	});

	it('without keptIn (held keys), in process only', () => {
		const staticData = jest.fn((): IDataObject => ({}));
		const c = new Claims({ ttlMs: 1000, maxEntries: 3 });
		const scope = { ...at(), staticData };
		c.claim(scope, 'k', 0);
		c.keep(scope, 'k');
		expect(staticData).not.toHaveBeenCalled();
	});

	it('malformed static data is ignored', () => {
		const c = claims();
		const scope = at({ emitted: 'not a list', emittedHorizon: 42 });
		expect(c.claim(scope, 'k', 0)).toBe(true);
		expect(c.judge(scope, rec('2020-01-01 00:00:00')).known).toBe(false);
	});
});

describe('rule 3: past the memory, the date of the record\'s last change decides', () => {
	const window = { ttlMs: 7 * DAY, maxEntries: 20_000 };

	it('changeOf: the later of lastUpdatedDate and createdDate, else undefined', () => {
		expect(changeOf(rec('2026-01-03 08:00:00', '2026-01-01 10:00:00'))).toBe('2026-01-03 08:00:00');
		expect(changeOf({ createdDate: '2026-01-01 10:00:00' })).toBe('2026-01-01 10:00:00');
		expect(changeOf({ createdDate: '2026-01-02T10:00:00Z', lastUpdatedDate: '2026-01-01 10:00:00' })).toBe('2026-01-02 10:00:00');
		expect(changeOf({ lastUpdatedDate: 'yesterday' })).toBeUndefined();
		expect(changeOf(null)).toBeUndefined();
	});

	it('after the window: a change already let go is refused; a record born before the horizon but changed after goes on', () => {
		const c = claims(window);
		const s = at({});
		expect(c.judge(s, rec('2026-01-01 10:00:00')).known).toBe(false);
		c.claim(s, 'PP-a', 0);
		c.keep(s, 'PP-a', rec('2026-01-01 10:00:00'));
		c.claim(s, 'PP-b', 1000);
		c.keep(s, 'PP-b', rec('2026-01-01 10:05:00'));
		// Eight days later both aged out (a new claim prunes them); PP-a's receipt is opened again.
		expect(c.claim(s, 'PP-c', 8 * DAY)).toBe(true);
		expect(c.has(s, 'PP-a', 8 * DAY)).toBe(false);
		const again = c.judge(s, rec('2026-01-01 10:00:00'));
		expect(again.known).toBe(true);
		expect(again.reason).toContain('may have been handled already');
		expect(c.judge(s, rec('2026-01-01 10:05:00')).known).toBe(true);
		// Without a readable date the memory cannot vouch either.
		expect(c.judge(s, null).known).toBe(true);
		expect(c.judge(s, { createdDate: 'n/a' }).known).toBe(true);
		// Rule 3: created long before the horizon, paid (changed) after it: new.
		expect(c.judge(s, rec('2026-01-09 09:00:00', '2025-12-20 10:00:00')).known).toBe(false);
		expect(c.judge(s, rec('2026-01-01 10:05:01', '2026-01-01 09:00:00')).known).toBe(false);
	});

	it('past the count and over a restart beyond the persisted keys', () => {
		const data: IDataObject = {};
		const c = claims({ ttlMs: 7 * DAY, maxEntries: 3 });
		for (let n = 0; n < 5; n++) {
			expect(c.claim(at(data), `PP-${n}`, n)).toBe(true);
			c.keep(at(data), `PP-${n}`, rec(`2026-01-01 10:0${n}:00`, '2025-06-01 00:00:00'));
		}
		expect(c.judge(at(data), rec('2026-01-01 10:01:00')).known).toBe(true); // PP-1 let go
		expect(c.judge(at(data), rec('2026-01-01 10:05:00', '2025-01-01 00:00:00')).known).toBe(false);
		// Restart: only the newest 2 persisted, with the horizon of those left out.
		c.clear();
		expect(c.has(at(data), 'PP-4', 10)).toBe(true);
		expect(c.judge(at(data), rec('2026-01-01 10:02:00')).known).toBe(true); // PP-2: left out of static data
		expect(c.judge(at(data), rec('2026-01-01 10:06:00', '2025-01-01 00:00:00')).known).toBe(false);
	});

	it('an undated key let go: the newest change still held stands in for it (fail closed)', () => {
		const c = claims({ ttlMs: DAY, maxEntries: 2 });
		c.claim(at(), 'undated', 0);
		c.claim(at(), 'dated', 1);
		c.keep(at(), 'dated', rec('2026-01-01 10:00:00'));
		c.claim(at(), 'third', 2);
		expect(c.judge(at(), rec('2026-01-01 10:00:00')).known).toBe(true);
		expect(c.judge(at(), rec('2026-01-01 10:00:01')).known).toBe(false);
	});

	it('static data of a version that dated keys by creation: its horizon still refuses records created on or before it', () => {
		const data: IDataObject = {
			oldKeys: [['old-1', 5, '2026-01-02 10:00:00']],
			oldHorizon: '2026-01-01 10:00:00',
		};
		const c = claims({ ttlMs: DAY, maxEntries: 10 }, legacyKeptIn);
		// Its keys are still repeats.
		expect(c.claim(at(data), 'old-1', 10)).toBe(false);
		// Created before the upgrade (the newest creation it knew): may have been handled, whatever the change date.
		const legacy = c.judge(at(data), rec('2026-01-05 10:00:00', '2026-01-02 10:00:00'));
		expect(legacy.known).toBe(true);
		expect(legacy.reason).toContain('may have been handled already');
		// Created after it: new.
		expect(c.judge(at(data), rec('2026-01-05 10:00:00', '2026-01-02 10:00:01')).known).toBe(false);
		// The next write folds the old list into the old horizon and keeps it.
		c.claim(at(data), 'new-1', 11);
		c.keep(at(data), 'new-1', rec('2026-01-05 10:00:00'));
		expect(data.oldKeys).toBeUndefined();
		expect(data.oldHorizon).toBe('2026-01-02 10:00:00');
		c.clear();
		expect(c.judge(at(data), rec('2026-01-06 10:00:00', '2026-01-02 09:00:00')).known).toBe(true);
	});
});
