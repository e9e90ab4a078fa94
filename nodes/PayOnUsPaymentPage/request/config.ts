import type { PayOnUsClient } from '../../shared/clientInterface';
import type { AskMode, PageConfig } from '../checkout/types';
import { listWallets } from '../../shared/api';
import { PAGE_METHODS, type PageMethod } from '../methods';
import { BoundedMap } from '../../shared/boundedMap';
import { clock } from '../clock';

/**
 * What the page can offer, per business and currency, read from PayOnUs and
 * kept a few minutes in this process (the page's GET must stay cheap): each
 * chosen method its `offer` says this page can take (../methods/: bank
 * transfer NGN, card with a valid Card Encryption Public Key, mobile money
 * where the service lists networks, EFT ZAR with banks), and, when the
 * credential has a Default Merchant ID, only if the business has a wallet
 * in the currency (a payin in a currency without a wallet is refused by the
 * service).
 */

const TTL_MS = 5 * 60 * 1000;
const cache = new BoundedMap<string, { at: number; value: Promise<unknown> }>(500);

/**
 * One load per key and TTL_MS, shared by the requests that ask while it
 * runs (a burst of first visits makes one call, not one each); a load that
 * fails is forgotten, so the next request tries again.
 */
async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
	const now = clock.now();
	const hit = cache.get(key);
	if (hit && now - hit.at < TTL_MS) return (await hit.value) as T;
	const value = load();
	cache.delete(key);
	cache.set(key, { at: now, value });
	value.catch(() => {
		if (cache.get(key)?.value === value) cache.delete(key);
	});
	return await value;
}

/** Test hook. */
export function clearAvailabilityCache(): void {
	cache.clear();
}

export interface RawPageParameters {
	title: string;
	description: string;
	businessId: string;
	currency: string;
	amountMode: string;
	amount: number;
	minAmount: number;
	maxAmount: number;
	methods: string[];
	askName: string;
	askPhone: string;
	onSuccess: string;
	successMessage: string;
	redirectUrl: string;
	expiryMinutes: number;
	narration: string;
	/** Each method's own parameters (its `properties`: cardPublicKey), '' when it is not chosen. */
	[methodParameter: string]: unknown;
}

export class PageSetupError extends Error {}

function ask(v: string): AskMode {
	return v === 'required' || v === 'optional' ? v : 'no';
}

function twoDecimals(n: number): boolean {
	return Number.isFinite(n) && Math.round(n * 100) === n * 100;
}

/** Checks the builder's settings; throws PageSetupError with what to fix. */
export function checkParameters(p: RawPageParameters): void {
	if (!p.title.trim()) throw new PageSetupError('Title is empty');
	if (!p.businessId)
		throw new PageSetupError("No business: set Business or the credential's Default Business ID");
	if (!/^[A-Z]{3}$/.test(p.currency)) throw new PageSetupError('Currency must be a 3-letter code');
	if (p.amountMode === 'fixed') {
		if (!(p.amount > 0) || !twoDecimals(p.amount))
			throw new PageSetupError('Amount must be greater than 0 with at most 2 decimals');
	} else {
		if (
			!(p.minAmount > 0) ||
			!(p.maxAmount >= p.minAmount) ||
			!twoDecimals(p.minAmount) ||
			!twoDecimals(p.maxAmount)
		) {
			throw new PageSetupError(
				'Minimum and Maximum Amount must be greater than 0, minimum <= maximum, at most 2 decimals',
			);
		}
	}
	if (p.methods.length === 0) throw new PageSetupError('Choose at least one payment method');
	if (p.onSuccess === 'redirect') {
		let ok = false;
		try {
			const u = new URL(p.redirectUrl);
			ok = u.protocol === 'https:' || u.protocol === 'http:';
		} catch {
			ok = false;
		}
		if (!ok) throw new PageSetupError('Redirect URL must be a web address (https://...)');
	}
	if (!(p.expiryMinutes > 0) || p.expiryMinutes > 1440)
		throw new PageSetupError('Checkout Expiry must be between 0 and 1440 minutes');
}

type GetClient = () => Promise<PayOnUsClient>;

/**
 * The page configuration with the methods this business and currency can
 * take right now. `scope` keys the process cache (credential + business).
 */
export async function buildConfig(
	/** Created only on a cache miss (over the request's one read of the credential). */
	getClient: GetClient,
	merchantId: string | undefined,
	p: RawPageParameters,
	scope: string,
): Promise<PageConfig> {
	checkParameters(p);
	const chosen = chosenMethods(p);
	if (merchantId) await requireWallet(getClient, merchantId, p, `${scope}|${p.businessId}|${p.currency}`);
	const offer = await offerMethods(getClient, chosen, p, scope);
	if (offer.methods.length === 0) {
		// the shortest needs first (a currency), the long ones (card's key) last
		const needs = [...PAGE_METHODS]
			.sort((a, b) => a.needs.needs.length - b.needs.needs.length)
			.map((m) => `${m.needs.what} needs ${m.needs.needs}`)
			.join(', ');
		throw new PageSetupError(
			`None of the chosen methods (${chosen.map((m) => m.id).join(', ')}) can take ${p.currency} for this business: ${needs}`,
		);
	}
	return { ...pageConfig(p), ...offer };
}

/** With a Default Merchant ID: the business must have an active wallet in the currency. */
async function requireWallet(getClient: GetClient, merchantId: string, p: RawPageParameters, key: string): Promise<void> {
	const currency = p.currency;
	const hasWallet = await cached(`wallet|${key}|${merchantId}`, async () => {
		const wallets = await listWallets(await getClient(), merchantId);
		return wallets.some(
			(w) => w.currency === currency && (w.entityId === undefined || w.entityId === p.businessId) && w.active !== false,
		);
	});
	if (!hasWallet)
		throw new PageSetupError(`Business ${p.businessId} has no ${currency} wallet: enable it on the PayOnUs dashboard`);
}

/** The methods the builder chose, in the order of the list (../methods/index.ts). */
export function chosenMethods(p: Pick<RawPageParameters, 'methods'>): PageMethod[] {
	return PAGE_METHODS.filter((m) => p.methods.includes(m.id));
}

/** Of the chosen methods, those this currency can take, with what each adds to the page's configuration. */
async function offerMethods(
	getClient: GetClient,
	chosen: PageMethod[],
	p: RawPageParameters,
	scope: string,
): Promise<Partial<PageConfig> & { methods: string[] }> {
	let offer: Partial<PageConfig> & { methods: string[] } = { methods: [] };
	for (const m of chosen) {
		const added = await m.offer({ currency: p.currency, parameters: p, cached, getClient, scope });
		if (added) offer = { ...offer, ...added, methods: [...offer.methods, m.id] };
	}
	return offer;
}

/** The page's configuration but for its methods (the offer adds them). */
function pageConfig(p: RawPageParameters): PageConfig {
	return {
		title: p.title.trim(),
		description: p.description.trim(),
		businessId: p.businessId,
		currency: p.currency,
		amountMode: p.amountMode === 'customer' ? 'customer' : 'fixed',
		amount: p.amount,
		minAmount: p.minAmount,
		maxAmount: p.maxAmount,
		methods: [],
		askName: ask(p.askName),
		askPhone: ask(p.askPhone),
		onSuccess: p.onSuccess === 'redirect' ? 'redirect' : 'message',
		successMessage: p.successMessage,
		redirectUrl: p.redirectUrl,
		expiryMinutes: p.expiryMinutes,
		narration: p.narration.trim().slice(0, 255),
	};
}
