import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { SIMPLE_PAYMENT_FIELDS, SIMPLE_TRANSFER_FIELDS } from './simplify';

/**
 * "Simplify" for the three starting nodes (PayOnUs Trigger, PayOnUs Poll
 * Trigger, PayOnUs Payment Page). A payment record has 47 fields in the
 * service's order (id, merchantUserId, amountPaid, settlementAmount, ...;
 * paymentStatus 37th, onusReference last); a simplified item has at most 10,
 * the ones a builder maps first, in this order: status, amount, currency,
 * references, customer, method, dates, then what the node adds (event,
 * confirmation, resource...). A field the source does not carry stays absent.
 *
 * Simplify is on by default; the raw record is one toggle away (Simplify off).
 */

/** Most fields a simplified item has (n8n's guideline for a Simplify option). */
export const SIMPLIFIED_MAX_FIELDS = 10;

export type SimplifiedKind = 'payin' | 'payout' | 'tokenization' | 'pagePaid' | 'pageNotPaid';

/** What the trigger (event, confirmation) or the poll trigger (resource, change) adds to a payment record. */
const EMITTER_FIELDS = ['event', 'confirmed', 'confirmation', 'resource', 'change'] as const;

/**
 * The fields of each kind of item, in the order a builder reads them: status,
 * amount, currency, business, references and the customer's contact before
 * channel, fee and dates. Field names are public (saved workflows map them):
 * a field dropped from a list leaves their expressions empty.
 */
export const SIMPLIFIED_FIELDS: Record<SimplifiedKind, readonly string[]> = {
	// A payin (webhook COLLECTION, poll trigger payin) and a transfer (webhook PAYOUT or
	// REFUND, poll trigger payout): the action node's simplified record (./simplify), so a
	// simplified payment reads the same wherever it comes from, then what the node adds
	// (only one of these sets is present; record fields make room for it).
	payin: [...SIMPLE_PAYMENT_FIELDS, ...EMITTER_FIELDS],
	payout: [...SIMPLE_TRANSFER_FIELDS, ...EMITTER_FIELDS],
	tokenization: [
		'status',
		'cardTokenId',
		'cardTokenizationLinkId',
		'businessId',
		'cardTokenIdChecked',
		'receivedAt',
		'event',
		'confirmed',
		'confirmation',
	],
	// The Payment Page's Paid output.
	pagePaid: [
		'paymentStatus',
		'amount',
		'currency',
		'businessId',
		'merchantCheckoutReference',
		'onusReference',
		'customerEmail',
		'customerName',
		'customerPhone',
		'paymentMethod',
	],
	// The Payment Page's Not Paid output (a failed attempt, or an expired checkout).
	pageNotPaid: [
		'outcome',
		'amount',
		'currency',
		'businessId',
		'merchantCheckoutReference',
		'customerEmail',
		'customerName',
		'customerPhone',
		'paymentMethod',
		'reason',
		'expiredAt',
		'observedAt',
	],
};

/** Fields the emitting node adds (event, confirmation...): always kept when present, after the record's. */
const NODE_CONTEXT = new Set(['event', 'confirmed', 'confirmation', 'resource', 'change', 'cardTokenIdChecked', 'outcome', 'reason']);

/**
 * The simplified item: the kind's fields that the item carries, in the
 * kind's order, at most 10. What the node adds (Unconfirmed's reason, the
 * poll's change) is never the field left out: record fields make room.
 */
export function simplifyRecord(kind: SimplifiedKind, item: IDataObject): IDataObject {
	const names = SIMPLIFIED_FIELDS[kind].filter((name) => item[name] !== undefined);
	const context = names.filter((name) => NODE_CONTEXT.has(name));
	let room = SIMPLIFIED_MAX_FIELDS - context.length;
	const out: IDataObject = {};
	for (const name of names) {
		if (!NODE_CONTEXT.has(name)) {
			if (room <= 0) continue;
			room--;
		}
		out[name] = item[name];
	}
	return out;
}

/** The kind of a webhook or poll trigger item, from the fields it carries. */
export function kindOf(item: IDataObject): SimplifiedKind {
	if (item.event === 'card_tokenization_link.completed' || item.cardTokenizationLinkId !== undefined) {
		return 'tokenization';
	}
	if (item.resource === 'payout' || item.event === 'PAYOUT' || item.event === 'REFUND') return 'payout';
	if (item.resource === undefined && item.event === undefined && item.beneficiaryAccountNumber !== undefined) {
		return 'payout';
	}
	return 'payin';
}

/** Items of one output, simplified with the kind of each item (or the one given). */
export function simplifyItems(items: INodeExecutionData[], kind?: SimplifiedKind): INodeExecutionData[] {
	return items.map((item) => ({ ...item, json: simplifyRecord(kind ?? kindOf(item.json), item.json) }));
}

/** Whether this node's items are simplified: Simplify on (its default). */
export function simplifyOn(parameter: unknown): boolean {
	return parameter !== false;
}

/** The Simplify parameter of a starting node. */
export function simplifyProperty(what: string): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return a simplified version of ${what} (status, amount, currency, references, customer, dates) instead of the raw data`,
	};
}
