/**
 * A Map that holds at most `limit` keys: adding a new key at the bound lets
 * the oldest-added one go first (a Map keeps insertion order). The process
 * memories of the webhook nodes use it: the per-scope claim memories
 * (claim/index.ts) and the trigger's per-credential reads
 * (webhookCredential.ts). Re-setting a key keeps its place; delete it
 * first to make it the newest.
 */
export class BoundedMap<K, V> extends Map<K, V> {
	constructor(private readonly limit: number) {
		super();
	}

	override set(key: K, value: V): this {
		if (!this.has(key) && this.size >= this.limit) {
			const oldest = this.keys().next();
			if (!oldest.done) this.delete(oldest.value);
		}
		return super.set(key, value);
	}
}
