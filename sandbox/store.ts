/**
 * In-memory state of the sandbox: seeded merchants, businesses and wallets,
 * and every record the API creates, each indexed for O(1) lookups
 * (onusReference, reference per business, token, link id, card token id).
 */
import { Clock, formatTimestamp, referenceStamp } from './clock';
import defaultSeedJson from './seed.json';

export type SettlementMode = 'immediate' | 'delay' | 'T+1';

export interface SandboxConfig {
	/** Delay before a PENDING transfer/refund reaches its automatic outcome. */
	transferDelayMs: number;
	/** Delay before a mobile money payin to a test number succeeds on its own. */
	momoAutoDelayMs: number;
	/** When a successful payin credits the wallet. */
	settlement: SettlementMode;
	/** Used when settlement = 'delay'. */
	settlementDelaySeconds: number;
	payinFeePercent: number;
	payinFeeCap: number;
	/** Default maxSinglePayout of wallets that do not set their own. */
	maxSinglePayout: number;
	/** Failed submissions after which a tokenization link is CANCELLED. */
	linkMaxAttempts: number;
	requestLogLimit: number;
	tokenLifetimeSeconds: number;
	tokenCallsPerMinute: number;
	/** Automatic outcome of bank transfer refunds: SUCCESSFUL, FAILED or HOLD (stays PENDING until settled). */
	refundOutcome: 'SUCCESSFUL' | 'FAILED' | 'HOLD';
}

export interface SeedConfig {
	merchants: Array<{ id: string; name: string }>;
	businesses: Array<{
		id: string;
		merchantId: string;
		name: string;
		tokenizationEnabled?: boolean;
		wallets: Array<{ currency: string; openingBalance?: number; maxSinglePayout?: number }>;
	}>;
	clients: Array<{ clientId: string; clientSecret: string; merchantId: string }>;
	config?: Partial<SandboxConfig>;
}

export const defaultSeed = defaultSeedJson as SeedConfig;

export const DEFAULT_CONFIG: SandboxConfig = {
	transferDelayMs: 20,
	momoAutoDelayMs: 20,
	settlement: 'immediate',
	settlementDelaySeconds: 0,
	payinFeePercent: 1,
	payinFeeCap: 2000,
	maxSinglePayout: 20_000_000,
	linkMaxAttempts: 5,
	requestLogLimit: 5000,
	tokenLifetimeSeconds: 86399,
	tokenCallsPerMinute: 3,
	refundOutcome: 'SUCCESSFUL',
};

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

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errors: string[] = [message],
	) {
		super(message);
	}
}

const round2 = (n: number) => Math.round(n * 100) / 100;
export { round2 };

export class SandboxState {
	readonly clock = new Clock();
	config: SandboxConfig = { ...DEFAULT_CONFIG };
	seed: SeedConfig;

	merchants = new Map<string, Merchant>();
	businesses = new Map<string, Business>();
	/** key `${businessId}|${currency}` */
	wallets = new Map<string, Wallet>();
	walletsById = new Map<string, Wallet>();
	clients = new Map<string, { clientId: string; clientSecret: string; merchantId: string }>();

	ledger: LedgerEntry[] = [];
	payins = new Map<string, Payin>();
	/** dynamic / fixed virtual account number -> onusReference or fixed account id */
	accountNumbers = new Map<string, { kind: 'dynamic' | 'fixed'; key: string }>();
	fixedAccounts = new Map<string, FixedAccount>();
	transfers = new Map<string, Transfer>();
	refunds = new Map<string, Refund>();
	/** `${businessId}|${reference}` -> kind and onusReference (payins, payouts, bulk batches, refunds, fixed accounts) */
	references = new Map<string, { kind: string; onusReference: string }>();
	links = new Map<string, Link>();
	/** `${businessId}|${merchantReference}` -> link id */
	linkRefs = new Map<string, string>();
	cardTokens = new Map<string, CardToken>();
	pendingCredits: PendingCredit[] = [];

	tokens = new Map<string, AccessToken>();
	currentTokenByClient = new Map<string, string>();
	/** tokens superseded or expired, to attribute their 401s to a client */
	retiredTokens = new Map<string, string>();
	tokenCallTimes = new Map<string, number[]>();
	stats = new Map<string, ClientStats>();
	unauthorizedUnknown = 0;

	webhooks: WebhookSettings = { url: null, verificationKey: null, duplicates: 1, delayMs: 0, outOfOrder: false };
	deliveries: Delivery[] = [];
	requestLog: RequestLogEntry[] = [];

	private seq = 0;
	private refSeq = 0;
	private accountSeq = 0;
	private ledgerSeq = 0;
	requestSeq = 0;
	deliverySeq = 0;

	constructor(seed: SeedConfig = defaultSeed) {
		this.seed = seed;
		this.load(seed);
	}

	load(seed: SeedConfig): void {
		this.seed = seed;
		this.config = { ...DEFAULT_CONFIG, ...(seed.config ?? {}) };
		for (const m of [
			this.merchants, this.businesses, this.wallets, this.walletsById, this.clients, this.payins,
			this.accountNumbers, this.fixedAccounts, this.transfers, this.refunds, this.references, this.links,
			this.linkRefs, this.cardTokens, this.tokens, this.currentTokenByClient, this.retiredTokens,
			this.tokenCallTimes, this.stats,
		] as Array<Map<unknown, unknown>>) {
			m.clear();
		}
		this.ledger = [];
		this.pendingCredits = [];
		this.deliveries = [];
		this.requestLog = [];
		this.unauthorizedUnknown = 0;
		this.webhooks = { url: null, verificationKey: null, duplicates: 1, delayMs: 0, outOfOrder: false };
		this.clock.reset();
		for (const m of seed.merchants) this.merchants.set(m.id, { id: m.id, name: m.name });
		let walletNo = 0;
		for (const b of seed.businesses) {
			this.businesses.set(b.id, {
				id: b.id,
				merchantId: b.merchantId,
				name: b.name,
				tokenizationEnabled: b.tokenizationEnabled !== false,
			});
			for (const w of b.wallets) {
				walletNo++;
				const wallet: Wallet = {
					id: `WAL-${String(3000 + walletNo)}`,
					currency: w.currency,
					status: 'ACTIVE',
					availableBalance: w.openingBalance ?? 10_000_000,
					lienAmount: 0,
					entityType: 'BUSINESS',
					entityId: b.id,
					businessName: b.name,
					payoutAllowed: true,
					active: true,
					maxSinglePayout: w.maxSinglePayout ?? this.config.maxSinglePayout,
				};
				this.wallets.set(`${b.id}|${w.currency}`, wallet);
				this.walletsById.set(wallet.id, wallet);
			}
		}
		for (const c of seed.clients) this.clients.set(c.clientId, { ...c });
	}

	nextSeq(): number {
		return ++this.seq;
	}

	now(): string {
		return formatTimestamp(this.clock.now());
	}

	/** `ONUS-<TYPE>-<13 digits>-<DDMMYYYY>-<HHMMSS>`; the 13 digits are a strictly increasing ms-based counter. */
	onusReference(type: string): string {
		const now = this.clock.nowMs();
		this.refSeq = Math.max(this.refSeq + 1, now);
		const digits = String(this.refSeq % 10_000_000_000_000).padStart(13, '0');
		return `ONUS-${type}-${digits}-${referenceStamp(new Date(now))}`;
	}

	/** A fresh 10-digit NUBAN-like virtual account number. */
	accountNumber(): string {
		this.accountSeq++;
		return String(8_000_000_000 + this.accountSeq * 7919 + Math.floor(Math.random() * 7)).slice(0, 10);
	}

	business(id: string): Business {
		const b = this.businesses.get(id);
		if (!b) throw new ApiError(404, `Business ${id} not found`, [`businessId: business ${id} not found`]);
		return b;
	}

	/** The business, checked to belong to the caller's merchant (else 403). */
	ownedBusiness(id: string, merchantId: string): Business {
		const b = this.business(id);
		if (b.merchantId !== merchantId) {
			throw new ApiError(403, 'Insufficient authority for this business', [`businessId: ${id} does not belong to your merchant`]);
		}
		return b;
	}

	merchantName(id: string): string {
		return this.merchants.get(id)?.name ?? '';
	}

	wallet(businessId: string, currency: string): Wallet | undefined {
		return this.wallets.get(`${businessId}|${currency}`);
	}

	requireWallet(businessId: string, currency: string): Wallet {
		const w = this.wallet(businessId, currency);
		if (!w) {
			throw new ApiError(404, `Wallet not found for currency ${currency}`, [
				`currency: no ${currency} wallet is enabled for business ${businessId}`,
			]);
		}
		return w;
	}

	/** Moves a wallet balance and writes a ledger entry. */
	post(wallet: Wallet, type: LedgerEntry['type'], amount: number, onusReference: string): void {
		wallet.availableBalance = round2(wallet.availableBalance + amount);
		this.ledger.push({
			id: ++this.ledgerSeq,
			at: this.now(),
			walletId: wallet.id,
			businessId: wallet.entityId,
			currency: wallet.currency,
			type,
			amount,
			balanceAfter: wallet.availableBalance,
			onusReference,
		});
	}

	refKey(businessId: string, reference: string): string {
		return `${businessId}|${reference}`;
	}

	/** 409 when the reference is already used for the business (payins and payouts share one space). */
	claimReference(businessId: string, reference: string, kind: string, onusReference: string): void {
		const key = this.refKey(businessId, reference);
		const existing = this.references.get(key);
		if (existing) {
			throw new ApiError(409, `Duplicate reference: ${reference} is already used for this business`, [
				`reference: ${reference} already used by ${existing.kind} ${existing.onusReference}`,
			]);
		}
		this.references.set(key, { kind, onusReference });
	}

	checkReferenceFree(businessId: string, reference: string): void {
		const existing = this.references.get(this.refKey(businessId, reference));
		if (existing) {
			throw new ApiError(409, `Duplicate reference: ${reference} is already used for this business`, [
				`reference: ${reference} already used by ${existing.kind} ${existing.onusReference}`,
			]);
		}
	}

	clientStats(clientId: string): ClientStats {
		let s = this.stats.get(clientId);
		if (!s) {
			s = { tokenCalls: 0, tokensIssued: 0, rateLimited: 0, unauthorized: 0, invalidSecret: 0 };
			this.stats.set(clientId, s);
		}
		return s;
	}

	payinFee(amount: number): number {
		return round2(Math.min((amount * this.config.payinFeePercent) / 100, this.config.payinFeeCap));
	}
}
