import { createPublicKey } from 'crypto';
import type { PayOnUsClient } from '../../shared/clientInterface';
import type { AskMode, PageConfig } from '../checkout/types';
import { listEftBanks, listMobileMoneyNetworks, listWallets } from '../../shared/api';
import { METHODS, type Method } from '../checkout/sealedState';
import { BoundedMap } from '../../shared/boundedMap';
import { clock } from '../clock';

/**
 * What the page can offer, per business and currency, read from PayOnUs and
 * kept a few minutes in this process (the page's GET must stay cheap):
 *  - bank transfer: NGN (dynamic accounts are NGN only);
 *  - card: when the node's Card Encryption Public Key is a valid RSA key
 *    (2048 bits or more): the key of the credential's environment, the way
 *    a deployment supplies it (docs/payment-page.md says where to find it);
 *  - mobile money: when the service lists networks for the currency;
 *  - EFT: ZAR, when the service lists EFT banks;
 * and, when the credential has a Default Merchant ID, only if the business
 * has a wallet in the currency (a payin in a currency without a wallet is
 * refused by the service).
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
	cardPublicKey: string;
	narration: string;
}

export class PageSetupError extends Error {}

/** What card payments need, in the words of the setup error (the node's setting, by its label). */
export const CARD_KEY_NEEDED =
	"the Card Encryption Public Key set to the environment's RSA public key (PEM, 2048 bits or more, from your PayOnUs dashboard)";

function ask(v: string): AskMode {
	return v === 'required' || v === 'optional' ? v : 'no';
}

function twoDecimals(n: number): boolean {
	return Number.isFinite(n) && Math.round(n * 100) === n * 100;
}

/** A PEM RSA public key of at least 2048 bits, normalised; '' when unusable. */
export function usablePublicKey(pem: string): string {
	const text = String(pem ?? '').trim();
	if (!/^-----BEGIN PUBLIC KEY-----[A-Za-z0-9+/=\s]+-----END PUBLIC KEY-----$/.test(text))
		return '';
	try {
		const key = createPublicKey(text);
		const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
		return key.asymmetricKeyType === 'rsa' && bits >= 2048 && bits <= 4096 ? text : '';
	} catch {
		return '';
	}
}

/** Modulus length of an RSA public key in bytes (= its ciphertext length). */
export function modulusBytes(pem: string): number {
	return Math.ceil((createPublicKey(pem).asymmetricKeyDetails?.modulusLength ?? 0) / 8);
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

interface Network {
	code: string;
	name: string;
	currency?: string;
	otpRequired?: boolean;
	initiatingCodeRequired?: boolean;
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
	const chosen = METHODS.filter((m) => p.methods.includes(m));
	if (merchantId) await requireWallet(getClient, merchantId, p, `${scope}|${p.businessId}|${p.currency}`);
	const offer = await offerMethods(getClient, chosen, p, scope);
	if (offer.methods.length === 0) {
		throw new PageSetupError(
			`None of the chosen methods (${chosen.join(', ')}) can take ${p.currency} for this business: bank transfer needs NGN, EFT needs ZAR, mobile money needs a currency with networks, card needs ${CARD_KEY_NEEDED}`,
		);
	}
	return pageConfig(p, offer);
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

interface Offer {
	methods: Method[];
	cardPublicKey: string;
	networks: PageConfig['networks'];
	eftBanks: PageConfig['eftBanks'];
}

/** Of the chosen methods, those this currency can take (in the order of METHODS). */
async function offerMethods(
	getClient: GetClient,
	chosen: Method[],
	p: RawPageParameters,
	scope: string,
): Promise<Offer> {
	const offer: Offer = { methods: [], cardPublicKey: '', networks: [], eftBanks: [] };
	for (const m of chosen) {
		if (m === 'bank' && p.currency === 'NGN') offer.methods.push(m);
		if (m === 'card') {
			offer.cardPublicKey = usablePublicKey(p.cardPublicKey);
			if (offer.cardPublicKey) offer.methods.push(m);
		}
		if (m === 'momo') {
			offer.networks = await networksOf(getClient, p.currency, scope);
			if (offer.networks.length > 0) offer.methods.push(m);
		}
		if (m === 'eft' && p.currency === 'ZAR') {
			offer.eftBanks = await eftBanksOf(getClient, scope);
			if (offer.eftBanks.length > 0) offer.methods.push(m);
		}
	}
	return offer;
}

/** The currency's mobile money networks (not those needing a pre-OTP initiating code: the page cannot serve them). */
async function networksOf(getClient: GetClient, currency: string, scope: string): Promise<PageConfig['networks']> {
	return await cached(`momo|${currency}|${scope}`, async () =>
		((await listMobileMoneyNetworks(await getClient(), { currency })) as unknown as Network[])
			.filter((n) => typeof n.code === 'string' && (n.currency === undefined || n.currency === currency))
			.filter((n) => !n.initiatingCodeRequired)
			.map((n) => ({ code: n.code, name: String(n.name ?? n.code), otpRequired: n.otpRequired === true })),
	);
}

async function eftBanksOf(getClient: GetClient, scope: string): Promise<PageConfig['eftBanks']> {
	return await cached(`eft|${scope}`, async () =>
		(await listEftBanks(await getClient()))
			.filter((b) => typeof b.code === 'string')
			.map((b) => ({ code: String(b.code), name: String(b.name ?? b.code) })),
	);
}

function pageConfig(p: RawPageParameters, offer: Offer): PageConfig {
	return {
		title: p.title.trim(),
		description: p.description.trim(),
		businessId: p.businessId,
		currency: p.currency,
		amountMode: p.amountMode === 'customer' ? 'customer' : 'fixed',
		amount: p.amount,
		minAmount: p.minAmount,
		maxAmount: p.maxAmount,
		methods: offer.methods,
		askName: ask(p.askName),
		askPhone: ask(p.askPhone),
		onSuccess: p.onSuccess === 'redirect' ? 'redirect' : 'message',
		successMessage: p.successMessage,
		redirectUrl: p.redirectUrl,
		expiryMinutes: p.expiryMinutes,
		cardPublicKey: offer.cardPublicKey,
		cardCipherBytes: offer.cardPublicKey ? modulusBytes(offer.cardPublicKey) : 0,
		narration: p.narration.trim().slice(0, 255),
		networks: offer.networks,
		eftBanks: offer.eftBanks,
	};
}
