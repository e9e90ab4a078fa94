import type { PayOnUsCredential } from '../shared/credential/read';
import { RecentReads } from './keyCache';

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

/** The latest read of each credential (the bounds and the reuse window of keyCache.ts). */
export class RecentCredentials extends RecentReads<PayOnUsCredential> {}

/** One per process, shared by every PayOnUs Trigger. */
export const recentCredentials = new RecentCredentials();
