/** Card payments: no authentication, PIN, OTP or 3-D Secure (hosted page), by test card; and their completion. */
import { z } from 'zod';
import { behaviour, decodeCardData, isExpired, maskPan, TEST_OTP, TEST_PIN } from '../../cards';
import { ApiError } from '../../errors';
import { ok, type Ctx } from '../../router';
import { amount, currency, fail, optStr, parse, reference, str } from '../../validate';
import { duplicateReplay } from '../replay';
import { customerBase } from './customer';
import { confirmPayin, failPayin, newPayin, ownedPayin } from './record';

const cardSchema = z.object({
	cardData: str(),
	amount: amount(),
	currency: currency(),
	reference: reference(),
	narration: optStr(),
	businessId: str(),
	redirectUrl: optStr(),
	notificationUrl: optStr(),
	customer: z.object({ ...customerBase }, { required_error: 'is required' }),
});

const completeSchema = z.object({
	onusReference: str(),
	businessId: str().optional(),
	cardAuthType: z.enum(['PIN', 'OTP', 'THREE_DS'], { errorMap: () => ({ message: 'must be PIN or OTP' }) }),
	authData: str(),
});

export function cardPayment(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(cardSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const card = decodeCardData(input.cardData);
	state.requireWallet(business.id, input.currency);
	const replay = duplicateReplay(ctx, business.id, input.reference);
	if (replay) return replay;
	state.checkReferenceFree(business.id, input.reference);
	const p = newPayin(ctx.sb, business, 'CARD', {
		amount: input.amount,
		currency: input.currency,
		paymentChannel: 'CARD',
		reference: input.reference,
		email: input.customer.email,
		mobileNumber: input.customer.phone ?? '',
		accountName: input.customer.name,
		countryCode: input.customer.address?.countryCode ?? 'NG',
		narration: input.narration ?? '',
		redirectUrl: input.redirectUrl ?? null,
		notificationUrl: input.notificationUrl ?? null,
		maskedPan: maskPan(card.pan),
		authTypeRequired: null,
	});
	state.claimReference(business.id, input.reference, 'payin', p.onusReference);
	const kind = behaviour(card.pan);
	let redirectUrl: string | null = null;
	let message: string;
	if (isExpired(card, state.clock.nowMs())) {
		failPayin(ctx.sb, p, 'Expired card');
		message = 'Expired card';
	} else if (kind === 'DECLINE' || kind === 'GATEWAY_ERROR') {
		failPayin(ctx.sb, p, kind === 'DECLINE' ? 'Card declined' : 'Issuer unavailable');
		message = p.providerResponse!;
	} else if (kind === 'PIN' || kind === 'OTP' || kind === 'THREE_DS') {
		p.authTypeRequired = kind;
		if (kind === 'THREE_DS') redirectUrl = `${ctx.baseUrl}/hosted/3ds/${encodeURIComponent(p.onusReference)}`;
		message = kind === 'PIN' ? 'Enter card PIN' : kind === 'OTP' ? 'OTP sent to the customer phone' : 'Redirect the customer to complete 3-D Secure';
	} else {
		confirmPayin(ctx.sb, p);
		message = 'Payment successful';
	}
	return ok({ authTypeRequired: p.authTypeRequired ?? null, paymentStatus: p.paymentStatus, onusReference: p.onusReference, redirectUrl, message });
}

export function completeCard(ctx: Ctx) {
	const input = parse(completeSchema, ctx.body);
	const p = ownedPayin(ctx, input.onusReference);
	if (input.businessId && input.businessId !== p.businessId) fail('businessId', `does not own payment ${p.onusReference}`, 403);
	if (p.paymentChannel !== 'CARD') fail('onusReference', 'is not a card payment');
	if (p.paymentStatus !== 'PENDING' || !p.authTypeRequired) {
		throw new ApiError(409, `Payment ${p.onusReference} is not awaiting completion (${p.paymentStatus})`, ['onusReference: not awaiting completion']);
	}
	if (p.authTypeRequired === 'THREE_DS') fail('cardAuthType', 'THREE_DS is completed by the customer on the redirectUrl page');
	if (input.cardAuthType !== p.authTypeRequired) fail('cardAuthType', `must be ${p.authTypeRequired} for this payment`);
	const expected = p.authTypeRequired === 'PIN' ? TEST_PIN : TEST_OTP;
	let message: string;
	if (input.authData === expected) {
		confirmPayin(ctx.sb, p);
		message = 'Payment successful';
	} else {
		failPayin(ctx.sb, p, p.authTypeRequired === 'PIN' ? 'Incorrect PIN' : 'Incorrect OTP');
		message = p.providerResponse!;
	}
	return ok({ authTypeRequired: null, paymentStatus: p.paymentStatus, onusReference: p.onusReference, redirectUrl: null, message });
}
