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

interface Remembered {
	key: string;
	readAt: number;
}

export class VerificationKeyCache {
	private readonly keys = new Map<string, Remembered>();

	/**
	 * Whether `verify` accepts the request with this credential's key: first
	 * with the remembered key (if fresh), else, or when that fails, with a key
	 * read now by `read` (then remembered). Without a credential id nothing is
	 * remembered.
	 */
	async verify(
		credentialId: string | undefined,
		read: () => Promise<string>,
		verify: (key: string) => boolean,
		now = Date.now(),
	): Promise<boolean> {
		const remembered = credentialId === undefined ? undefined : this.keys.get(credentialId);
		if (remembered !== undefined && now - remembered.readAt < KEY_TTL_MS && verify(remembered.key)) return true;
		const key = await read();
		if (credentialId !== undefined) this.remember(credentialId, key, now);
		return verify(key);
	}

	private remember(credentialId: string, key: string, now: number): void {
		this.keys.delete(credentialId);
		if (key.length === 0) return;
		if (this.keys.size >= MAX_CREDENTIALS) {
			const oldest = this.keys.keys().next().value;
			if (oldest !== undefined) this.keys.delete(oldest);
		}
		this.keys.set(credentialId, { key, readAt: now });
	}
}

/** One per process, shared by every PayOnUs Trigger. */
export const verificationKeys = new VerificationKeyCache();
