/**
 * Mobile money collections: an STK push the customer approves (test numbers
 * approve on their own after `momoAutoDelayMs`), or an OTP to verify; and
 * the list of networks.
 */
import { z } from 'zod';
import { MOMO_NETWORKS } from '../../catalog';
import { TEST_OTP } from '../../cards';
import { ApiError } from '../../errors';
import { ok, type Ctx } from '../../router';
import { amount, fail, optStr, parse, phone, reference, str } from '../../validate';
import { duplicateReplay } from '../replay';
import { customerBase } from './customer';
import { confirmPayin, newPayin, ownedPayin } from './record';

const momoSchema = z.object({
	amount: amount(),
	reference: reference(),
	businessId: str(),
	narration: optStr(),
	momoNetwork: str(),
	initiatingCode: optStr(),
	notificationUrl: optStr(),
	customer: z.object({ ...customerBase, phone: phone() }, { required_error: 'is required' }),
});

const otpSchema = z.object({ onusReference: str(), otp: str(), businessId: str().optional() });

function isMomoTestNumber(network: (typeof MOMO_NETWORKS)[number], phoneNumber: string): boolean {
	const digits = phoneNumber.replace(/\D/g, '');
	if (network.countryCode === 'ZA') return true;
	if (network.countryCode === 'GH') return digits.endsWith('240000003');
	if (network.countryCode === 'KE') return digits === '234700000000' || digits === '254700000000';
	return false;
}

export function momoCollection(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(momoSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const network = MOMO_NETWORKS.find((n) => n.code === input.momoNetwork);
	if (!network) fail('momoNetwork', `must be one of ${MOMO_NETWORKS.map((n) => n.code).join(', ')}`);
	if (network.initiatingCodeRequired && !input.initiatingCode) fail('initiatingCode', `is required for network ${network.code}`);
	state.requireWallet(business.id, network.currency);
	const replay = duplicateReplay(ctx, business.id, input.reference);
	if (replay) return replay;
	state.checkReferenceFree(business.id, input.reference);
	const p = newPayin(ctx.sb, business, 'MMO', {
		amount: input.amount,
		currency: network.currency,
		paymentChannel: 'MOBILE_MONEY',
		reference: input.reference,
		countryCode: network.countryCode,
		mobileNumber: input.customer.phone,
		accountName: input.customer.name,
		email: input.customer.email,
		narration: input.narration ?? '',
		notificationUrl: input.notificationUrl ?? null,
		network: network.code,
		otpRequired: network.otpRequired,
		paymentStatus: 'PROCESSING',
	});
	state.claimReference(business.id, input.reference, 'payin', p.onusReference);
	if (!network.otpRequired && isMomoTestNumber(network, input.customer.phone)) {
		ctx.sb.later(state.config.momoAutoDelayMs, () => {
			if (p.paymentStatus === 'PROCESSING') confirmPayin(ctx.sb, p, 'Approved by customer (test number)');
		});
	}
	return ok({
		accountName: p.accountName,
		mobileNumber: p.mobileNumber,
		paymentStatus: p.paymentStatus,
		network: network.code,
		amount: p.amount,
		onusReference: p.onusReference,
		merchantReference: p.merchantReference,
		otpRequired: network.otpRequired,
	});
}

export function verifyOtp(ctx: Ctx) {
	const input = parse(otpSchema, ctx.body);
	const p = ownedPayin(ctx, input.onusReference);
	if (input.businessId && input.businessId !== p.businessId) fail('businessId', `does not own payment ${p.onusReference}`, 403);
	if (p.paymentChannel !== 'MOBILE_MONEY') fail('onusReference', 'is not a mobile money payment');
	if (p.paymentStatus !== 'PROCESSING' || !p.otpRequired) {
		throw new ApiError(409, `Payment ${p.onusReference} is not awaiting an OTP (${p.paymentStatus})`, ['onusReference: not awaiting an OTP']);
	}
	if (input.otp !== TEST_OTP) fail('otp', 'is incorrect');
	p.otpRequired = false;
	confirmPayin(ctx.sb, p, 'OTP verified');
	return ok({ onusReference: p.onusReference, paymentStatus: p.paymentStatus, message: 'OTP verified' });
}

/** GET /api/v1/mobile-money/networks, filtered by currency and country code. */
export function listNetworks(ctx: Ctx) {
	const cur = ctx.query.get('currency');
	const country = ctx.query.get('countryCode');
	return ok(MOMO_NETWORKS.filter((n) => (!cur || n.currency === cur) && (!country || n.countryCode === country)));
}
