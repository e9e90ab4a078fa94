/**
 * The life of a payin record, whatever its channel: creation, success (fees,
 * wallet credit, COLLECTION webhook), failure, the customer's step on a
 * payin waiting for them, the API view, and the ownership check.
 */
import { ApiError } from '../../errors';
import { round2 } from '../../money';
import type { Business, Payin, PayinStatus } from '../../records';
import type { Ctx } from '../../router';
import type { Sandbox } from '../../runtime';
import { scheduleCredit } from '../../settlement';

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
	if (!sb.profiles.has('updated-date-unmoved')) p.lastUpdatedDate = sb.state.now();
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
	scheduleCredit(state, p, sb.profiles.has('updated-date-moves-later'));
	sendCollection(sb, p);
}

export function failPayin(sb: Sandbox, p: Payin, reason: string): void {
	if (p.paymentStatus === 'SUCCESSFUL' || p.paymentStatus === 'FAILED') {
		throw new ApiError(409, `Payment ${p.onusReference} is already ${p.paymentStatus}`, [`onusReference: payment is already ${p.paymentStatus}`]);
	}
	if (p.paymentChannel === 'CARD') p.authTypeRequired = null;
	setStatus(sb, p, 'FAILED', reason);
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
