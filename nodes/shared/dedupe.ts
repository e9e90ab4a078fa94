/**
 * Bounded memory of event keys already handled: repeated webhook
 * deliveries (PayOnUs Trigger) and checkouts already emitted (PayOnUs
 * Payment Page, which claims a key, and releases it with `forget` when n8n
 * could not create the execution).
 *
 * Primary: one in-process map per (workflow, node, mode), shared by every
 * request the process handles. Checking and recording a key is synchronous,
 * so two concurrent deliveries of the same event in one process can never
 * both pass.
 *
 * Secondary: a short list of recent keys in the workflow's static data.
 * n8n loads static data per request and writes it back whole afterwards,
 * so concurrent requests overwrite each other's additions; the list only
 * carries keys across a restart or to another process that loads the
 * workflow after the write landed. It is merged into the primary, never
 * trusted as complete.
 */

export interface SeenWindow {
	/** How long a key is remembered, in milliseconds. */
	ttlMs: number;
	/** How many keys are remembered at most (oldest dropped first). */
	maxEntries: number;
}

export class SeenKeys {
	/** key -> time first accepted (ms). Map keeps insertion order: oldest first. */
	private readonly entries = new Map<string, number>();

	constructor(readonly window: SeenWindow) {}

	get size(): number {
		return this.entries.size;
	}

	/** Drops keys older than the window and, beyond the count, the oldest. */
	prune(now: number): void {
		const oldest = now - this.window.ttlMs;
		for (const [key, at] of this.entries) {
			if (at >= oldest && this.entries.size <= this.window.maxEntries) break;
			if (at < oldest || this.entries.size > this.window.maxEntries) this.entries.delete(key);
		}
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
		this.entries.delete(key);
		this.entries.set(key, now);
		this.prune(now);
		return true;
	}

	/** Forgets a key (a claim given up: the event was not confirmed, a repeat may try again). */
	forget(key: string): void {
		this.entries.delete(key);
	}

	/** Adds keys remembered elsewhere (static data) without reordering known ones. */
	merge(pairs: Array<[string, number]>, now: number): void {
		const oldest = now - this.window.ttlMs;
		const fresh = pairs
			.filter(([key, at]) => typeof key === 'string' && typeof at === 'number' && at >= oldest && !this.entries.has(key))
			.sort((a, b) => a[1] - b[1]);
		if (fresh.length === 0) return;
		// Re-insert in time order so "oldest first" stays true.
		const all = [...this.entries.entries(), ...fresh].sort((a, b) => a[1] - b[1]);
		this.entries.clear();
		for (const [key, at] of all) this.entries.set(key, at);
		this.prune(now);
	}

	/** The newest `limit` keys, oldest first, for static data. */
	newest(limit: number): Array<[string, number]> {
		const out: Array<[string, number]> = [];
		let skip = this.entries.size - limit;
		for (const entry of this.entries) {
			if (skip-- > 0) continue;
			out.push(entry);
		}
		return out;
	}
}

/**
 * Process-wide memories, one per scope (for the webhook trigger: workflow,
 * node and mode). Each node keeps its own registry, bounded in scopes.
 */
export class SeenRegistry {
	private readonly scopes = new Map<string, SeenKeys>();

	constructor(private readonly maxScopes = 1000) {}

	/** The memory for one scope (created on first use, with this window). */
	for(scope: string, window: SeenWindow): SeenKeys {
		let keys = this.scopes.get(scope);
		if (keys === undefined) {
			if (this.scopes.size >= this.maxScopes) {
				const first = this.scopes.keys().next().value;
				if (first !== undefined) this.scopes.delete(first);
			}
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

/** The PayOnUs Trigger's registry. */
const triggerRegistry = new SeenRegistry();

/** The webhook trigger's process-wide memory for one scope (created on first use). */
export function seenKeysFor(scope: string, window: SeenWindow): SeenKeys {
	return triggerRegistry.for(scope, window);
}

/** Test hook: forget every scope of the webhook trigger. */
export function resetSeenKeys(): void {
	triggerRegistry.clear();
}

/** Reads the secondary list from static data, ignoring anything malformed. */
export function readPersistedKeys(value: unknown): Array<[string, number]> {
	if (!Array.isArray(value)) return [];
	const out: Array<[string, number]> = [];
	for (const entry of value) {
		if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number') {
			out.push([entry[0], entry[1]]);
		}
	}
	return out;
}
