import type { IDataObject } from 'n8n-workflow';
import { Claims, type ClaimScope, type ClaimWindow } from '../../shared/claim';
import { clock } from '../clock';

/**
 * Exactly once: the claim a request makes on a checkout before it starts the
 * workflow (the Paid item, keyed by the checkout reference; a Not Paid item,
 * keyed per attempt or expiry).
 *
 * A key is claimed in process, synchronously: within one process two
 * concurrent requests that both see a checkout paid start ONE execution
 * (the shared mechanism: ../../shared/claim/index.ts). The newest PERSISTED_KEYS go to the workflow's
 * static data (`emittedChanges`, with `emittedChangesHorizon`), which n8n reads
 * before and saves after every production request, so a restart or another
 * process that comes later does not start it again. The request that saw
 * the payment answers only once n8n has stored the execution; if n8n cannot
 * store it, the request's claims are released and the next request (the
 * page polls) starts it. Two processes seeing the same checkout paid at the
 * same moment can both start it (static data is written whole, last write
 * wins): across processes the guarantee is at-least-once, and the item's
 * merchantCheckoutReference is the key to make the workflow idempotent. Test
 * URL requests keep their own memory only.
 */

/** How long and how many checkouts are remembered as emitted. */
export const EMITTED_WINDOW: ClaimWindow = {
	ttlMs: 7 * 24 * 60 * 60 * 1000,
	maxEntries: 20_000,
};
/** Keys kept in static data. */
export const PERSISTED_KEYS = 500;

/**
 * The page's memories, one per (workflow, node, mode), kept in static data as
 * `emittedChanges` / `emittedChangesHorizon`.
 */
const emittedCheckouts = new Claims(EMITTED_WINDOW, { keys: 'emittedChanges', horizon: 'emittedChangesHorizon', newest: PERSISTED_KEYS });

/** One request's claims. */
export interface CheckoutClaims {
	/**
	 * True when this request is the first to claim `key` (it then emits).
	 * `record`: the payin, for a Paid item (null when there is none): past the
	 * memory's bounds, the date of its last change decides.
	 */
	claim(key: string, record?: IDataObject | null): boolean;
	/** Whether `key` is already claimed (emitted) here: a later copy need not read the service. */
	seen(key: string): boolean;
	/** Gives back every key this request claimed (n8n could not store its run). */
	release(): void;
}

/**
 * The claims of one request on `scope` (n8n's mode 'manual', the test URL,
 * persists nothing). `staticData`: the node's static data (left out for test
 * URL requests). A Paid item is emitted for a checkout the memory no longer
 * holds (past 7 days, 20,000 checkouts, or left out of static data over a
 * restart) only if its payin last changed after the memory's horizon (rule 3,
 * nodes/shared/claim/index.ts); else the page still shows the receipt but
 * starts nothing, and logs why.
 */
export function claimsFor(scope: ClaimScope, staticData: IDataObject | undefined, warn: (message: string) => void): CheckoutClaims {
	const where: ClaimScope = { ...scope, staticData: staticData ? () => staticData : undefined };
	const claimed: string[] = [];
	return {
		claim(key, record) {
			const now = clock.now();
			if (emittedCheckouts.has(where, key, now)) return false;
			const judgement = record === undefined ? undefined : emittedCheckouts.judge(where, record);
			if (judgement?.known) {
				warn(
					`PayOnUs Payment Page: checkout ${key} is paid, but was not started again: ${judgement.reason}. Check your records for this checkout (merchantCheckoutReference ${key})`,
				);
				return false;
			}
			if (!emittedCheckouts.claim(where, key, now)) return false;
			emittedCheckouts.keep(where, key, record);
			claimed.push(key);
			return true;
		},
		seen(key) {
			return emittedCheckouts.has(where, key, clock.now());
		},
		release() {
			for (const key of claimed) emittedCheckouts.release(where, key);
		},
	};
}
