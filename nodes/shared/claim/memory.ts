import { BoundedMap } from '../boundedMap';

/**
 * The bounded memory under every claim (nodes/shared/claim/index.ts): keys
 * already handled, per scope, each with the time it was taken and, when
 * known, the service's date of its record. Pure: time is an argument.
 *
 * Primary: one in-process map per (workflow, node, mode), shared by every
 * request the process handles. Checking and recording a key is synchronous,
 * so two concurrent requests for the same key in one process can never both
 * pass.
 *
 * Secondary: a short list of recent keys in the workflow's static data.
 * n8n loads static data per request and writes it back whole afterwards,
 * so concurrent requests overwrite each other's additions; the list only
 * carries keys across a restart or to another process that loads the
 * workflow after the write landed. It is merged into the primary, never
 * trusted as complete.
 *
 * Horizon (fail closed past the bounds). A key can be dated with the
 * service's own record date (`createdDate`, which never changes once the
 * record exists). When a dated key leaves the memory (past the count, past
 * the time window, or left out of static data over a restart), the memory
 * raises its `horizon` to that date: every key dated after the horizon is
 * still remembered, so for a key not remembered the service's date decides
 * (`decide`): after the horizon, never handled (go on); on or before it, or
 * undated while a horizon exists, the memory cannot tell (the caller
 * refuses with a reason). Dates are compared as the service writes them
 * (`YYYY-MM-DD HH:MM:SS`, one service, one clock and one time zone), never
 * against this machine's clock.
 */

export interface SeenWindow {
	/** How long a key is remembered, in milliseconds. */
	ttlMs: number;
	/** How many keys are remembered at most (oldest dropped first). */
	maxEntries: number;
}

/** A service timestamp (`YYYY-MM-DD HH:MM:SS`, or ISO) as comparable text, else undefined. */
export function serviceTime(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(value.trim());
	return m ? `${m[1]} ${m[2]}` : undefined;
}

/** What the memory says of a key it does not hold, given the service's date of the record. */
export type Decision =
	| { known: false; reason?: undefined }
	| { known: true; reason: string };

/** A persisted entry: key, time accepted (ms), and the service's date when known. */
export type PersistedKey = [string, number] | [string, number, string];

export class SeenKeys {
	/** key -> time first accepted (ms). Map keeps insertion order: oldest first. */
	private readonly entries = new Map<string, number>();
	/** key -> the service's date of the record (createdDate), when known. */
	private readonly dates = new Map<string, string>();
	/** The newest service date among keys this memory let go (undefined: none let go yet). */
	private horizonDate: string | undefined;
	/** Whether static data was merged once already (its horizon is taken only then). */
	private seeded = false;

	constructor(readonly window: SeenWindow) {}

	get horizon(): string | undefined {
		return this.horizonDate;
	}

	/** Raises the horizon (never lowers it). */
	raiseHorizon(date: string | undefined): void {
		const t = serviceTime(date);
		if (t !== undefined && (this.horizonDate === undefined || t > this.horizonDate)) this.horizonDate = t;
	}

	/** Dates a remembered key with the service's record date. */
	setDate(key: string, date: unknown): void {
		const t = serviceTime(date);
		if (t !== undefined && this.entries.has(key)) this.dates.set(key, t);
	}

	/**
	 * For a key NOT remembered: can the memory vouch that it was never
	 * handled? Yes when no dated key was ever let go, or the record's date is
	 * after the horizon; otherwise `known: true` with the reason.
	 */
	decide(date: unknown): Decision {
		if (this.horizonDate === undefined) return { known: false };
		const t = serviceTime(date);
		if (t === undefined) {
			return {
				known: true,
				reason: `the service's record carries no readable createdDate, and this node's memory no longer covers every event (it holds events created after ${this.horizonDate} only)`,
			};
		}
		if (t > this.horizonDate) return { known: false };
		return {
			known: true,
			reason: `the service's record was created ${t}, on or before ${this.horizonDate}, the oldest point this node's memory still covers: it may have been handled already`,
		};
	}

	/** Lets a key go for good (the horizon covers it from now on). */
	private evict(key: string): void {
		const date = this.dates.get(key);
		if (date !== undefined) this.raiseHorizon(date);
		else if (this.dates.size > 0) {
			// An undated key: the newest date still held stands in for it.
			let newest: string | undefined;
			for (const d of this.dates.values()) if (newest === undefined || d > newest) newest = d;
			this.raiseHorizon(newest);
		}
		this.entries.delete(key);
		this.dates.delete(key);
	}

	get size(): number {
		return this.entries.size;
	}

	/** Drops keys older than the window and, beyond the count, the oldest. */
	prune(now: number): void {
		const oldest = now - this.window.ttlMs;
		for (const [key, at] of this.entries) {
			if (at >= oldest && this.entries.size <= this.window.maxEntries) break;
			if (at < oldest || this.entries.size > this.window.maxEntries) this.evict(key);
		}
	}

	/** When a remembered key was recorded (ms), else undefined. */
	at(key: string, now: number): number | undefined {
		return this.has(key, now) ? this.entries.get(key) : undefined;
	}

	has(key: string, now: number): boolean {
		const at = this.entries.get(key);
		return at !== undefined && at >= now - this.window.ttlMs;
	}

	/**
	 * Records the key unless it is already remembered. Returns true when the
	 * key is new (the caller goes ahead), false for a repeat.
	 */
	checkAndAdd(key: string, now: number): boolean {
		if (this.has(key, now)) return false;
		// Expired but not pruned yet: let go properly (the horizon covers it).
		if (this.entries.has(key)) this.evict(key);
		this.entries.set(key, now);
		this.prune(now);
		return true;
	}

	/** Forgets a key (a claim given up: the event was not confirmed, a repeat may try again). */
	forget(key: string): void {
		this.entries.delete(key);
		this.dates.delete(key);
	}

	/** Adds keys remembered elsewhere (static data) without reordering known ones. */
	merge(pairs: PersistedKey[], now: number, horizon?: unknown): void {
		// The persisted horizon covers the keys left out of static data: a
		// memory that starts from static data (a restart, another process)
		// takes it once; a live memory still holds those keys.
		if (!this.seeded) this.raiseHorizon(typeof horizon === 'string' ? horizon : undefined);
		this.seeded = true;
		const oldest = now - this.window.ttlMs;
		for (const [, at, date] of pairs) {
			// Expired while persisted: the horizon covers it.
			if (typeof at === 'number' && at < oldest && date !== undefined) this.raiseHorizon(date);
		}
		const fresh = pairs
			.filter(([key, at]) => typeof key === 'string' && typeof at === 'number' && at >= oldest && !this.entries.has(key))
			.sort((a, b) => a[1] - b[1]);
		if (fresh.length === 0) return;
		// Re-insert in time order so "oldest first" stays true.
		const all: Array<[string, number]> = [...this.entries.entries(), ...fresh.map(([k, at]): [string, number] => [k, at])].sort(
			(a, b) => a[1] - b[1],
		);
		this.entries.clear();
		for (const [key, at] of all) this.entries.set(key, at);
		for (const [key, , date] of fresh) if (date !== undefined) this.setDate(key, date);
		this.prune(now);
	}

	/** The newest `limit` keys, oldest first, for static data (with their service dates when known). */
	newest(limit: number): PersistedKey[] {
		const out: PersistedKey[] = [];
		let skip = this.entries.size - limit;
		for (const [key, at] of this.entries) {
			if (skip-- > 0) continue;
			const date = this.dates.get(key);
			out.push(date === undefined ? [key, at] : [key, at, date]);
		}
		return out;
	}

	/**
	 * The horizon to persist beside `newest(limit)`: the memory's own, raised
	 * by the dates of the keys left out (a process that starts from static
	 * data alone must not take those for never handled).
	 */
	horizonBeyond(limit: number): string | undefined {
		let h = this.horizonDate;
		let skip = this.entries.size - limit;
		let newestLeftOut: string | undefined;
		let undatedLeftOut = false;
		for (const [key] of this.entries) {
			if (skip-- <= 0) break;
			const date = this.dates.get(key);
			if (date === undefined) undatedLeftOut = true;
			else if (newestLeftOut === undefined || date > newestLeftOut) newestLeftOut = date;
		}
		if (undatedLeftOut) for (const d of this.dates.values()) if (newestLeftOut === undefined || d > newestLeftOut) newestLeftOut = d;
		if (newestLeftOut !== undefined && (h === undefined || newestLeftOut > h)) h = newestLeftOut;
		return h;
	}
}

/**
 * Process-wide memories, one per scope (workflow, node and mode). Each use
 * (the trigger's seen and held events, the page's emitted checkouts) keeps
 * its own registry, bounded in scopes.
 */
export class SeenRegistry {
	private readonly scopes: BoundedMap<string, SeenKeys>;

	constructor(maxScopes = 1000) {
		this.scopes = new BoundedMap(maxScopes);
	}

	/** The memory for one scope (created on first use, with this window; the oldest scope let go past the bound). */
	for(scope: string, window: SeenWindow): SeenKeys {
		let keys = this.scopes.get(scope);
		if (keys === undefined) {
			keys = new SeenKeys(window);
			this.scopes.set(scope, keys);
		}
		return keys;
	}

	/** Forgets every scope. */
	clear(): void {
		this.scopes.clear();
	}
}

/** Reads the secondary list from static data, ignoring anything malformed. */
export function readPersistedKeys(value: unknown): PersistedKey[] {
	if (!Array.isArray(value)) return [];
	const out: PersistedKey[] = [];
	for (const entry of value) {
		if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') {
			const date = serviceTime(entry[2]);
			out.push(date === undefined ? [entry[0], entry[1]] : [entry[0], entry[1], date]);
		}
	}
	return out;
}
