import type { PayOnUsCredential } from '../shared/credential/read';
import { KEY_TTL_MS } from './keyCache';

/**
 * The trigger's latest read of its credential, shared over a burst of
 * notifications. The signature check reads the credential (keyCache.ts: at
 * most every KEY_TTL_MS for genuine deliveries), so does a confirmation's
 * client when it gets no usable read; each read is remembered here, and a
 * confirmation's client takes the latest one instead of reading again when
 * the transport says it can stand in for a fresh one (transport `reusable`:
 * the token a fresh read would lead it to send, no token call it could
 * cause).
 *
 * Why: in a webhook request n8n reads a credential from the database,
 * decrypts it and, on n8n 2.41 (not 2.8), opens an expression isolate of its
 * own to resolve it (about 50 ms of CPU on a 2-core machine, in the process
 * that answers the webhooks). One read per confirmed event was the largest
 * cost the trigger added to n8n's own per request.
 *
 * What it changes: an edit of the credential's connection fields (base
 * address, client id, secret, default Merchant ID) reaches confirmations
 * within KEY_TTL_MS, as an edit of the key reaches the signature check
 * (a refused token is re-read at once by the transport). Kept in this
 * process's memory only, never logged or output.
 */

/** Bound on the number of credentials remembered. */
const MAX_CREDENTIALS = 100;

export class RecentCredentials {
	private readonly reads = new Map<string, { credential: PayOnUsCredential; readAt: number }>();

	/** Remembers a read (a credential that could not be read forgets the earlier one). */
	remember(credentialId: string | undefined, credential: PayOnUsCredential | undefined, now: number): void {
		if (credentialId === undefined) return;
		this.reads.delete(credentialId);
		if (credential === undefined) return;
		if (this.reads.size >= MAX_CREDENTIALS) {
			const oldest = this.reads.keys().next().value;
			if (oldest !== undefined) this.reads.delete(oldest);
		}
		this.reads.set(credentialId, { credential, readAt: now });
	}

	/** The read of this credential made less than KEY_TTL_MS ago, if any. */
	recent(credentialId: string | undefined, now: number): PayOnUsCredential | undefined {
		if (credentialId === undefined) return undefined;
		const read = this.reads.get(credentialId);
		return read !== undefined && now - read.readAt < KEY_TTL_MS ? read.credential : undefined;
	}

	/** Tests: forget every read (a restart). */
	clear(): void {
		this.reads.clear();
	}
}

/** One per process, shared by every PayOnUs Trigger. */
export const recentCredentials = new RecentCredentials();
