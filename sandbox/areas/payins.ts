/**
 * Payins: dynamic and fixed virtual accounts with the sandbox fund simulation,
 * card payments (no auth, PIN, OTP, THREE_DS), mobile money (STK push, OTP),
 * EFT (bank redirect), the status query and the payment request list.
 */
import { z } from 'zod';
import { nextBusinessDay } from '../clock';
import { behaviour, decodeCardData, isExpired, maskPan, TEST_OTP, TEST_PIN } from '../cards';
import { pageZeroBased } from '../paging';
import { duplicateReplay } from './replay';
import { ok, type Ctx, type Router } from '../router';
import { ApiError, round2, type Business, type Payin, type PayinStatus } from '../store';
import type { Sandbox } from '../runtime';
import {
	amount, bool, countryCode, currency, email, fail, isoDate, optStr, parse, phone, qDate, qEnum, qRequired, reference, str,
} from '../validate';

export const SANDBOX_BANK = { name: 'PayOnUs Sandbox MFB', code: '090999' };

export const MOMO_NETWORKS = [
	{ code: 'MTN_GH', name: 'MTN Mobile Money Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: false, initiatingCodeRequired: false },
	{ code: 'VODAFONE_GH', name: 'Telecel Cash Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: true, initiatingCodeRequired: true },
	{ code: 'AIRTELTIGO_GH', name: 'AirtelTigo Money Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: true, initiatingCodeRequired: false },
	{ code: 'MPESA_KE', name: 'M-Pesa Kenya', currency: 'KES', countryCode: 'KE', otpRequired: false, initiatingCodeRequired: false },
	{ code: 'AIRTEL_KE', name: 'Airtel Money Kenya', currency: 'KES', countryCode: 'KE', otpRequired: true, initiatingCodeRequired: false },
	{ code: 'VODACOM_ZA', name: 'VodaPay South Africa', currency: 'ZAR', countryCode: 'ZA', otpRequired: false, initiatingCodeRequired: false },
	{ code: 'MTN_ZA', name: 'MoMo South Africa', currency: 'ZAR', countryCode: 'ZA', otpRequired: false, initiatingCodeRequired: false },
];

export const EFT_BANKS = [
	{ code: '632005', name: 'ABSA Bank' },
	{ code: '250655', name: 'First National Bank' },
	{ code: '051001', name: 'Standard Bank' },
	{ code: '198765', name: 'Nedbank' },
	{ code: '470010', name: 'Capitec Bank' },
	{ code: '580105', name: 'Investec Bank' },
];

// ---------- record helpers ----------

/** The API view of a payin: internal fields dropped. */
export function payinView(p: Payin): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(p)) if (k[0] !== '_' && v !== undefined) out[k] = v;
	return out;
}

export function newPayin(
	sb: Sandbox,
	business: Business,
	type: string,
	fields: Partial<Payin> & Pick<Payin, 'amount' | 'currency' | 'paymentChannel' | 'reference'>,
): Payin {
	const state = sb.state;
	const onusReference = fields.onusReference ?? state.onusReference(type);
	const now = state.now();
	const seq = state.nextSeq();
	const p: Payin = {
		id: `PR-${String(seq).padStart(8, '0')}`,
		merchantUserId: null,
		amountPaid: 0,
		settlementAmount: 0,
		acceptablePaymentType: 'ACCEPT_FULL_VALUE_ONLY',
		countryCode: 'NG',
		paymentGateway: 'SANDBOX',
		accountNumber: '',
		accountName: '',
		bankName: '',
		bankCode: '',
		email: '',
		mobileNumber: '',
		totalChargedFee: 0,
		transactionFee: 0,
		providerFee: 0,
		vat: 0,
		providerVat: 0,
		stampDutyApplied: false,
		waveStampDuty: false,
		forWalletFunding: false,
		merchantNotified: false,
		forwardedForSettlement: false,
		fixedAccount: false,
		merchantReference: fields.reference,
		sessionId: null,
		providerReference: null,
		providerResponse: null,
		notificationUrl: null,
		redirectUrl: null,
		merchantCheckoutReference: null,
		senderName: '',
		senderAccount: '',
		senderAccountNumber: '',
		ipAddress: '127.0.0.1',
		narration: '',
		paymentStatus: 'PENDING',
		createdDate: now,
		lastUpdatedDate: now,
		businessName: business.name,
		merchantName: state.merchantName(business.merchantId),
		businessId: business.id,
		...fields,
		onusReference,
		_seq: seq,
		_createdMs: state.clock.nowMs(),
	};
	state.payins.set(onusReference, p);
	return p;
}

function setStatus(sb: Sandbox, p: Payin, status: PayinStatus, providerResponse?: string): void {
	p.paymentStatus = status;
	p.lastUpdatedDate = sb.state.now();
	if (providerResponse !== undefined) p.providerResponse = providerResponse;
}

/** Marks a payin SUCCESSFUL, books fees, schedules the wallet credit and sends COLLECTION. */
export function confirmPayin(sb: Sandbox, p: Payin, providerResponse = 'Approved'): void {
	const state = sb.state;
	if (p.paymentStatus === 'SUCCESSFUL' || p.paymentStatus === 'FAILED') {
		throw new ApiError(409, `Payment ${p.onusReference} is already ${p.paymentStatus}`, [`onusReference: payment is already ${p.paymentStatus}`]);
	}
	p.amountPaid = p.amount;
	const fee = state.payinFee(p.amount);
	p.totalChargedFee = fee;
	p.transactionFee = fee;
	p.settlementAmount = round2(p.amount - fee);
	p.providerReference = p.providerReference ?? `SBX-${p._seq}`;
	p.authTypeRequired = p.paymentChannel === 'CARD' ? null : p.authTypeRequired;
	setStatus(sb, p, 'SUCCESSFUL', providerResponse);
	const now = state.clock.nowMs();
	const cfg = state.config;
	const dueMs = cfg.settlement === 'T+1' ? nextBusinessDay(now) : cfg.settlement === 'delay' ? now + cfg.settlementDelaySeconds * 1000 : now;
	state.pendingCredits.push({ dueMs, onusReference: p.onusReference });
	state.pendingCredits.sort((a, b) => a.dueMs - b.dueMs);
	processDueCredits(sb);
	sendCollection(sb, p);
}

export function failPayin(sb: Sandbox, p: Payin, reason: string): void {
	if (p.paymentStatus === 'SUCCESSFUL' || p.paymentStatus === 'FAILED') {
		throw new ApiError(409, `Payment ${p.onusReference} is already ${p.paymentStatus}`, [`onusReference: payment is already ${p.paymentStatus}`]);
	}
	if (p.paymentChannel === 'CARD') p.authTypeRequired = null;
	setStatus(sb, p, 'FAILED', reason);
}

/** Credits wallets for successful payins whose settlement time has come (sandbox clock). */
export function processDueCredits(sb: Sandbox): void {
	const state = sb.state;
	const now = state.clock.nowMs();
	while (state.pendingCredits.length > 0 && state.pendingCredits[0].dueMs <= now) {
		const credit = state.pendingCredits.shift()!;
		const p = state.payins.get(credit.onusReference);
		if (!p) continue;
		const wallet = state.wallet(p.businessId, p.currency);
		if (!wallet) continue;
		state.post(wallet, 'PAYIN_CREDIT', p.settlementAmount, p.onusReference);
		p.forwardedForSettlement = true;
	}
}

function webhookAccountNumber(p: Payin): string {
	if (p.paymentChannel === 'MOBILE_MONEY') return p.mobileNumber;
	if (p.paymentChannel === 'CARD') return p.maskedPan ?? '';
	if (p.paymentChannel === 'EFT') return p._eftBank ?? '';
	return p.accountNumber;
}

export function sendCollection(sb: Sandbox, p: Payin): void {
	const accountNumber = webhookAccountNumber(p);
	const body = {
		id: p.id,
		type: 'COLLECTION',
		currency: p.currency,
		businessId: p.businessId,
		accountNumber,
		onusReference: p.onusReference,
		paymentStatus: p.paymentStatus,
		paymentChannel: p.paymentChannel,
		transactionAmount: p.amountPaid,
		merchantReference: p.merchantReference,
		merchantFee: p.totalChargedFee,
		settlementAmount: p.settlementAmount,
		narration: p.narration,
		createdDate: p.createdDate,
		senderDetails: {
			name: p.senderName || p.accountName,
			bankCode: p.paymentChannel === 'BANK_TRANSFER' ? '058' : '',
			bankName: p.paymentChannel === 'BANK_TRANSFER' ? 'Sandbox Sender Bank' : '',
			accountNumber: p.senderAccountNumber,
		},
	};
	p.merchantNotified = Boolean(sb.state.webhooks.url && sb.state.webhooks.verificationKey);
	sb.webhooks.emit('COLLECTION', body, [accountNumber, p.onusReference, p.paymentStatus], p.notificationUrl);
}

/** The payin, checked to belong to the caller's merchant. */
export function ownedPayin(ctx: Ctx, onusReference: string): Payin {
	const p = ctx.sb.state.payins.get(onusReference);
	if (!p) throw new ApiError(404, `Payment request ${onusReference} not found`, [`onusReference: ${onusReference} not found`]);
	const b = ctx.sb.state.business(p.businessId);
	if (ctx.auth && b.merchantId !== ctx.auth.merchantId) {
		throw new ApiError(403, 'Insufficient authority for this payment', ['onusReference: belongs to another merchant']);
	}
	return p;
}

// ---------- schemas ----------

const address = z
	.object({
		line1: optStr(),
		city: optStr(),
		state: optStr(),
		postalCode: optStr(),
		countryCode: countryCode().optional(),
	})
	.optional();

const customerBase = {
	name: str(),
	email: email(),
	phone: phone().optional(),
	externalId: optStr(),
	address,
};

const dynamicSchema = z.object({
	amount: amount(),
	reference: reference(),
	businessId: str(),
	customer: z.object({ ...customerBase, bvn: str().regex(/^\d{11}$/, 'must be 11 digits').optional() }, { required_error: 'is required' }),
	narration: optStr(),
	notificationUrl: optStr(),
});

const fixedSchema = z.object({
	reference: reference(),
	businessId: str(),
	dob: isoDate(),
	customer: z.object(
		{
			name: str(),
			email: email(),
			phone: phone().optional(),
			externalId: optStr(),
			bvn: str().regex(/^\d{11}$/, 'must be 11 digits'),
			address: z.object(
				{ line1: str(), city: str(), state: optStr(), postalCode: optStr(), countryCode: countryCode() },
				{ required_error: 'is required' },
			),
		},
		{ required_error: 'is required' },
	),
	notificationUrl: optStr(),
});

const fundSchema = z.object({
	onusReference: str().optional(),
	accountNumber: str(),
	amount: amount(),
	paymentStatus: z.enum(['SUCCESSFUL', 'FAILED'], { errorMap: () => ({ message: 'must be SUCCESSFUL or FAILED' }) }).default('SUCCESSFUL'),
	forDynamicAccount: bool().default(true),
	senderName: optStr(),
	senderAccountNumber: optStr(),
});

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

const eftSchema = z.object({
	amount: amount(),
	reference: reference(),
	narration: optStr(),
	businessId: str(),
	bank: str(),
	redirectUrl: optStr(),
	notificationUrl: optStr(),
	customer: z.object({ ...customerBase }, { required_error: 'is required' }),
});

// ---------- handlers ----------

function createDynamic(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(dynamicSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	state.requireWallet(business.id, 'NGN');
	state.checkReferenceFree(business.id, input.reference);
	const accountNumber = state.accountNumber();
	const p = newPayin(ctx.sb, business, 'NUB', {
		amount: input.amount,
		currency: 'NGN',
		paymentChannel: 'BANK_TRANSFER',
		reference: input.reference,
		accountNumber,
		accountName: `${business.name} / ${input.customer.name}`,
		bankName: SANDBOX_BANK.name,
		bankCode: SANDBOX_BANK.code,
		email: input.customer.email,
		mobileNumber: input.customer.phone ?? '',
		merchantUserId: input.customer.externalId ?? null,
		narration: input.narration ?? '',
		notificationUrl: input.notificationUrl ?? null,
	});
	state.claimReference(business.id, input.reference, 'payin', p.onusReference);
	state.accountNumbers.set(accountNumber, { kind: 'dynamic', key: p.onusReference });
	return ok({
		accountName: p.accountName,
		accountNumber,
		bankName: p.bankName,
		amount: p.amount,
		onusReference: p.onusReference,
		merchantReference: p.merchantReference,
	});
}

function createFixed(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(fixedSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	state.requireWallet(business.id, 'NGN');
	state.checkReferenceFree(business.id, input.reference);
	const onusReference = state.onusReference('FXD');
	state.claimReference(business.id, input.reference, 'fixedAccount', onusReference);
	const accountNumber = state.accountNumber();
	const account = {
		id: `FXA-${String(state.nextSeq()).padStart(8, '0')}`,
		onusReference,
		accountNumber,
		accountName: `${business.name} / ${input.customer.name}`,
		bankName: SANDBOX_BANK.name,
		bankCode: SANDBOX_BANK.code,
		currency: 'NGN',
		merchantReference: input.reference,
		customerName: input.customer.name,
		customerEmail: input.customer.email,
		status: 'ACTIVE',
		businessId: business.id,
		businessName: business.name,
		merchantName: state.merchantName(business.merchantId),
		createdDate: state.now(),
	};
	state.fixedAccounts.set(account.id, account);
	state.accountNumbers.set(accountNumber, { kind: 'fixed', key: account.id });
	return ok(account);
}

function fund(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(fundSchema, ctx.body);
	const target = state.accountNumbers.get(input.accountNumber);
	if (input.forDynamicAccount) {
		if (!input.onusReference) fail('onusReference', 'is required for a dynamic account');
		const p = ownedPayin(ctx, input.onusReference);
		if (!target || target.kind !== 'dynamic' || target.key !== p.onusReference) {
			fail('accountNumber', `does not match the dynamic account of ${p.onusReference}`);
		}
		if (p.paymentStatus !== 'PENDING') {
			throw new ApiError(409, `Payment ${p.onusReference} is already ${p.paymentStatus}`, [`onusReference: payment is already ${p.paymentStatus}`]);
		}
		if (input.amount !== p.amount) {
			fail('amount', `must be exactly ${p.amount} (ACCEPT_FULL_VALUE_ONLY); ${input.amount} was sent`);
		}
		p.senderName = input.senderName ?? 'Sandbox Sender';
		p.senderAccountNumber = input.senderAccountNumber ?? '0123456789';
		p.senderAccount = p.senderAccountNumber;
		p.sessionId = `SBXSESSION${p._seq}`;
		if (input.paymentStatus === 'SUCCESSFUL') confirmPayin(ctx.sb, p);
		else failPayin(ctx.sb, p, 'Transfer failed (simulated)');
		return ok(payinView(p));
	}
	if (!target || target.kind !== 'fixed') fail('accountNumber', 'is not a fixed virtual account of this sandbox');
	const account = state.fixedAccounts.get(target.key)!;
	const business = state.ownedBusiness(account.businessId, ctx.auth!.merchantId);
	const p = newPayin(ctx.sb, business, 'FXD', {
		amount: input.amount,
		currency: 'NGN',
		paymentChannel: 'BANK_TRANSFER',
		reference: account.merchantReference,
		accountNumber: account.accountNumber,
		accountName: account.accountName,
		bankName: account.bankName,
		bankCode: account.bankCode,
		email: account.customerEmail,
		fixedAccount: true,
		fixedAccountId: account.id,
		fixedAccountMerchantReference: account.merchantReference,
		senderName: input.senderName ?? 'Sandbox Sender',
		senderAccountNumber: input.senderAccountNumber ?? '0123456789',
		senderAccount: input.senderAccountNumber ?? '0123456789',
	});
	if (input.paymentStatus === 'SUCCESSFUL') confirmPayin(ctx.sb, p);
	else failPayin(ctx.sb, p, 'Transfer failed (simulated)');
	return ok(payinView(p));
}

function cardPayment(ctx: Ctx) {
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

function completeCard(ctx: Ctx) {
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

function isMomoTestNumber(network: (typeof MOMO_NETWORKS)[number], phoneNumber: string): boolean {
	const digits = phoneNumber.replace(/\D/g, '');
	if (network.countryCode === 'ZA') return true;
	if (network.countryCode === 'GH') return digits.endsWith('240000003');
	if (network.countryCode === 'KE') return digits === '234700000000' || digits === '254700000000';
	return false;
}

function momoCollection(ctx: Ctx) {
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

function verifyOtp(ctx: Ctx) {
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

function eftPayment(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(eftSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const bank = EFT_BANKS.find((b) => b.code === input.bank);
	if (!bank) fail('bank', `must be a bank code from GET /api/v1/eft-payment/banks (${EFT_BANKS.map((b) => b.code).join(', ')})`);
	state.requireWallet(business.id, 'ZAR');
	const replay = duplicateReplay(ctx, business.id, input.reference);
	if (replay) return replay;
	state.checkReferenceFree(business.id, input.reference);
	const p = newPayin(ctx.sb, business, 'EFT', {
		amount: input.amount,
		currency: 'ZAR',
		paymentChannel: 'EFT',
		reference: input.reference,
		countryCode: 'ZA',
		accountName: input.customer.name,
		email: input.customer.email,
		mobileNumber: input.customer.phone ?? '',
		bankName: bank.name,
		bankCode: bank.code,
		narration: input.narration ?? '',
		redirectUrl: input.redirectUrl ?? null,
		notificationUrl: input.notificationUrl ?? null,
		paymentStatus: 'PROCESSING',
		_eftBank: bank.code,
	});
	state.claimReference(business.id, input.reference, 'payin', p.onusReference);
	return ok({
		onusReference: p.onusReference,
		reference: p.reference,
		amount: p.amount,
		redirectUrl: `${ctx.baseUrl}/hosted/eft/${encodeURIComponent(p.onusReference)}`,
		bankName: bank.name,
		paymentStatus: p.paymentStatus,
	});
}

function getPayment(ctx: Ctx) {
	const { state } = ctx.sb;
	const business = state.ownedBusiness(ctx.params.businessId, ctx.auth!.merchantId);
	const onusReference = qRequired(ctx.query, 'onusReference');
	const p = state.payins.get(onusReference);
	if (!p || p.businessId !== business.id) {
		throw new ApiError(404, `Payment request ${onusReference} not found for business ${business.id}`, [`onusReference: not found`]);
	}
	return ok(payinView(p));
}

function listPayments(ctx: Ctx) {
	const { state } = ctx.sb;
	const q = ctx.query;
	const merchantId = ctx.auth!.merchantId;
	const status = qEnum(q, 'status', ['PROCESSING', 'PENDING', 'SUCCESSFUL', 'FAILED']);
	const businessId = q.get('businessId') || undefined;
	if (businessId) state.ownedBusiness(businessId, merchantId);
	const ref = q.get('reference') || undefined;
	const onus = q.get('onusReference') || undefined;
	const from = qDate(q, 'fromDate');
	const to = qDate(q, 'toDate');
	if (from !== undefined && to !== undefined && from > to) fail('fromDate', 'must not be after toDate');
	let candidates: Payin[];
	if (onus) {
		const p = state.payins.get(onus);
		candidates = p ? [p] : [];
	} else if (ref && businessId && state.references.get(state.refKey(businessId, ref))?.kind === 'payin') {
		const p = state.payins.get(state.references.get(state.refKey(businessId, ref))!.onusReference);
		candidates = p ? [p] : [];
	} else {
		candidates = [...state.payins.values()].reverse();
	}
	const toEnd = to === undefined ? undefined : to + 86_400_000;
	const items = candidates.filter(
		(p) =>
			state.businesses.get(p.businessId)?.merchantId === merchantId &&
			(!status || p.paymentStatus === status) &&
			(!businessId || p.businessId === businessId) &&
			(!ref || p.reference === ref) &&
			(from === undefined || p._createdMs >= from) &&
			(toEnd === undefined || p._createdMs < toEnd),
	);
	return ok(pageZeroBased(items, q, payinView, ctx.sb.profiles));
}

export function registerPayins(router: Router): void {
	router.add('POST', '/api/v1/virtual-accounts/dynamic', createDynamic);
	router.add('POST', '/api/v1/virtual-accounts/fixed-account', createFixed);
	router.add('POST', '/api/v1/fund-ngn-account', fund);
	router.add('POST', '/api/v1/card-payments', cardPayment);
	router.add('POST', '/api/v1/card-payments/complete-payment', completeCard);
	router.add('POST', '/api/v1/mobile-money/collection', momoCollection);
	router.add('POST', '/api/v1/mobile-money/verify-otp', verifyOtp);
	router.add('GET', '/api/v1/mobile-money/networks', (ctx) => {
		const cur = ctx.query.get('currency');
		const country = ctx.query.get('countryCode');
		return ok(MOMO_NETWORKS.filter((n) => (!cur || n.currency === cur) && (!country || n.countryCode === country)));
	});
	router.add('GET', '/api/v1/eft-payment/banks', () => ok(EFT_BANKS));
	router.add('POST', '/api/v1/eft-payment', eftPayment);
	router.add('GET', '/api/v1/payment-requests/businesses/:businessId', getPayment);
	router.add('GET', '/api/v1/payment-requests', listPayments);
}

/**
 * The customer's step on a payin waiting for them: mobile money approval,
 * EFT authorisation at the bank, card PIN/OTP/3-D Secure. Used by the
 * control API and the hosted redirect pages.
 */
export function customerDecision(sb: Sandbox, p: Payin, approve: boolean): Payin {
	const waiting =
		((p.paymentChannel === 'MOBILE_MONEY' || p.paymentChannel === 'EFT') && p.paymentStatus === 'PROCESSING') ||
		(p.paymentChannel === 'CARD' && p.paymentStatus === 'PENDING' && !!p.authTypeRequired);
	if (!waiting) {
		throw new ApiError(409, `Payment ${p.onusReference} is not waiting for a customer step (${p.paymentChannel}, ${p.paymentStatus})`, [
			'onusReference: not waiting for a customer step',
		]);
	}
	if (approve) {
		if (p.paymentChannel === 'MOBILE_MONEY') p.otpRequired = false;
		confirmPayin(sb, p, 'Approved by customer');
	} else {
		failPayin(sb, p, 'Declined by customer');
	}
	return p;
}
