/**
 * Which checkouts this process already started the workflow for.
 *
 * A checkout reference is claimed synchronously before the workflow data is
 * handed to n8n (so two concurrent requests that both see a checkout paid
 * start one execution), released again when n8n could not create the
 * execution (the answer to that request was a 5xx: a later request may start
 * it), and kept otherwise. The newest keys also go to the workflow's static
 * data (n8n saves it only after it created the execution), which carries
 * them over a restart and, best effort, to other processes.
 */

export interface EmittedWindow {
	ttlMs: number;
	maxEntries: number;
}

export class EmittedCheckouts {
	/** key -> time claimed (ms); insertion order is oldest first. */
	private readonly entries = new Map<string, number>();

	constructor(readonly window: EmittedWindow) {}

	get size(): number {
		return this.entries.size;
	}

	private prune(now: number): void {
		const oldest = now - this.window.ttlMs;
		for (const [key, at] of this.entries) {
			if (at >= oldest && this.entries.size <= this.window.maxEntries) break;
			this.entries.delete(key);
		}
	}

	/** Keys remembered elsewhere (static data); known keys keep their place. */
	merge(pairs: Array<[string, number]>, now: number): void {
		const oldest = now - this.window.ttlMs;
		const fresh = pairs
			.filter(([key, at]) => at >= oldest && !this.entries.has(key))
			.sort((a, b) => a[1] - b[1]);
		if (fresh.length === 0) return;
		const all = [...this.entries.entries(), ...fresh].sort((a, b) => a[1] - b[1]);
		this.entries.clear();
		for (const [key, at] of all) this.entries.set(key, at);
		this.prune(now);
	}

	/** True when this caller may emit the key (and it is now claimed); false for a repeat. */
	claim(key: string, now: number): boolean {
		const at = this.entries.get(key);
		if (at !== undefined && at >= now - this.window.ttlMs) return false;
		this.entries.delete(key);
		this.entries.set(key, now);
		this.prune(now);
		return true;
	}

	/** The execution could not be created: forget the claim. */
	release(key: string): void {
		this.entries.delete(key);
	}

	has(key: string): boolean {
		return this.entries.has(key);
	}

	/** The newest `limit` keys, oldest first. */
	newest(limit: number): Array<[string, number]> {
		const all = [...this.entries.entries()];
		return all.slice(Math.max(0, all.length - limit));
	}
}

const registry = new Map<string, EmittedCheckouts>();

export function emittedFor(scope: string, window: EmittedWindow): EmittedCheckouts {
	let found = registry.get(scope);
	if (!found) {
		if (registry.size >= 1000) {
			const first = registry.keys().next().value;
			if (first !== undefined) registry.delete(first);
		}
		found = new EmittedCheckouts(window);
		registry.set(scope, found);
	}
	return found;
}
