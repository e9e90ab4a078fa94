import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { BUILDER_PAYMENT_FIELDS, BUILDER_TRANSFER_FIELDS, SIMPLE_PAYMENT_FIELDS, SIMPLE_TRANSFER_FIELDS } from './simplify';

/**
 * "Simplify" for the three starting nodes (PayOnUs Trigger, PayOnUs Poll
 * Trigger, PayOnUs Payment Page). A payment record has 47 fields in the
 * service's order (id, merchantUserId, amountPaid, settlementAmount, ...;
 * paymentStatus 37th, onusReference last); a simplified item has at most 10,
 * the ones a builder maps first, in this order: status, amount, currency,
 * references, customer, method, dates, then what the node adds (event,
 * confirmation, resource...). A field the source does not carry stays absent.
 *
 * Only node versions that have the option simplify (1.1 and later, where it
 * is on by default); version 1 keeps its full output. The raw record is one
 * toggle away (Simplify off).
 */

/** Most fields a simplified item has (n8n's guideline for a Simplify option). */
export const SIMPLIFIED_MAX_FIELDS = 10;

export type SimplifiedKind = 'payin' | 'payout' | 'tokenization' | 'pagePaid' | 'pageNotPaid';

/** What the trigger (event, confirmation) or the poll trigger (resource, change) adds to a payment record. */
const EMITTER_FIELDS = ['event', 'confirmed', 'confirmation', 'resource', 'change'] as const;

/**
 * The simplified shapes, numbered in the order they came. A node version
 * keeps the shape it was released with: a field dropped from a shape would
 * leave the expressions of saved workflows empty, so a new shape comes with a
 * new node version (an added field alone would not need one, but within 10
 * fields an added one pushes another out).
 *   1: the first (PayOnUs Trigger, Poll Trigger and Payment Page 1.1).
 *   2: the business and the customer's contact before channel, fee and
 *      dates: what the next node maps (each of them from 1.2: SHAPE_2_SINCE).
 */
export type SimplifiedShape = 1 | 2;

/** The fields of each kind of item in shape 1, in the order a builder reads them. */
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
		'merchantCheckoutReference',
		'onusReference',
		'customerEmail',
		'customerName',
		'customerPhone',
		'paymentMethod',
		'confirmedAt',
	],
	// The Payment Page's Not Paid output (a failed attempt, or an expired checkout).
	pageNotPaid: [
		'outcome',
		'amount',
		'currency',
		'merchantCheckoutReference',
		'customerEmail',
		'customerName',
		'paymentMethod',
		'reason',
		'expiredAt',
		'observedAt',
	],
};

/** Shape 2: business first after amount and currency, then references and the customer's contact. */
export const SIMPLIFIED_FIELDS_2: Record<SimplifiedKind, readonly string[]> = {
	payin: [...BUILDER_PAYMENT_FIELDS, ...EMITTER_FIELDS],
	payout: [...BUILDER_TRANSFER_FIELDS, ...EMITTER_FIELDS],
	tokenization: SIMPLIFIED_FIELDS.tokenization,
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

export const SHAPES: Record<SimplifiedShape, Record<SimplifiedKind, readonly string[]>> = { 1: SIMPLIFIED_FIELDS, 2: SIMPLIFIED_FIELDS_2 };

/** Fields the emitting node adds (event, confirmation...): always kept when present, after the record's. */
const NODE_CONTEXT = new Set(['event', 'confirmed', 'confirmation', 'resource', 'change', 'cardTokenIdChecked', 'outcome', 'reason']);

/**
 * The simplified item: the kind's fields that the item carries, in the
 * kind's order, at most 10. What the node adds (Unconfirmed's reason, the
 * poll's change) is never the field left out: record fields make room.
 */
export function simplifyRecord(kind: SimplifiedKind, item: IDataObject, shape: SimplifiedShape = 1): IDataObject {
	const names = SHAPES[shape][kind].filter((name) => item[name] !== undefined);
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

/** Items of one output, simplified with the kind of each item (or the one given), in the node version's shape. */
export function simplifyItems(items: INodeExecutionData[], kind?: SimplifiedKind, shape: SimplifiedShape = 1): INodeExecutionData[] {
	return items.map((item) => ({ ...item, json: simplifyRecord(kind ?? kindOf(item.json), item.json, shape) }));
}

export type StartingNode = 'trigger' | 'pollTrigger' | 'paymentPage';

/** Each starting node's first version with shape 2 (the versions new nodes get). */
export const SHAPE_2_SINCE: Record<StartingNode, number> = { trigger: 1.2, pollTrigger: 1.2, paymentPage: 1.2 };

/** The simplified shape of a starting node's version: 2 from its SHAPE_2_SINCE on, else 1. */
export function shapeOf(node: StartingNode, typeVersion: number): SimplifiedShape {
	return typeVersion >= SHAPE_2_SINCE[node] ? 2 : 1;
}

/** The first node version with the Simplify option. */
export const SIMPLIFY_SINCE_VERSION = 1.1;

/** Whether this node's items are simplified: version 1.1+ with Simplify on (version 1 never). */
export function simplifyOn(typeVersion: number, parameter: unknown): boolean {
	return typeVersion >= SIMPLIFY_SINCE_VERSION && parameter !== false;
}

/** The Simplify parameter, shown from version 1.1. */
export function simplifyProperty(what: string): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@version': [{ _cnd: { gte: SIMPLIFY_SINCE_VERSION } }] } },
		description: `Whether to return a simplified version of ${what} (status, amount, currency, references, customer, dates) instead of the raw data`,
	};
}
