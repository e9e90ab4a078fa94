/** The API view of a transfer record: internal fields dropped; profile `bare-records` keeps only the spec's fields. */
import type { Profiles } from '../../profiles';
import type { Transfer } from '../../records';

/** Fields of the spec's transfer record table (profile `bare-records` answers only these). */
const SPEC_TRANSFER_FIELDS = new Set([
	'onusReference', 'merchantReference', 'amount', 'fee', 'currency', 'beneficiaryAccountNumber', 'beneficiaryAccountName',
	'bankCode', 'bankName', 'paymentStatus', 'paymentChannel', 'transferType', 'narration', 'createdDate', 'lastUpdatedDate',
]);

export function transferView(t: Transfer, profiles?: Profiles): Record<string, unknown> {
	const bare = profiles?.has('bare-records') === true;
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(t)) if (k[0] !== '_' && (!bare || SPEC_TRANSFER_FIELDS.has(k))) out[k] = v;
	return answerProfiles(t, out, profiles);
}

/**
 * Profiles `unlisted-payout-statuses` (PROCESSING for a held transfer,
 * REJECTED for a failed one planned so) and `text-amounts` (amount and fee
 * as text) applied to any answer about transfer `t`.
 */
export function answerProfiles(t: Transfer, out: Record<string, unknown>, profiles?: Profiles): Record<string, unknown> {
	if (profiles?.has('unlisted-payout-statuses') === true && 'paymentStatus' in out) {
		if (t.paymentStatus === 'PENDING' && t._plannedOutcome === 'HOLD') out.paymentStatus = 'PROCESSING';
		if (t.paymentStatus === 'FAILED' && t._plannedOutcome === 'REJECTED') out.paymentStatus = 'REJECTED';
	}
	if (profiles?.has('text-amounts') === true) {
		for (const k of ['amount', 'fee']) if (typeof out[k] === 'number') out[k] = (out[k] as number).toFixed(2);
	}
	return out;
}
