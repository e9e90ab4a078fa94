/**
 * The payout rules shared by single and bulk transfers (and refunds' funds
 * check): outcome by test account, fees, where the money goes, funds check.
 */
import { BANKS, EFT_BANKS, MOMO_NETWORKS } from '../../catalog';
import { ApiError } from '../../errors';
import { round2 } from '../../money';
import type { Transfer, Wallet } from '../../records';
import { fail } from '../../validate';

/** Beneficiary accounts whose last four digits pick the outcome (NGN: the public sandbox table). */
export const OUTCOME_BY_SUFFIX: Record<string, string> = {
	'1111': 'HOLD',
	'1112': 'SUCCESSFUL',
	'1113': 'UNKNOWN_ERROR',
	'1114': 'INVALID_ACCOUNT',
	'1117': 'INSUFFICIENT_FUNDS',
	'1118': 'ACCOUNT_NAME_MISMATCH',
	'1119': 'TRANSACTION_NOT_PERMITTED_TO_SENDER',
	'1120': 'INVALID_AMOUNT',
	'1121': 'INVALID_BANK_CODE',
};

export const TRANSFER_TYPES = ['WALLET_TO_BANK_ACCOUNT', 'WALLET_TO_MOMO', 'WALLET_TO_EFT', 'WALLET_TO_WALLET'] as const;

export function payoutFee(transferType: string, currencyCode: string, value: number): number {
	if (transferType === 'WALLET_TO_MOMO') return round2(Math.max(1, value * 0.01));
	if (transferType === 'WALLET_TO_EFT') return 5;
	if (currencyCode === 'NGN') return value <= 5000 ? 10.75 : value <= 50000 ? 26.88 : 53.75;
	return round2(Math.min(1000, Math.max(1, value * 0.01)));
}

export function plannedOutcome(accountNumber: string): string {
	const digits = accountNumber.replace(/\D/g, '');
	return OUTCOME_BY_SUFFIX[digits.slice(-4)] ?? 'SUCCESSFUL';
}

export interface Resolved {
	bankCode: string | null;
	bankName: string | null;
	momoNetwork: string | null;
	channel: Transfer['paymentChannel'];
}

/** The fields of a transfer request (or a bulk row) that name where the money goes. */
export interface DestinationInput {
	transferType: string;
	currency: string;
	beneficiaryAccountNumber: string;
	beneficiaryBankCode?: string | null;
	momoNetwork?: string | null;
	eftBank?: string | null;
}

/** Checks the type-specific fields; `field` prefixes error names (bulk rows). */
export function resolveDestination(input: DestinationInput, prefix = ''): Resolved {
	const f = (name: string) => `${prefix}${name}`;
	switch (input.transferType) {
		case 'WALLET_TO_BANK_ACCOUNT': {
			if (!input.beneficiaryBankCode) fail(f('beneficiaryBankCode'), 'is required for WALLET_TO_BANK_ACCOUNT');
			const bank = (BANKS[input.currency] ?? []).find((b) => b.code === input.beneficiaryBankCode);
			if (!bank) fail(f('beneficiaryBankCode'), `is not a ${input.currency} bank code (see GET /api/v1/banks?key=${input.currency})`);
			if (input.currency === 'NGN' && !/^\d{10}$/.test(input.beneficiaryAccountNumber)) fail(f('beneficiaryAccountNumber'), 'must be a 10-digit NUBAN');
			return { bankCode: bank.code, bankName: bank.name, momoNetwork: null, channel: 'BANK_TRANSFER' };
		}
		case 'WALLET_TO_MOMO': {
			if (!input.momoNetwork) fail(f('momoNetwork'), 'is required for WALLET_TO_MOMO');
			const network = MOMO_NETWORKS.find((n) => n.code === input.momoNetwork);
			if (!network) fail(f('momoNetwork'), `must be one of ${MOMO_NETWORKS.map((n) => n.code).join(', ')}`);
			if (network.currency !== input.currency) fail(f('momoNetwork'), `${network.code} pays out in ${network.currency}, not ${input.currency}`);
			if (!/^\+?\d{9,15}$/.test(input.beneficiaryAccountNumber)) fail(f('beneficiaryAccountNumber'), 'must be a mobile number (9 to 15 digits)');
			return { bankCode: null, bankName: network.name, momoNetwork: network.code, channel: 'MOBILE_MONEY' };
		}
		case 'WALLET_TO_EFT': {
			if (!input.eftBank) fail(f('eftBank'), 'is required for WALLET_TO_EFT');
			const bank = EFT_BANKS.find((b) => b.code === input.eftBank);
			if (!bank) fail(f('eftBank'), 'must be a bank code from GET /api/v1/eft-payment/banks');
			if (input.currency !== 'ZAR') fail(f('currency'), 'must be ZAR for WALLET_TO_EFT');
			return { bankCode: bank.code, bankName: bank.name, momoNetwork: null, channel: 'EFT' };
		}
		default:
			return fail(f('transferType'), 'WALLET_TO_WALLET is not simulated by the sandbox');
	}
}

export function checkFunds(wallet: Wallet, total: number, field = 'amount'): void {
	if (!wallet.payoutAllowed || !wallet.active) throw new ApiError(403, `Payouts are not allowed from wallet ${wallet.id}`, ['currency: payouts disabled']);
	if (wallet.availableBalance < total) {
		throw new ApiError(400, `Insufficient wallet balance: ${wallet.currency} ${wallet.availableBalance} available, ${total} needed (amount plus fee)`, [
			`${field}: insufficient balance in the ${wallet.currency} wallet (available ${wallet.availableBalance}, needed ${total})`,
		]);
	}
}
