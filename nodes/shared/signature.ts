import { createHash, timingSafeEqual } from 'crypto';
import { keyProblem } from './signedFields';

/**
 * Webhook authenticity (spec, Events): the `hash` header of a COLLECTION or
 * PAYOUT notification is the hexadecimal SHA-256 of
 * `accountNumber + onusReference + paymentStatus + verificationKey`,
 * concatenated with no separators, as UTF-8.
 *
 * Only these three fields are covered: the rest of the body (amount,
 * currency, sender...) is NOT protected by the hash. The trigger says so in
 * its output and offers an API confirmation for the fields that matter.
 */

/** The text a field contributes: strings as they are, numbers in JSON form, anything else nothing. */
export function signedFieldText(value: unknown): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return '';
}

export interface SignedFields {
	accountNumber?: unknown;
	onusReference?: unknown;
	paymentStatus?: unknown;
}

/** Lower-case hex SHA-256 of the three signed fields and the key. */
export function computeWebhookHash(fields: SignedFields, verificationKey: string): string {
	const text =
		signedFieldText(fields.accountNumber) +
		signedFieldText(fields.onusReference) +
		signedFieldText(fields.paymentStatus) +
		verificationKey;
	return createHash('sha256').update(text, 'utf8').digest('hex');
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * True only when `received` is the hash of the fields under the key.
 * The comparison is constant-time over equal-length buffers (both are the
 * 32 raw digest bytes); a header that is not 64 hex digits is rejected
 * before any comparison. A key that is empty, only spaces, or has spaces at
 * its ends never verifies (./signedFields.ts keyProblem). Whether each
 * signed field is in its form is the caller's second check
 * (signedFieldsProblem, ./signedFields.ts).
 */
export function verifyWebhookHash(
	fields: SignedFields,
	received: string | string[] | undefined,
	verificationKey: string,
): boolean {
	if (keyProblem(verificationKey) !== undefined) return false;
	const header = Array.isArray(received) ? (received.length === 1 ? received[0] : undefined) : received;
	if (typeof header !== 'string') return false;
	const candidate = header.trim();
	if (!HEX_SHA256.test(candidate)) return false;
	const expected = Buffer.from(computeWebhookHash(fields, verificationKey), 'hex');
	const actual = Buffer.from(candidate, 'hex');
	if (expected.length !== actual.length) return false;
	return timingSafeEqual(expected, actual);
}
