import { createHmac, randomBytes, timingSafeEqual } from 'crypto';
import { MAX_ATTEMPTS } from './sealedState';

/**
 * A checkout id bound to its page (pure but for the random part): 16 random
 * hex digits, then 16 hex digits of HMAC-SHA256 over them under a key
 * derived from the page's sealed-state key (credential's client secret,
 * workflow id, node id). Every page of a business shares the reference
 * space `PP-<checkout id>-<attempt>`, so a payin's reference alone does not
 * say which page took it; the bound id does, without a call and without
 * state: only the page that made the id can recompute its tail, and another
 * page's id matches by chance once in 2^64.
 *
 * Used by the notification path (../request/notify.ts): a forward naming a
 * payin whose checkout id is not this page's is not this page's payment.
 * Ids made before bound ids (24 hex digits) still open and are paid through
 * the buyer's browser only.
 */

const RANDOM_HEX = 16;
const TAG_HEX = 16;

/** The id key of a page, from its sealed-state key (a separate use, so a separate key). */
function idKey(pageKey: Buffer): Buffer {
	return createHmac('sha256', pageKey).update('payonus-payment-page/checkout-id/v1').digest();
}

function tagOf(random: string, pageKey: Buffer): string {
	return createHmac('sha256', idKey(pageKey)).update(random).digest('hex').slice(0, TAG_HEX);
}

/** A new checkout id of this page (32 hex digits). */
export function newPageCheckoutId(pageKey: Buffer): string {
	const random = randomBytes(RANDOM_HEX / 2).toString('hex');
	return `${random}${tagOf(random, pageKey)}`;
}

/** Whether `id` was made by the page of `pageKey` (constant time). */
export function isThisPagesCheckout(id: string, pageKey: Buffer): boolean {
	if (!/^[0-9a-f]{32}$/.test(id)) return false;
	const expected = Buffer.from(tagOf(id.slice(0, RANDOM_HEX), pageKey), 'utf8');
	return timingSafeEqual(expected, Buffer.from(id.slice(RANDOM_HEX), 'utf8'));
}

/** The checkout id and attempt a bound attempt reference names (`PP-<32 hex>-<n>`), or undefined. */
export function boundAttemptOf(reference: unknown): { id: string; n: number } | undefined {
	if (typeof reference !== 'string') return undefined;
	const m = /^PP-([0-9a-f]{32})-([1-9][0-9]?)$/.exec(reference);
	if (!m) return undefined;
	const n = Number(m[2]);
	return n <= MAX_ATTEMPTS ? { id: m[1], n } : undefined;
}
