import type { IDataObject } from 'n8n-workflow';
import { BoundedMap } from '../boundedMap';

/**
 * The one claim/dedupe mechanism of the webhook nodes (the PayOnUs Trigger's
 * seen and held events, the Payment Page's emitted checkouts), and the one
 * place where rule 3 is enforced
 * (docs/reliability.md#rule-3-an-event-is-new-by-what-changed): an event is
 * new by what changed, never by when its record was born.
 *
 * - Scope: one bounded memory per (workflow, node, mode); `manual` (the Test
 *   URL) never reads or writes static data.
 * - Claim: synchronous (check and record, no await between), so in one
 *   process exactly one of any number of concurrent copies wins.
 * - Keep: a claimed key is dated with the date of its record's last change
 *   (`changeOf`), and the newest keys with the horizon are written to the
 *   workflow's static data, which carries them over a restart and, best
 *   effort, to another process (n8n loads static data per request and writes
 *   it back whole: it is merged into the memory, never trusted as complete).
 * - Release: a claim given up (the run could not be stored, the event was not
 *   confirmed) is forgotten, so a later copy may claim the key again.
 * - Horizon (fail closed past the bounds): a dated key let go (past the time
 *   window, past the count, or left out of static data over a restart) raises
 *   the horizon to its change date. Every key whose record changed after the
 *   horizon is still held, so for a key not held `judge` asks the record:
 *   changed after the horizon, it was never handled (a payment made days
 *   after its account was opened, a payout settled after a weekend); changed
 *   on or before it, or with no readable date, it may have been (refused, with
 *   the reason). Dates are compared as the service writes them
 *   (`YYYY-MM-DD HH:MM:SS`, one service clock), never against this machine's.
 *
 * Time is always an argument: each node injects its clock.
 */

/** How long and how many keys one scope's memory holds. */
export interface ClaimWindow {
	ttlMs: number;
	maxEntries: number;
}

/** Static data field names (public: saved workflows carry them). */
export interface KeptIn {
	/** The newest keys, each `[key, claimed at (ms), change date?]`. */
	keys: string;
	/** The horizon of the keys left out (a change date). */
	horizon: string;
	/** How many of the newest keys are written. */
	newest: number;
	/**
	 * The fields of versions that dated keys by the record's creation: read
	 * once, their horizon kept (a record created on or before it may have been
	 * handled), their key list folded into it and removed.
	 */
	legacy?: { keys: string; horizon: string };
}

/** Whose memory: one per workflow, node and mode (`manual` is the Test URL), with that request's static data. */
export interface ClaimScope {
	workflowId: string | undefined;
	nodeId: string;
	mode: string;
	staticData?: () => IDataObject;
}

/** What the memory can say of a key it does not hold. */
export type Judgement = { known: false; reason?: undefined } | { known: true; reason: string };

/** A service timestamp (`YYYY-MM-DD HH:MM:SS`, or ISO) as comparable text, else undefined. */
export function serviceTime(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(value.trim());
	return m ? `${m[1]} ${m[2]}` : undefined;
}

/**
 * Rule 3: the date of a record's last change, the later of `lastUpdatedDate`
 * and `createdDate` (a record that does not say when it last changed is
 * dated by its creation: fail closed). Undefined when neither is readable.
 */
export function changeOf(record: IDataObject | null | undefined): string | undefined {
	const updated = serviceTime(record?.lastUpdatedDate);
	const created = serviceTime(record?.createdDate);
	return updated !== undefined && (created === undefined || updated > created) ? updated : created;
}

/** A claimed key: when (ms), its record's change date, and whether it was kept (handled, not in flight). */
interface Entry {
	at: number;
	changed?: string;
	kept?: boolean;
}

interface Memory {
	/** key -> its entry; insertion order is claim order. */
	keys: Map<string, Entry>;
	/** The newest change date among keys let go. */
	horizon?: string;
	/** From static data of an earlier version: records created on or before it may have been handled. */
	legacy?: string;
	/** Whether static data was merged once (its horizons are taken only then). */
	seeded: boolean;
}

const later = (a: string | undefined, b: string | undefined) => (a === undefined || (b !== undefined && b > a) ? b : a);

/** A node's claim memories, one per scope, each bounded in time and count (and the scopes in number). */
export class Claims {
	private readonly scopes: BoundedMap<string, Memory>;

	constructor(
		/** Read at every use (tests shrink it). */
		private readonly window: ClaimWindow,
		/** Where static data keeps them; without it, in process only (the trigger's held events). */
		private readonly keptIn?: KeptIn,
		maxScopes = 1000,
	) {
		this.scopes = new BoundedMap(maxScopes);
	}

	/** Whether the key is claimed (within the window): a repeat. */
	has(scope: ClaimScope, key: string, now: number): boolean {
		return this.held(this.memory(scope, now), key, now);
	}

	/** Claims the key, synchronously: true for the one copy that goes on, false for a repeat. Not kept yet. */
	claim(scope: ClaimScope, key: string, now: number): boolean {
		// one read of the memory (static data merged, pruned) per claim
		const memory = this.memory(scope, now);
		if (this.held(memory, key, now)) return false;
		// Expired but not pruned yet: let go properly (the horizon covers it).
		if (memory.keys.has(key)) this.letGo(memory, key);
		memory.keys.set(key, { at: now });
		this.prune(memory, now);
		return true;
	}

	/** Dates a claimed key with its record's last change (when given) and writes the newest keys to static data. */
	keep(scope: ClaimScope, key: string, record?: IDataObject | null): void {
		const memory = this.memory(scope);
		const entry = memory.keys.get(key);
		const changed = changeOf(record);
		if (entry) {
			entry.kept = true;
			if (changed !== undefined) entry.changed = changed;
		}
		this.write(scope, memory);
	}

	/** Gives a claim up: a later copy may claim the key again (static data forgets it too, if it was kept). */
	release(scope: ClaimScope, key: string): void {
		const memory = this.memory(scope);
		if (!memory.keys.delete(key)) return;
		const kept = this.keptIn && this.staticData(scope)?.[this.keptIn.keys];
		if (Array.isArray(kept) && kept.some((entry) => Array.isArray(entry) && entry[0] === key)) this.write(scope, memory);
	}

	/**
	 * For a key the memory does not hold, given the service's record: can the
	 * memory vouch that this change was never handled?
	 */
	judge(scope: ClaimScope, record: IDataObject | null | undefined): Judgement {
		const { horizon, legacy } = this.memory(scope);
		if (horizon === undefined && legacy === undefined) return { known: false };
		const changed = changeOf(record);
		if (changed === undefined) {
			return {
				known: true,
				reason: `the service's record carries no readable lastUpdatedDate or createdDate, and this node's memory no longer covers every event (it holds changes made after ${String(horizon ?? legacy)} only)`,
			};
		}
		if (horizon !== undefined && changed <= horizon) {
			return {
				known: true,
				reason: `the service's record last changed ${changed}, on or before ${horizon}, the latest change this node's memory let go: it may have been handled already`,
			};
		}
		const created = serviceTime(record?.createdDate);
		if (legacy !== undefined && (created === undefined || created <= legacy)) {
			return {
				known: true,
				reason: `the service's record was created ${String(created)}, on or before ${legacy}, the point an earlier version of this node dated its memory by: it may have been handled already`,
			};
		}
		return { known: false };
	}

	/** Forgets every scope (tests: a restart). */
	clear(): void {
		this.scopes.clear();
	}

	/** The scope's memory, with what static data carries merged in. */
	private held(memory: Memory, key: string, now: number): boolean {
		const entry = memory.keys.get(key);
		return entry !== undefined && entry.at >= now - this.window.ttlMs;
	}

	private memory(scope: ClaimScope, now?: number): Memory {
		const id = `${scope.workflowId ?? ''}:${scope.nodeId}:${scope.mode}`;
		let memory = this.scopes.get(id);
		if (memory === undefined) {
			memory = { keys: new Map(), seeded: false };
			this.scopes.set(id, memory);
		}
		const data = this.staticData(scope);
		if (data && this.keptIn) this.merge(memory, data, this.keptIn, now);
		// Keys past the window are let go before anything is asked (the horizon covers them).
		if (now !== undefined) this.prune(memory, now);
		return memory;
	}

	private staticData(scope: ClaimScope): IDataObject | undefined {
		return scope.mode === 'manual' || !this.keptIn ? undefined : scope.staticData?.();
	}

	/**
	 * Takes the horizons static data carries (once), and, given the time, adds
	 * its keys (another process, a restart) without reordering known ones.
	 */
	private merge(memory: Memory, data: IDataObject, keptIn: KeptIn, now: number | undefined): void {
		if (!memory.seeded) {
			// The persisted horizons cover the keys left out of static data: a
			// memory that starts from static data takes them once; a live one still holds those keys.
			memory.seeded = true;
			memory.horizon = later(memory.horizon, serviceTime(data[keptIn.horizon]));
			if (keptIn.legacy) {
				memory.legacy = later(memory.legacy, serviceTime(data[keptIn.legacy.horizon]));
				for (const [key, at, created] of persisted(data[keptIn.legacy.keys])) {
					memory.legacy = later(memory.legacy, created);
					if (!memory.keys.has(key)) memory.keys.set(key, { at: now ?? at, kept: true });
				}
			}
		}
		if (now === undefined) return;
		const oldest = now - this.window.ttlMs;
		const fresh: Array<[string, number, string | undefined]> = [];
		for (const [key, at, changed] of persisted(data[keptIn.keys])) {
			if (at < oldest) memory.horizon = later(memory.horizon, changed); // expired while persisted
			else if (!memory.keys.has(key)) fresh.push([key, at, changed]);
		}
		if (fresh.length === 0) return;
		// Re-inserted in claim order so that "oldest first" stays true.
		const all = [...memory.keys.entries(), ...fresh.map(([key, at, changed]): [string, Entry] => [key, { at, changed, kept: true }])];
		all.sort((a, b) => a[1].at - b[1].at);
		memory.keys = new Map(all);
	}

	/**
	 * Writes the newest kept keys (a claim in flight is not handled yet: a
	 * process that starts from static data must not take it for handled) and
	 * the horizon of those left out (and the legacy horizon, its list removed).
	 */
	private write(scope: ClaimScope, memory: Memory): void {
		const data = this.staticData(scope);
		if (!data || !this.keptIn) return;
		const { keys, horizon, newest, legacy } = this.keptIn;
		const kept = [...memory.keys].filter(([, entry]) => entry.kept);
		const out: Array<[string, number] | [string, number, string]> = [];
		let beyond = memory.horizon;
		let undatedLeftOut = false;
		kept.forEach(([key, entry], i) => {
			if (i >= kept.length - newest) out.push(entry.changed === undefined ? [key, entry.at] : [key, entry.at, entry.changed]);
			else if (entry.changed === undefined) undatedLeftOut = true;
			else beyond = later(beyond, entry.changed);
		});
		// An undated key left out: the newest change still held stands in for it.
		if (undatedLeftOut) beyond = later(beyond, this.newestChange(memory));
		data[keys] = out;
		if (beyond !== undefined) data[horizon] = beyond;
		if (legacy) {
			delete data[legacy.keys];
			if (memory.legacy !== undefined) data[legacy.horizon] = memory.legacy;
		}
	}

	/** Drops keys older than the window and, beyond the count, the oldest. */
	private prune(memory: Memory, now: number): void {
		const oldest = now - this.window.ttlMs;
		// The newest change held, read once per prune, not once per undated key let
		// go: the keys let go before raised the horizon to their own changes, so
		// later(horizon, newest before the loop) is later(horizon, newest left).
		let newest: { value: string | undefined } | undefined;
		const newestHeld = () => (newest ??= { value: this.newestChange(memory) }).value;
		for (const [key, entry] of memory.keys) {
			const over = memory.keys.size > this.window.maxEntries;
			if (entry.at >= oldest && !over) break;
			this.letGo(memory, key, newestHeld);
		}
	}

	/** Lets a key go for good: the horizon covers it from now on. */
	private letGo(memory: Memory, key: string, newestHeld = () => this.newestChange(memory)): void {
		const entry = memory.keys.get(key);
		memory.keys.delete(key);
		// An undated key: the newest change still held stands in for it.
		memory.horizon = later(memory.horizon, entry?.changed ?? newestHeld());
	}

	private newestChange(memory: Memory): string | undefined {
		let newest: string | undefined;
		for (const entry of memory.keys.values()) newest = later(newest, entry.changed);
		return newest;
	}
}

/** The key list static data carries, anything malformed ignored. */
function persisted(value: unknown): Array<[string, number, string | undefined]> {
	if (!Array.isArray(value)) return [];
	const out: Array<[string, number, string | undefined]> = [];
	for (const entry of value) {
		if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') out.push([entry[0], entry[1], serviceTime(entry[2])]);
	}
	return out;
}
