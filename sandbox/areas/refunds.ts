/**
 * Refunds of bank transfer payins: the request (debits the wallet at once),
 * the record (PENDING, then the configured `refundOutcome` after
 * `transferDelayMs`, or held until settled by the control API), the REFUND
 * webhook and the list.
 */
import { z } from 'zod';
import { ApiError } from '../errors';
import { round2 } from '../money';
import { pageFromOne } from '../paging';
import type { Refund } from '../records';
import { ok, type Ctx, type Router } from '../router';
import type { Sandbox } from '../runtime';
import { amount, fail, optStr, parse, qEnum, qRequired, reference, str } from '../validate';
import { checkFunds } from './payouts/rules';
import { ownedPayin } from './payins/record';

const refundSchema = z.object({
	businessId: str(),
	onusReference: str(),
	amount: amount().optional(),
	reason: optStr(),
	reference: reference().optional(),
	notificationUrl: optStr(),
});

export function refundView(r: Refund): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(r)) if (k[0] !== '_') out[k] = v;
	return out;
}

export function finishRefund(sb: Sandbox, r: Refund, outcome: string, notificationUrl: string | null = null): void {
	const state = sb.state;
	if (r.status !== 'PENDING') {
		throw new ApiError(409, `Refund ${r.onusReference} is already ${r.status}`, [`onusReference: refund is already ${r.status}`]);
	}
	const success = outcome === 'SUCCESSFUL';
	r.status = success ? 'SUCCESSFUL' : 'FAILED';
	r.responseMessage = success ? 'Refund successful' : outcome === 'FAILED' ? 'REFUND_FAILED' : outcome;
	if (!sb.profiles.has('updated-date-unmoved')) r.lastUpdatedDate = state.now();
	const payin = state.payins.get(r.paymentOnusReference)!;
	if (!success) {
		state.post(state.walletsById.get(r._walletId)!, 'REFUND_REVERSAL', r.amount, r.onusReference);
		payin._refundedAmount = round2((payin._refundedAmount ?? 0) - r.amount);
	}
	const body = {
		id: r.id,
		type: 'REFUND',
		currency: r.currency,
		businessId: r.businessId,
		accountNumber: payin.accountNumber,
		onusReference: r.onusReference,
		paymentOnusReference: r.paymentOnusReference,
		paymentStatus: r.status,
		transactionAmount: r.amount,
		merchantReference: r.merchantReference,
		reason: r.reason,
		responseMessage: r.responseMessage,
	};
	sb.webhooks.emit('REFUND', body, [payin.accountNumber, r.onusReference, r.status], notificationUrl ?? payin.notificationUrl);
}

function refund(ctx: Ctx) {
	const { sb } = ctx;
	const state = sb.state;
	const input = parse(refundSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const payin = ownedPayin(ctx, input.onusReference);
	if (payin.businessId !== business.id) throw new ApiError(404, `Payment ${input.onusReference} not found for business ${business.id}`, ['onusReference: not found']);
	if (payin.paymentChannel !== 'BANK_TRANSFER') fail('onusReference', 'is not a bank transfer payin; only bank transfer payins can be refunded');
	if (payin.paymentStatus !== 'SUCCESSFUL') fail('onusReference', `payment is ${payin.paymentStatus}; only SUCCESSFUL payments can be refunded`);
	const remaining = round2(payin.amountPaid - (payin._refundedAmount ?? 0));
	const value = input.amount ?? remaining;
	if (remaining <= 0) throw new ApiError(409, `Payment ${payin.onusReference} is already fully refunded`, ['onusReference: already fully refunded']);
	if (value > remaining) fail('amount', `must be at most ${remaining} (amount paid less earlier refunds)`);
	if (input.reference) state.checkReferenceFree(business.id, input.reference);
	const wallet = state.requireWallet(business.id, payin.currency);
	checkFunds(wallet, value);
	const onusReference = state.onusReference('RFND');
	const seq = state.nextSeq();
	const now = state.now();
	const r: Refund = {
		id: `RF-${String(seq).padStart(8, '0')}`,
		onusReference,
		paymentOnusReference: payin.onusReference,
		merchantReference: input.reference ?? null,
		amount: value,
		currency: payin.currency,
		status: 'PENDING',
		reason: input.reason ?? null,
		responseMessage: null,
		businessId: business.id,
		businessName: business.name,
		createdDate: now,
		lastUpdatedDate: now,
		_seq: seq,
		_walletId: wallet.id,
		_plannedOutcome: state.config.refundOutcome,
	};
	if (input.reference) state.claimReference(business.id, input.reference, 'refund', onusReference);
	state.refunds.set(onusReference, r);
	payin._refundedAmount = round2((payin._refundedAmount ?? 0) + value);
	state.post(wallet, 'REFUND_DEBIT', -value, onusReference);
	if (r._plannedOutcome !== 'HOLD') {
		sb.later(state.config.transferDelayMs, () => {
			if (r.status === 'PENDING') finishRefund(sb, r, r._plannedOutcome, input.notificationUrl ?? null);
		});
	}
	return ok(refundView(r));
}

function listRefunds(ctx: Ctx) {
	const { state } = ctx.sb;
	const q = ctx.query;
	const businessId = qRequired(q, 'businessId');
	state.ownedBusiness(businessId, ctx.auth!.merchantId);
	const onus = q.get('onusReference') || undefined;
	const paymentOnus = q.get('paymentOnusReference') || undefined;
	const status = qEnum(q, 'status', ['PENDING', 'SUCCESSFUL', 'FAILED']);
	const items = [...state.refunds.values()]
		.reverse()
		.filter(
			(r) =>
				r.businessId === businessId &&
				(!onus || r.onusReference === onus) &&
				(!paymentOnus || r.paymentOnusReference === paymentOnus) &&
				(!status || r.status === status),
		);
	return ok(pageFromOne(items.map(refundView), q, undefined, ctx.sb.profiles));
}

export function registerRefunds(router: Router): void {
	router.add('POST', '/api/v1/refunds/bank-transfer', refund);
	router.add('GET', '/api/v1/refunds', listRefunds);
}
