/**
 * What a sandbox starts from: the seed (merchants, businesses, wallets, API
 * clients) and the behaviour knobs (delays, settlement, fees, limits).
 */
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
