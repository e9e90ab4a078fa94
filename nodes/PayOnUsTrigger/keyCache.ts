import { BoundedMap } from '../shared/boundedMap';

/**
 * The webhook verification key, remembered briefly per credential.
 *
 * Reading a credential in n8n is a database read plus a decryption; doing it
 * for every delivery is the largest cost the trigger itself adds to a
 * request. A burst of notifications is checked against the key read at most
 * KEY_TTL_MS ago instead.
 *
 * A key change takes effect at once: a signature that does not verify with
 * the remembered key is checked again with a fresh read before the request
 * is refused. The only lag is the other way: for at most KEY_TTL_MS after a
 * change, the previous key is still accepted. Forged requests therefore
 * always pay for a fresh read; genuine ones almost never do.
 *
 * The key stays in this process's memory only; it is never logged or output.
 */

/** How long a key read from the credential is reused. */
export const KEY_TTL_MS = 10_000;
/** Bound on the number of credentials remembered. */
const MAX_CREDENTIALS = 100;

/**
 * What was last read from each credential (its key, or the whole credential:
 * credentialReads.ts), handed out for KEY_TTL_MS after the read; at most
 * MAX_CREDENTIALS credentials, the oldest read let go first.
 */
export class RecentReads<T> {
	private readonly reads = new BoundedMap<string, { value: T; readAt: number }>(MAX_CREDENTIALS);

	/** Remembers a read as the newest (nothing read, undefined, forgets the earlier one). Without a credential id nothing is remembered. */
	remember(credentialId: string | undefined, value: T | undefined, now: number): void {
		if (credentialId === undefined) return;
		this.reads.delete(credentialId);
		if (value !== undefined) this.reads.set(credentialId, { value, readAt: now });
	}

	/** The read of this credential made less than KEY_TTL_MS ago, if any. */
	recent(credentialId: string | undefined, now: number): T | undefined {
		if (credentialId === undefined) return undefined;
		const read = this.reads.get(credentialId);
		return read !== undefined && now - read.readAt < KEY_TTL_MS ? read.value : undefined;
	}

	/** Tests: forget every read (a restart). */
	clear(): void {
		this.reads.clear();
	}
}

export class VerificationKeyCache {
	private readonly keys = new RecentReads<string>();

	/**
	 * Whether `verify` accepts the request with this credential's key: first
	 * with the remembered key (if fresh), else, or when that fails, with a key
	 * read now by `read` (then remembered; an empty key never is). Without a
	 * credential id nothing is remembered.
	 */
	async verify(
		credentialId: string | undefined,
		read: () => Promise<string>,
		verify: (key: string) => boolean,
		now = Date.now(),
	): Promise<boolean> {
		const remembered = this.keys.recent(credentialId, now);
		if (remembered !== undefined && verify(remembered)) return true;
		const key = await read();
		this.keys.remember(credentialId, key.length > 0 ? key : undefined, now);
		return verify(key);
	}
}

/** One per process, shared by every PayOnUs Trigger. */
export const verificationKeys = new VerificationKeyCache();
