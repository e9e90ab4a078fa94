/**
 * In-memory state of the sandbox: seeded merchants, businesses and wallets,
 * and every record the API creates, each indexed for O(1) lookups
 * (onusReference, reference per business, token, link id, card token id).
 */
import { Clock, formatTimestamp, referenceStamp } from './clock';
import { DEFAULT_CONFIG, defaultSeed, type SandboxConfig, type SeedConfig } from './config';
import { ApiError } from './errors';
import { round2 } from './money';
import type {
	AccessToken, Business, CardToken, ClientStats, Delivery, FixedAccount, LedgerEntry, Link, Merchant, Payin, PendingCredit, Refund,
	RequestLogEntry, TokenRefusal, Transfer, Wallet, WebhookSettings,
} from './records';

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
	/** Test control (`PUT /_sandbox/access-tokens/{clientId}/refusal`): tokens of the client refused on use, every one or the next one issued. */
	tokenRefusal = new Map<string, TokenRefusal>();
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
			this.tokenCallTimes, this.tokenRefusal, this.stats,
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
