import type { IDataObject } from 'n8n-workflow';

/**
 * One shape per record. A payin (payment request) or a transfer (payout)
 * has the same field names whichever way it reached the workflow: the
 * direct answer of a call, a lookup, the action node's Get/List/Search, the
 * PayOnUs Poll Trigger or the PayOnUs Trigger (webhook).
 *
 * The names are the service's record names (spec, "Payment request" and
 * "Transfer request"). Other sources use other names for the same value;
 * these functions add the record name beside them:
 *
 *   record name            also seen as (source)
 *   amount                 transactionAmount (COLLECTION / PAYOUT webhook)
 *   merchantReference      reference (payin records, request echoes)
 *   paymentStatus          status (refund notifications)
 *   beneficiaryAccountNumber  accountNumber (PAYOUT webhook: the signed account)
 *
 * Money fields of the record (amount, fee, amountPaid, settlementAmount)
 * answered as plain numeric text ("1500.00") come out as numbers, so
 * `{{ $json.amount + 100 }}` adds; other text is kept as it came. The
 * webhook's own names (transactionAmount, merchantFee) keep the value they
 * came with; `amount` beside them is the number.
 *
 * Nothing is removed or renamed: a field a saved workflow reads (e.g.
 * `transactionAmount` on the webhook trigger's output) stays, with the same
 * value as the record name beside it. Nothing is invented either: a field
 * the source does not carry stays absent (no nulls), so a record that
 * already has the record names passes through unchanged.
 *
 * Used by: nodes/PayOnUsTrigger (webhook items, confirmed or not),
 * nodes/PayOnUsPollTrigger (each emitted record), and the action node's
 * transfer and payin reads. Lookups by reference should return
 * toTransfer(record) / toPayin(record) too.
 */

/** Field names every payin shape uses when the value is known. */
export const PAYIN_FIELDS = [
	'onusReference',
	'merchantReference',
	'businessId',
	'amount',
	'currency',
	'paymentStatus',
	'paymentChannel',
	'accountNumber',
	'createdDate',
	'lastUpdatedDate',
] as const;

/** Field names every transfer shape uses when the value is known. */
export const TRANSFER_FIELDS = [
	'onusReference',
	'merchantReference',
	'businessId',
	'amount',
	'fee',
	'currency',
	'paymentStatus',
	'transferType',
	'beneficiaryAccountNumber',
	'beneficiaryAccountName',
	'bankCode',
	'narration',
	'createdDate',
	'lastUpdatedDate',
] as const;

function known(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/** A money value as a number when it is a number or plain numeric text. */
function money(value: IDataObject[string]): IDataObject[string] {
	if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
	return value;
}

function copy(record: IDataObject | null | undefined): IDataObject {
	return record && typeof record === 'object' && !Array.isArray(record) ? { ...record } : {};
}

/** Money fields a service may answer as text ("1500.00"): numbers like every other amount. */
const MONEY_FIELDS = ['amount', 'fee', 'amountPaid', 'settlementAmount'] as const;

/** The money fields of a record as numbers where they came as plain numeric text (a copy; nothing added). */
export function moneyAsNumbers(record: IDataObject | null | undefined): IDataObject {
	const out = copy(record);
	for (const k of MONEY_FIELDS) if (typeof out[k] === 'string') out[k] = money(out[k]);
	return out;
}

function common(out: IDataObject): IDataObject {
	for (const k of MONEY_FIELDS) if (typeof out[k] === 'string') out[k] = money(out[k]);
	if (!known(out.amount) && known(out.transactionAmount)) out.amount = money(out.transactionAmount);
	if (!known(out.merchantReference) && known(out.reference)) out.merchantReference = out.reference;
	if (!known(out.paymentStatus) && typeof out.status === 'string' && out.status !== '') out.paymentStatus = out.status;
	return out;
}

/** A payin (payment request) in the record shape. */
export function toPayin(record: IDataObject | null | undefined): IDataObject {
	return common(copy(record));
}

/** A transfer (payout) in the record shape. */
export function toTransfer(record: IDataObject | null | undefined): IDataObject {
	const out = common(copy(record));
	if (!known(out.beneficiaryAccountNumber) && known(out.accountNumber)) out.beneficiaryAccountNumber = out.accountNumber;
	return out;
}

/** toPayin / toTransfer by resource name. */
export function toRecord(resource: 'payin' | 'payout', record: IDataObject | null | undefined): IDataObject {
	return resource === 'payin' ? toPayin(record) : toTransfer(record);
}
