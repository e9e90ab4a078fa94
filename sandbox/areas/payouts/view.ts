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
	return out;
}
