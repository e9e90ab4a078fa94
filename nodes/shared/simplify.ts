import type { IDataObject } from 'n8n-workflow';
import { toPayin, toTransfer } from './records';

/**
 * The simplified record of each kind: the fields a builder maps first, in
 * the order they are read (status, amount, currency, references, customer or
 * beneficiary, dates), at most 10 (n8n's guideline for Simplify). ONE
 * function per record kind, used by every node that outputs that kind (the
 * action node's Get / Get Many, and the triggers), so a simplified payment
 * looks the same wherever it comes from.
 *
 * Field names are the raw record's names (an expression written against the
 * simplified output keeps working on the raw one). A field the record does
 * not carry stays absent (nothing invented); the package's own markers of a
 * recovered call (recoveredByLookup, duplicateReference) are kept.
 */

/**
 * A payin (payment request), simplified: 47 fields in the service's order ->
 * these 10, what the next node maps first (status, amount, currency,
 * business, references, the customer's contact) before channel and dates.
 */
export const SIMPLE_PAYMENT_FIELDS = [
	'paymentStatus',
	'amount',
	'currency',
	'businessId',
	'merchantReference',
	'onusReference',
	'email',
	'mobileNumber',
	'paymentChannel',
	'createdDate',
] as const;

/** A transfer (payout), simplified: the beneficiary before the fee. */
export const SIMPLE_TRANSFER_FIELDS = [
	'paymentStatus',
	'amount',
	'currency',
	'businessId',
	'merchantReference',
	'onusReference',
	'beneficiaryAccountName',
	'beneficiaryAccountNumber',
	'bankName',
	'fee',
] as const;

/** A stored card (card token), simplified. */
export const SIMPLE_CARD_TOKEN_FIELDS = [
	'id',
	'maskedPan',
	'tokenExpiry',
	'customerName',
	'customerEmail',
	'merchantReference',
	'createdDate',
	'businessId',
] as const;

/** A card tokenization link (search item), simplified. */
export const SIMPLE_CARD_LINK_FIELDS = [
	'status',
	'merchantReference',
	'customerName',
	'customerEmail',
	'cardTokenId',
	'id',
	'expiresAt',
	'createdDate',
	'businessId',
] as const;

/** Markers this package adds to a record (kept by every simplified shape). */
const MARKERS = ['recoveredByLookup', 'duplicateReference'];

/** `fields` of `record`, in that order, then the package's markers; absent fields stay absent. */
export function pick(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const f of [...fields, ...MARKERS]) if (record[f] !== undefined) out[f] = record[f];
	return out;
}

/** A payin (any source: answer, Get Payment, list, poll trigger, webhook) in its simplified shape. */
export function simplifyPayment(record: IDataObject | null | undefined): IDataObject {
	return pick(toPayin(record), SIMPLE_PAYMENT_FIELDS);
}

/** A transfer (any source) in its simplified shape. */
export function simplifyTransfer(record: IDataObject | null | undefined): IDataObject {
	return pick(toTransfer(record), SIMPLE_TRANSFER_FIELDS);
}

export function simplifyCardToken(record: IDataObject): IDataObject {
	return pick(record, SIMPLE_CARD_TOKEN_FIELDS);
}

export function simplifyCardLink(record: IDataObject): IDataObject {
	return pick(record, SIMPLE_CARD_LINK_FIELDS);
}

export type RecordKind = 'payment' | 'transfer' | 'cardToken' | 'cardLink';

/** The record kinds and their simplified shapes, by name. */
export const SIMPLIFIERS: Record<RecordKind, (record: IDataObject) => IDataObject> = {
	payment: simplifyPayment,
	transfer: simplifyTransfer,
	cardToken: simplifyCardToken,
	cardLink: simplifyCardLink,
};
