import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { signedFieldText, verifyWebhookHash } from '../shared/signature';
import { statusSelected } from '../shared/triggerOptions';
import { toPayin, toTransfer } from '../shared/records';

/**
 * The webhook trigger's decisions, free of n8n so each is unit-tested:
 * read the body, recognise the event, verify it, filter it, shape the item.
 * PayOnUsTrigger.node.ts only adapts n8n's request and response to these.
 */

/** Event names as the service spells them. */
export const EVENTS = {
	collection: 'COLLECTION',
	payout: 'PAYOUT',
	refund: 'REFUND',
	cardTokenizationLinkCompleted: 'card_tokenization_link.completed',
} as const;
export type EventName = (typeof EVENTS)[keyof typeof EVENTS];

/** Largest body accepted (the service's notifications are a few hundred bytes). */
export const MAX_BODY_BYTES = 256 * 1024;

export interface Rejection {
	status: number;
	message: string;
}

export type ParsedBody = { ok: true; body: IDataObject } | { ok: false; rejection: Rejection };

/**
 * Reads the notification body. The service sends JSON as `text/plain`;
 * `application/json` is accepted too. The raw bytes are preferred (n8n keeps
 * them on the request); an already parsed object or string is the fallback.
 */
export function parseBody(raw: Buffer | string | undefined, parsed: unknown, declaredLength?: number): ParsedBody {
	if (declaredLength !== undefined && declaredLength > MAX_BODY_BYTES) {
		return { ok: false, rejection: { status: 400, message: `Body larger than ${MAX_BODY_BYTES} bytes` } };
	}
	let text: string | undefined;
	if (Buffer.isBuffer(raw)) {
		if (raw.length > MAX_BODY_BYTES) {
			return { ok: false, rejection: { status: 400, message: `Body larger than ${MAX_BODY_BYTES} bytes` } };
		}
		text = raw.toString('utf8');
	} else if (typeof raw === 'string') {
		text = raw;
	} else if (typeof parsed === 'string') {
		text = parsed;
	}
	if (text !== undefined) {
		if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) {
			return { ok: false, rejection: { status: 400, message: `Body larger than ${MAX_BODY_BYTES} bytes` } };
		}
		if (text.trim().length === 0) {
			return { ok: false, rejection: { status: 400, message: 'Empty body' } };
		}
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			return { ok: false, rejection: { status: 400, message: 'Body is not valid JSON' } };
		}
		return asObject(value);
	}
	if (parsed !== undefined && parsed !== null) {
		if (Buffer.byteLength(JSON.stringify(parsed), 'utf8') > MAX_BODY_BYTES) {
			return { ok: false, rejection: { status: 400, message: `Body larger than ${MAX_BODY_BYTES} bytes` } };
		}
		return asObject(parsed);
	}
	return { ok: false, rejection: { status: 400, message: 'Empty body' } };
}

function asObject(value: unknown): ParsedBody {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { ok: false, rejection: { status: 400, message: 'Body is not a JSON object' } };
	}
	if (Object.keys(value).length === 0) {
		return { ok: false, rejection: { status: 400, message: 'Body is an empty object' } };
	}
	return { ok: true, body: value as IDataObject };
}

/**
 * Which event a body is. COLLECTION and PAYOUT carry `type`; tokenization
 * carries `event`. The refund event's name is not in the specification: any
 * `type` containing REFUND is taken as one (and must be signed like a payout).
 */
export function classify(body: IDataObject): EventName | undefined {
	if (typeof body.event === 'string' && body.event.trim().toLowerCase() === EVENTS.cardTokenizationLinkCompleted) {
		return EVENTS.cardTokenizationLinkCompleted;
	}
	if (typeof body.type !== 'string') return undefined;
	const type = body.type.trim().toUpperCase();
	if (type === 'COLLECTION') return EVENTS.collection;
	if (type === 'PAYOUT') return EVENTS.payout;
	if (type.includes('REFUND')) return EVENTS.refund;
	return undefined;
}

const SAFE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** An id safe to put in a path segment or a query (link ids, business ids). */
export function isSafeId(value: unknown): value is string {
	return typeof value === 'string' && SAFE_ID.test(value);
}

/** Events whose authenticity is the `hash` header. */
export function isSigned(event: EventName): boolean {
	return event !== EVENTS.cardTokenizationLinkCompleted;
}

export function verifySigned(body: IDataObject, hashHeader: string | string[] | undefined, key: string): boolean {
	return verifyWebhookHash(
		{ accountNumber: body.accountNumber, onusReference: body.onusReference, paymentStatus: body.paymentStatus },
		hashHeader,
		key,
	);
}

/** The status an event reports (paymentStatus, or status for tokenization). */
export function eventStatus(event: EventName, body: IDataObject): string {
	const value = event === EVENTS.cardTokenizationLinkCompleted ? body.status : body.paymentStatus;
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The reference an event is about (onusReference, or the link id). */
export function eventReference(event: EventName, body: IDataObject): string {
	const value = event === EVENTS.cardTokenizationLinkCompleted ? body.cardTokenizationLinkId : body.onusReference;
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The fields the `hash` header covers (spec, Events). */
export const SIGNED_FIELDS = ['accountNumber', 'onusReference', 'paymentStatus'] as const;

/**
 * Identity of an event for suppressing repeats. For a signed event: the
 * SIGNED fields only (accountNumber, onusReference, paymentStatus), so a
 * captured notification resent with another `type`, amount or business
 * (none of them signed) is the same event and starts nothing new. For a
 * tokenization notification (not signed): the link id and status. A 96-bit
 * digest (16 base64url characters) rather than the text, so the list kept in
 * static data, which n8n reads and parses on every webhook request, stays a
 * few kilobytes.
 */
export function dedupeKey(event: EventName, body: IDataObject): string {
	const identity = isSigned(event)
		? ['signed', ...SIGNED_FIELDS.map((f) => signedFieldText(body[f]))]
		: [event, eventReference(event, body), eventStatus(event, body)];
	return createHash('sha256').update(JSON.stringify(identity), 'utf8').digest().subarray(0, 12).toString('base64url');
}

export interface Filters {
	statuses: string[];
	/** Compared with `businessId` of the body given (the confirmed record when confirmation is on). */
	businessIds: string[];
}

/** Undefined when the event passes the filters, else why it is ignored. */
export function filteredOut(event: EventName, body: IDataObject, filters: Filters): string | undefined {
	if (filters.businessIds.length > 0) {
		const business = typeof body.businessId === 'string' ? body.businessId : String(body.businessId ?? '');
		if (!filters.businessIds.includes(business)) return 'business not selected';
	}
	if (!statusSelected(eventStatus(event, body), filters.statuses)) return 'status not selected';
	return undefined;
}

export type VerifiedBy = 'signature' | 'api' | 'none';

const NODE_FIELDS = new Set(['event', 'verified', 'verifiedBy', 'receivedAt', 'verifiedFields', 'unsignedFields']);

/**
 * One output item. The payload as sent (minus anything named like a secret),
 * plus what the node knows about it. Never the hash header or the key.
 * A signed event lists the fields the hash covers in `verifiedFields` and
 * every other field of the notification in `unsignedFields` (anyone on the
 * way could have changed those); an unverified event lists all its fields
 * as unsigned.
 */
export function toItem(event: EventName, body: IDataObject, verifiedBy: VerifiedBy, receivedAt: Date): IDataObject {
	const payload: IDataObject = {};
	for (const [name, value] of Object.entries(body)) {
		if (['hash', 'verificationkey', 'webhookverificationkey'].includes(name.toLowerCase())) continue;
		payload[name] = value;
	}
	const shaped = event === EVENTS.cardTokenizationLinkCompleted ? payload : event === EVENTS.payout ? toTransfer(payload) : toPayin(payload);
	const item: IDataObject = {
		...shaped,
		event,
		verified: verifiedBy !== 'none',
		verifiedBy,
		receivedAt: receivedAt.toISOString(),
	};
	if (verifiedBy === 'signature') {
		// The hash covers these three fields only; say so next to the data.
		item.verifiedFields = [...SIGNED_FIELDS];
		item.unsignedFields = Object.keys(shaped).filter((k) => !(SIGNED_FIELDS as readonly string[]).includes(k) && !NODE_FIELDS.has(k));
	} else if (verifiedBy === 'none') {
		item.unsignedFields = Object.keys(shaped).filter((k) => !NODE_FIELDS.has(k));
	}
	return item;
}

export interface LinkConfirmation {
	confirmed: boolean;
	reason?: string;
	/** False when the link record carried no card token to compare with (the event's cardTokenId is then unverified). */
	tokenChecked?: boolean;
}

/**
 * Decides whether a fetched tokenization link confirms the event: the link
 * must be COMPLETED, of the same business, and, when the record carries a
 * card token, name the same one. With `tokenOptional` (no way to read the
 * card token: the link record by id carries none in the spec and the search
 * needs a Merchant ID), a COMPLETED link of the same business confirms the
 * event with `tokenChecked: false`.
 */
export function confirmLink(
	body: IDataObject,
	link: IDataObject | undefined,
	options: { tokenOptional?: boolean } = {},
): LinkConfirmation {
	if (link === undefined || link === null) return { confirmed: false, reason: 'link not found' };
	if (String(link.status ?? '').toUpperCase() !== 'COMPLETED') {
		return { confirmed: false, reason: `link status is ${String(link.status ?? 'unknown')}` };
	}
	if (link.id !== undefined && String(link.id) !== String(body.cardTokenizationLinkId)) {
		return { confirmed: false, reason: 'link id differs' };
	}
	if (link.businessId !== undefined && String(link.businessId) !== String(body.businessId)) {
		return { confirmed: false, reason: 'business differs' };
	}
	if (link.cardTokenId === undefined || link.cardTokenId === null) {
		if (options.tokenOptional) return { confirmed: true, tokenChecked: false };
		return { confirmed: false, reason: 'link carries no card token' };
	}
	if (String(link.cardTokenId) !== String(body.cardTokenId ?? '')) {
		return { confirmed: false, reason: 'card token differs' };
	}
	return { confirmed: true, tokenChecked: true };
}
