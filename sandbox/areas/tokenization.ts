/**
 * Card tokenization: consent links (PENDING -> COMPLETED / EXPIRED by the
 * clock / CANCELLED after `linkMaxAttempts` failed submissions), card tokens
 * (search, delete, delete again) and charges on a token (TKPY).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { formatDate, formatTimestamp } from '../clock';
import { behaviour, checkCard, expiryDate, isExpired, maskPan } from '../cards';
import { pageFromOne } from '../paging';
import { duplicateReplay } from './replay';
import { ok, type Ctx, type Router } from '../router';
import { ApiError } from '../errors';
import type { CardToken, Link } from '../records';
import type { Sandbox } from '../runtime';
import { confirmPayin, failPayin, newPayin } from './payins/record';
import { amount, email, fail, optStr, parse, phone, qBool, qDate, qEnum, qList, qRequired, reference, str } from '../validate';

const LINK_STATUSES = ['PENDING', 'COMPLETED', 'EXPIRED', 'CANCELLED'];

export function refreshLink(sb: Sandbox, link: Link): Link {
	if (link.status === 'PENDING' && sb.state.clock.nowMs() >= link._expiresMs) link.status = 'EXPIRED';
	return link;
}

export function linkView(l: Link): Record<string, unknown> {
	return {
		id: l.id,
		url: l.url,
		expiresAt: l.expiresAt,
		status: l.status,
		merchantReference: l.merchantReference,
		customerName: l.customerName,
		customerEmail: l.customerEmail,
		cardTokenId: l.cardTokenId,
		createdDate: l.createdDate,
		businessName: l.businessName,
		merchantName: l.merchantName,
		businessId: l.businessId,
	};
}

export function tokenView(t: CardToken): Record<string, unknown> {
	return {
		id: t.id,
		maskedPan: t.maskedPan,
		accountNumber: t.accountNumber,
		tokenExpiry: t.tokenExpiry,
		paymentGateway: t.paymentGateway,
		requestId: t.requestId,
		customerName: t.customerName,
		customerEmail: t.customerEmail,
		merchantReference: t.merchantReference,
		createdDate: t.createdDate,
		businessName: t.businessName,
		merchantName: t.merchantName,
		businessId: t.businessId,
	};
}

export interface SubmitInput {
	cardNumber?: string;
	expiry?: string;
	cvv?: string;
	consent?: boolean;
}

export interface SubmitResult {
	status: Link['status'];
	accepted: boolean;
	message: string;
	attemptsLeft: number;
	cardTokenId: string | null;
}

/** The customer submits a card on the consent page (hosted page and control API). */
export function submitCard(sb: Sandbox, link: Link, input: SubmitInput): SubmitResult {
	const state = sb.state;
	refreshLink(sb, link);
	if (link.status !== 'PENDING') {
		throw new ApiError(409, `Link ${link.id} is ${link.status} and cannot be used`, [`id: link is ${link.status}`]);
	}
	const result = (accepted: boolean, message: string): SubmitResult => ({
		status: link.status,
		accepted,
		message,
		attemptsLeft: Math.max(0, state.config.linkMaxAttempts - link.attempts),
		cardTokenId: link.cardTokenId,
	});
	const failure = (message: string): SubmitResult => {
		link.attempts++;
		link.lastError = message;
		if (link.attempts >= state.config.linkMaxAttempts) link.status = 'CANCELLED';
		return result(false, link.status === 'CANCELLED' ? `${message}. Too many attempts: the link is cancelled.` : message);
	};
	if (input.consent === false) return failure('Consent is required to store the card');
	const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry ?? '');
	let card;
	try {
		if (!m) throw new ApiError(400, 'expiry must be MM/YY', ['expiry: must be MM/YY']);
		card = checkCard(String(input.cardNumber ?? ''), m[1], m[2], String(input.cvv ?? ''), 'card');
	} catch (error) {
		if (error instanceof ApiError) return failure(`Invalid card: ${error.message}`);
		throw error;
	}
	if (isExpired(card, state.clock.nowMs())) return failure('Card declined: the card has expired');
	const kind = behaviour(card.pan);
	if (kind === 'DECLINE') return failure('Card declined by the issuer');
	if (kind === 'GATEWAY_ERROR') return failure('Temporary gateway issue, please try again');
	const business = state.business(link.businessId);
	const token: CardToken = {
		id: randomUUID(),
		maskedPan: maskPan(card.pan),
		accountNumber: `AUTH_${randomBytes(5).toString('hex').toUpperCase()}`,
		tokenExpiry: expiryDate(card),
		paymentGateway: 'SANDBOX_GATEWAY',
		requestId: state.onusReference('CTOKEN'),
		customerName: link.customerName,
		customerEmail: link.customerEmail,
		merchantReference: link.merchantReference,
		createdDate: state.now(),
		businessName: business.name,
		merchantName: state.merchantName(business.merchantId),
		businessId: business.id,
		merchantId: business.merchantId,
		deleted: false,
		deletedDate: null,
		_seq: state.nextSeq(),
		_createdMs: state.clock.nowMs(),
		_declineCharges: kind === 'CHARGE_DECLINE',
	};
	state.cardTokens.set(token.id, token);
	link.status = 'COMPLETED';
	link.cardTokenId = token.id;
	link.lastError = null;
	sb.webhooks.emit(
		'card_tokenization_link.completed',
		{ event: 'card_tokenization_link.completed', cardTokenizationLinkId: link.id, cardTokenId: token.id, businessId: link.businessId, status: 'COMPLETED' },
		[link.id, token.id, 'COMPLETED'],
		null,
		true,
	);
	return result(true, 'Card saved');
}

// ---------- links ----------

const createLinkSchema = z.object({
	businessId: str(),
	customer: z.object(
		{ name: str(), email: email(), phone: phone().optional(), externalId: optStr() },
		{ required_error: 'is required', invalid_type_error: 'must be an object' },
	),
	merchantReference: reference(),
	expiryMinutes: z
		.number({ invalid_type_error: 'must be a number' })
		.int('must be a whole number of minutes')
		.min(1, 'must be at least 1')
		.optional(),
});

function createLink(ctx: Ctx) {
	const { sb } = ctx;
	const state = sb.state;
	const input = parse(createLinkSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	if (!business.tokenizationEnabled) {
		throw new ApiError(403, `Card tokenization is not enabled for business ${business.id}`, ['businessId: card tokenization not enabled']);
	}
	const refKey = `${business.id}|${input.merchantReference}`;
	const existing = state.linkRefs.get(refKey);
	if (existing) {
		const other = state.links.get(existing)!;
		throw new ApiError(409, `merchantReference ${input.merchantReference} is already used by link ${other.id} (${refreshLink(sb, other).status})`, [
			`merchantReference: already used for this business`,
		]);
	}
	const minutes = Math.min(input.expiryMinutes ?? 30, 1440);
	const nowMs = state.clock.nowMs();
	const id = randomUUID();
	const link: Link = {
		id,
		url: `${ctx.baseUrl}/hosted/tokenize/${id}`,
		expiresAt: formatTimestamp(new Date(nowMs + minutes * 60_000)),
		status: 'PENDING',
		merchantReference: input.merchantReference,
		customerName: input.customer.name,
		customerEmail: input.customer.email,
		customerPhone: input.customer.phone ?? null,
		customerExternalId: input.customer.externalId ?? null,
		cardTokenId: null,
		createdDate: state.now(),
		businessName: business.name,
		merchantName: state.merchantName(business.merchantId),
		businessId: business.id,
		merchantId: business.merchantId,
		attempts: 0,
		lastError: null,
		_seq: state.nextSeq(),
		_createdMs: nowMs,
		_expiresMs: nowMs + minutes * 60_000,
	};
	state.links.set(id, link);
	state.linkRefs.set(refKey, id);
	return ok(linkRecord(ctx, link), 'Card tokenization link created');
}

function linkForBusiness(ctx: Ctx, link: Link | undefined, what: string): Link {
	const businessId = qRequired(ctx.query, 'businessId');
	ctx.sb.state.ownedBusiness(businessId, ctx.auth!.merchantId);
	if (!link) throw new ApiError(404, `Card tokenization link ${what} not found`, ['id: link not found']);
	if (link.businessId !== businessId) throw new ApiError(403, 'The link belongs to another business', ['businessId: link belongs to another business']);
	return refreshLink(ctx.sb, link);
}

/** merchantId (required) and businessIds (default: all of the merchant's). */
function scope(ctx: Ctx): { merchantId: string; businessIds: Set<string> } {
	const { state } = ctx.sb;
	const merchantId = qRequired(ctx.query, 'merchantId');
	if (!state.merchants.has(merchantId)) throw new ApiError(404, `Merchant ${merchantId} not found`, [`merchantId: not found`]);
	if (merchantId !== ctx.auth!.merchantId) throw new ApiError(403, 'Insufficient authority for this merchant', ['merchantId: not your merchant']);
	const ids = qList(ctx.query, 'businessIds');
	for (const id of ids) state.ownedBusiness(id, merchantId);
	const all = [...state.businesses.values()].filter((b) => b.merchantId === merchantId).map((b) => b.id);
	return { merchantId, businessIds: new Set(ids.length ? ids : all) };
}

function createdRange(ctx: Ctx): (ms: number) => boolean {
	const from = qDate(ctx.query, 'createdFrom');
	const to = qDate(ctx.query, 'createdTo');
	if (from !== undefined && to !== undefined && from > to) fail('createdFrom', 'must not be after createdTo');
	return (ms) => (from === undefined || ms >= from) && (to === undefined || ms < to + 86_400_000);
}

function searchLinks(ctx: Ctx) {
	const { sb } = ctx;
	const q = ctx.query;
	const { businessIds } = scope(ctx);
	const id = q.get('id') || undefined;
	const mr = q.get('merchantReference') || undefined;
	const status = qEnum(q, 'status', LINK_STATUSES);
	const hasCardToken = qBool(q, 'hasCardToken');
	const inRange = createdRange(ctx);
	const source = id ? [sb.state.links.get(id)].filter((l): l is Link => !!l) : [...sb.state.links.values()].reverse();
	const items = source
		.map((l) => refreshLink(sb, l))
		.filter(
			(l) =>
				businessIds.has(l.businessId) &&
				(!mr || l.merchantReference === mr) &&
				(!status || l.status === status) &&
				(hasCardToken === undefined || (l.cardTokenId !== null) === hasCardToken) &&
				inRange(l._createdMs),
		)
		.map((l) => {
			const { url: _url, ...rest } = linkView(l);
			return rest;
		});
	return ok(pageFromOne(items, q, undefined, ctx.sb.profiles));
}

// ---------- tokens ----------

function searchTokens(ctx: Ctx) {
	const { state } = ctx.sb;
	const q = ctx.query;
	const { businessIds } = scope(ctx);
	const id = q.get('id') || undefined;
	const requestId = q.get('requestId') || undefined;
	const mr = q.get('merchantReference') || undefined;
	const customerEmail = q.get('customerEmail') || undefined;
	const inRange = createdRange(ctx);
	const source = id ? [state.cardTokens.get(id)].filter((t): t is CardToken => !!t) : [...state.cardTokens.values()].reverse();
	const items = source.filter(
		(t) =>
			!t.deleted &&
			businessIds.has(t.businessId) &&
			(!requestId || t.requestId === requestId) &&
			(!mr || t.merchantReference === mr) &&
			(!customerEmail || t.customerEmail.toLowerCase() === customerEmail.toLowerCase()) &&
			inRange(t._createdMs),
	);
	return ok(pageFromOne(items.map(tokenView), q, undefined, ctx.sb.profiles));
}

function deleteToken(ctx: Ctx) {
	const { state } = ctx.sb;
	const businessId = qRequired(ctx.query, 'businessId');
	state.ownedBusiness(businessId, ctx.auth!.merchantId);
	const token = state.cardTokens.get(ctx.params.id);
	if (!token) throw new ApiError(404, `Card token ${ctx.params.id} not found`, ['id: card token not found']);
	if (token.businessId !== businessId) throw new ApiError(403, 'The card token belongs to another business', ['businessId: token belongs to another business']);
	if (token.deleted) return ok({ id: token.id, deleted: true, deletedDate: token.deletedDate }, 'Card token already deleted');
	token.deleted = true;
	token.deletedDate = state.now();
	return ok({ id: token.id, deleted: true, deletedDate: token.deletedDate }, 'Card token deleted');
}

const chargeSchema = z.object({
	businessId: str(),
	cardTokenId: str(),
	amount: amount().refine((n) => n >= 1, 'must be at least 1'),
	reference: reference(),
	narration: optStr(),
	notificationUrl: optStr(),
});

function chargeToken(ctx: Ctx) {
	const { sb } = ctx;
	const state = sb.state;
	const body = ctx.body as Record<string, unknown>;
	// amount below the minimum is reported as 400 even when it is 0 or negative
	if (typeof body?.amount === 'number' && body.amount < 1) fail('amount', 'must be at least 1');
	const input = parse(chargeSchema, body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const token = state.cardTokens.get(input.cardTokenId);
	if (!token) throw new ApiError(404, `Card token ${input.cardTokenId} not found`, ['cardTokenId: card token not found']);
	if (token.businessId !== business.id) throw new ApiError(403, 'The card token belongs to another business', ['cardTokenId: token belongs to another business']);
	if (token.deleted) throw new ApiError(410, 'Card token deleted', ['cardTokenId: card token was deleted']);
	if (token.tokenExpiry < formatDate(state.clock.now())) {
		throw new ApiError(422, `Card token expired on ${token.tokenExpiry}`, ['cardTokenId: card token expired']);
	}
	const replay = duplicateReplay(ctx, business.id, input.reference);
	if (replay) return replay;
	state.checkReferenceFree(business.id, input.reference);
	state.requireWallet(business.id, 'NGN');
	const p = newPayin(sb, business, 'TKPY', {
		amount: input.amount,
		currency: 'NGN',
		paymentChannel: 'CARD',
		reference: input.reference,
		email: token.customerEmail,
		accountName: token.customerName,
		narration: input.narration ?? '',
		notificationUrl: input.notificationUrl ?? null,
		maskedPan: token.maskedPan,
		authTypeRequired: null,
		_cardToken: token.id,
	});
	state.claimReference(business.id, input.reference, 'payin', p.onusReference);
	if (token._declineCharges) failPayin(sb, p, 'Card declined by the issuer');
	else confirmPayin(sb, p);
	return ok({
		authTypeRequired: null,
		paymentStatus: p.paymentStatus,
		onusReference: p.onusReference,
		redirectUrl: null,
		message: p.paymentStatus === 'SUCCESSFUL' ? 'Payment successful' : p.providerResponse,
		descriptor: `PAYONUS*${business.name.toUpperCase().replace(/[^A-Z0-9 ]/g, '').slice(0, 14)}`,
		processorRedirectHtmlOrUrl: null,
	});
}

/** Expires a card token now (control API): tokenExpiry becomes yesterday. */
export function expireCardToken(sb: Sandbox, id: string): CardToken {
	const token = sb.state.cardTokens.get(id);
	if (!token) throw new ApiError(404, `Card token ${id} not found`, ['id: card token not found']);
	token.tokenExpiry = formatDate(new Date(sb.state.clock.nowMs() - 86_400_000));
	return token;
}


/** A link record as create / get by id / get by reference answer it: profile link-without-token-id drops cardTokenId. */
function linkRecord(ctx: Ctx, l: Link): Record<string, unknown> {
	const view = linkView(l);
	if (ctx.sb.profiles.has('link-without-token-id')) delete view.cardTokenId;
	return view;
}

export function registerTokenization(router: Router): void {
	router.add('POST', '/api/v1/card-tokenization-links', createLink);
	router.add('GET', '/api/v1/card-tokenization-links', searchLinks);
	router.add('GET', '/api/v1/card-tokenization-links/by-reference/:merchantReference', (ctx) => {
		const businessId = qRequired(ctx.query, 'businessId');
		const id = ctx.sb.state.linkRefs.get(`${businessId}|${ctx.params.merchantReference}`);
		const link = linkForBusiness(ctx, id ? ctx.sb.state.links.get(id) : undefined, `with merchantReference ${ctx.params.merchantReference}`);
		return ok(linkRecord(ctx, link));
	});
	router.add('GET', '/api/v1/card-tokenization-links/:id', (ctx) => ok(linkRecord(ctx, linkForBusiness(ctx, ctx.sb.state.links.get(ctx.params.id), ctx.params.id))));
	router.add('GET', '/api/v1/card-tokens', searchTokens);
	router.add('DELETE', '/api/v1/card-tokens/:id', deleteToken);
	router.add('POST', '/api/v1/card-payments/with-token', chargeToken);
}
