/**
 * The records the sandbox keeps (the spec's records plus sandbox-internal
 * fields under `_`), its logs and its per-client counters. Types only.
 */

export interface Merchant {
	id: string;
	name: string;
}

export interface Business {
	id: string;
	merchantId: string;
	name: string;
	tokenizationEnabled: boolean;
}

export interface Wallet {
	id: string;
	currency: string;
	status: string;
	availableBalance: number;
	lienAmount: number;
	entityType: string;
	entityId: string;
	businessName: string;
	payoutAllowed: boolean;
	active: boolean;
	maxSinglePayout: number;
}

export interface LedgerEntry {
	id: number;
	at: string;
	walletId: string;
	businessId: string;
	currency: string;
	type: 'PAYIN_CREDIT' | 'PAYOUT_DEBIT' | 'PAYOUT_FEE' | 'PAYOUT_REVERSAL' | 'REFUND_DEBIT' | 'REFUND_REVERSAL';
	amount: number;
	balanceAfter: number;
	onusReference: string;
}

export type PayinStatus = 'PROCESSING' | 'PENDING' | 'SUCCESSFUL' | 'FAILED';

/** A payin record (the spec's payment request) plus sandbox-internal fields under `_`. */
export interface Payin {
	id: string;
	merchantUserId: string | null;
	amount: number;
	amountPaid: number;
	settlementAmount: number;
	acceptablePaymentType: string;
	paymentChannel: 'BANK_TRANSFER' | 'CARD' | 'MOBILE_MONEY' | 'EFT';
	currency: string;
	countryCode: string;
	paymentGateway: string;
	accountNumber: string;
	accountName: string;
	bankName: string;
	bankCode: string;
	email: string;
	mobileNumber: string;
	totalChargedFee: number;
	transactionFee: number;
	providerFee: number;
	vat: number;
	providerVat: number;
	stampDutyApplied: boolean;
	waveStampDuty: boolean;
	forWalletFunding: boolean;
	merchantNotified: boolean;
	forwardedForSettlement: boolean;
	fixedAccount: boolean;
	onusReference: string;
	reference: string;
	merchantReference: string;
	sessionId: string | null;
	providerReference: string | null;
	providerResponse: string | null;
	notificationUrl: string | null;
	redirectUrl: string | null;
	merchantCheckoutReference: string | null;
	senderName: string;
	senderAccount: string;
	senderAccountNumber: string;
	ipAddress: string;
	narration: string;
	paymentStatus: PayinStatus;
	createdDate: string;
	lastUpdatedDate: string;
	businessName: string;
	merchantName: string;
	businessId: string;
	fixedAccountId?: string;
	fixedAccountMerchantReference?: string;
	/** Card payins waiting for a completion step. */
	authTypeRequired?: 'PIN' | 'OTP' | 'THREE_DS' | null;
	/** Mobile money: network code and whether an OTP is still expected. */
	network?: string;
	otpRequired?: boolean;
	/** Card payins: masked PAN. */
	maskedPan?: string;
	/** Sandbox internals (not part of API output). */
	_seq: number;
	_createdMs: number;
	_cardToken?: string;
	_refundedAmount?: number;
	_eftBank?: string;
}

export type TransferStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

export interface Transfer {
	id: string;
	onusReference: string;
	merchantReference: string;
	amount: number;
	fee: number;
	currency: string;
	beneficiaryAccountNumber: string;
	beneficiaryAccountName: string;
	bankCode: string | null;
	bankName: string | null;
	momoNetwork: string | null;
	paymentStatus: TransferStatus;
	paymentChannel: 'BANK_TRANSFER' | 'MOBILE_MONEY' | 'EFT';
	transferType: string;
	narration: string;
	countryCode: string;
	email: string | null;
	responseMessage: string | null;
	bulkReference: string | null;
	businessId: string;
	businessName: string;
	merchantId: string;
	merchantName: string;
	createdDate: string;
	lastUpdatedDate: string;
	_seq: number;
	_createdMs: number;
	/** Outcome chosen at initiation: SUCCESSFUL, a failure reason, or HOLD (left PENDING). */
	_plannedOutcome: string;
	_walletId: string;
}

export interface Refund {
	id: string;
	onusReference: string;
	paymentOnusReference: string;
	merchantReference: string | null;
	amount: number;
	currency: string;
	status: TransferStatus;
	reason: string | null;
	responseMessage: string | null;
	businessId: string;
	businessName: string;
	createdDate: string;
	lastUpdatedDate: string;
	_seq: number;
	_walletId: string;
	_plannedOutcome: string;
}

export type LinkStatus = 'PENDING' | 'COMPLETED' | 'EXPIRED' | 'CANCELLED';

export interface Link {
	id: string;
	url: string;
	expiresAt: string;
	status: LinkStatus;
	merchantReference: string;
	customerName: string;
	customerEmail: string;
	customerPhone: string | null;
	customerExternalId: string | null;
	cardTokenId: string | null;
	createdDate: string;
	businessName: string;
	merchantName: string;
	businessId: string;
	merchantId: string;
	attempts: number;
	lastError: string | null;
	_seq: number;
	_createdMs: number;
	_expiresMs: number;
}

export interface CardToken {
	id: string;
	maskedPan: string;
	accountNumber: string;
	tokenExpiry: string;
	paymentGateway: string;
	requestId: string;
	customerName: string;
	customerEmail: string;
	merchantReference: string | null;
	createdDate: string;
	businessName: string;
	merchantName: string;
	businessId: string;
	merchantId: string;
	deleted: boolean;
	deletedDate: string | null;
	_seq: number;
	_createdMs: number;
	/** Sandbox: charges on this token are declined (test card 4000000000000341). */
	_declineCharges: boolean;
}

export interface FixedAccount {
	id: string;
	onusReference: string;
	accountNumber: string;
	accountName: string;
	bankName: string;
	bankCode: string;
	currency: string;
	merchantReference: string;
	customerName: string;
	customerEmail: string;
	status: string;
	businessId: string;
	businessName: string;
	merchantName: string;
	createdDate: string;
}

export interface AccessToken {
	token: string;
	clientId: string;
	merchantId: string;
	issuedMs: number;
	expiresMs: number;
}

/**
 * A test control of the tokens of one client: `every` token issued is
 * refused on use, or only the `next` one (401 "no longer valid", as when
 * another installation using the same client takes a token right after,
 * or the API client is switched off on the dashboard).
 */
export type TokenRefusal = 'every' | 'next';

export interface ClientStats {
	tokenCalls: number;
	tokensIssued: number;
	rateLimited: number;
	unauthorized: number;
	invalidSecret: number;
}

export interface WebhookSettings {
	url: string | null;
	verificationKey: string | null;
	duplicates: number;
	delayMs: number;
	outOfOrder: boolean;
}

export interface Delivery {
	id: number;
	event: string;
	url: string;
	headers: Record<string, string>;
	body: unknown;
	status: number | null;
	error: string | null;
	copy: number;
	sentAt: string | null;
	queuedAt: string;
}

export interface RequestLogEntry {
	id: number;
	at: string;
	method: string;
	path: string;
	query: Record<string, string | string[]>;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
	status: number;
	clientId: string | null;
	durationMs: number;
	fault: string | null;
}

export interface PendingCredit {
	dueMs: number;
	onusReference: string;
}
