/**
 * Payouts: bank lists, name enquiry, single and bulk transfers (PENDING, then
 * SUCCESSFUL or FAILED after a short delay, or held until settled by the
 * control API), the transfer search, and refunds of bank transfer payins.
 */
import { z } from 'zod';
import { parseMultipart, parseCsv } from '../multipart';
import { pageFromOne } from '../paging';
import type { Profiles } from '../profiles';
import { duplicateReplay } from './replay';
import { ok, type Ctx, type Router } from '../router';
import { ApiError, round2, type Business, type Refund, type Transfer, type Wallet } from '../store';
import type { Sandbox } from '../runtime';
import { EFT_BANKS, MOMO_NETWORKS, ownedPayin } from './payins';
import {
	amount, bool, countryCode, currency, email, fail, optStr, parse, qDate, qEnum, qRequired, reference, str,
} from '../validate';

export const BANKS: Record<string, Array<{ code: string; name: string }>> = {
	NGN: [
		{ code: '044', name: 'Access Bank' },
		{ code: '050', name: 'Ecobank Nigeria' },
		{ code: '070', name: 'Fidelity Bank' },
		{ code: '011', name: 'First Bank of Nigeria' },
		{ code: '214', name: 'First City Monument Bank' },
		{ code: '058', name: 'Guaranty Trust Bank' },
		{ code: '076', name: 'Polaris Bank' },
		{ code: '221', name: 'Stanbic IBTC Bank' },
		{ code: '232', name: 'Sterling Bank' },
		{ code: '032', name: 'Union Bank of Nigeria' },
		{ code: '033', name: 'United Bank for Africa' },
		{ code: '035', name: 'Wema Bank' },
		{ code: '057', name: 'Zenith Bank' },
		{ code: '090999', name: 'PayOnUs Sandbox MFB' },
	],
	ZAR: EFT_BANKS,
	KES: [
		{ code: '01', name: 'Kenya Commercial Bank' },
		{ code: '03', name: 'Absa Bank Kenya' },
		{ code: '11', name: 'Co-operative Bank of Kenya' },
		{ code: '68', name: 'Equity Bank Kenya' },
	],
	GHS: [
		{ code: '040100', name: 'GCB Bank' },
		{ code: '130100', name: 'Ecobank Ghana' },
		{ code: '280100', name: 'Access Bank Ghana' },
	],
	USD: [
		{ code: 'USD-044', name: 'Access Bank (USD domiciliary)' },
		{ code: 'USD-058', name: 'Guaranty Trust Bank (USD domiciliary)' },
	],
};

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

/** Fields of the spec's transfer record table (profile `bare-records` answers only these). */
const SPEC_TRANSFER_FIELDS = new Set([
	'onusReference', 'merchantReference', 'amount', 'fee', 'currency', 'beneficiaryAccountNumber', 'beneficiaryAccountName',
	'bankCode', 'bankName', 'paymentStatus', 'paymentChannel', 'transferType', 'narration', 'createdDate', 'lastUpdatedDate',
]);

export function transferView(t: Transfer, profiles?: Profiles): Record<string, unknown> {
	const bare = profiles?.has('bare-records') === true;
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(t)) if (k[0] !== '_' && (!bare || SPEC_TRANSFER_FIELDS.has(k))) out[k] = v;
	return out;
}

function accountNameFor(accountNumber: string): string {
	const outcome = plannedOutcome(accountNumber);
	if (outcome === 'SUCCESSFUL' && accountNumber.replace(/\D/g, '').endsWith('1112')) return 'Sandbox Success Beneficiary';
	if (outcome === 'HOLD') return 'Sandbox Pending Beneficiary';
	if (outcome !== 'SUCCESSFUL') return `Sandbox ${outcome.replace(/_/g, ' ').toLowerCase()} beneficiary`;
	return `Sandbox Beneficiary ${accountNumber.slice(-4)}`;
}

// ---------- transfers ----------

const transferSchema = z.object({
	amount: amount(),
	beneficiaryAccountNumber: str(),
	beneficiaryAccountName: str(),
	beneficiaryBankCode: optStr(),
	momoNetwork: optStr(),
	eftBank: optStr(),
	transferType: z.enum(TRANSFER_TYPES, {
		errorMap: () => ({ message: 'must be WALLET_TO_BANK_ACCOUNT, WALLET_TO_MOMO or WALLET_TO_EFT' }),
	}),
	countryCode: countryCode(),
	currency: currency(),
	reference: reference(),
	narration: optStr(),
	businessId: str(),
	email: email().optional().nullable(),
	fromSubWallet: bool().optional(),
	walletId: optStr(),
	notificationUrl: optStr(),
});

type TransferInput = z.infer<typeof transferSchema>;

interface Resolved {
	bankCode: string | null;
	bankName: string | null;
	momoNetwork: string | null;
	channel: Transfer['paymentChannel'];
}

/** Checks the type-specific fields; `field` prefixes error names (bulk rows). */
function resolveDestination(input: Pick<TransferInput, 'transferType' | 'currency' | 'beneficiaryAccountNumber' | 'beneficiaryBankCode' | 'momoNetwork' | 'eftBank'>, prefix = ''): Resolved {
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

function createTransfer(
	sb: Sandbox,
	business: Business,
	wallet: Wallet,
	input: Omit<TransferInput, 'businessId'>,
	dest: Resolved,
	fee: number,
	bulkReference: string | null,
): Transfer {
	const state = sb.state;
	const onusReference = state.onusReference('TRNF');
	const seq = state.nextSeq();
	const now = state.now();
	const t: Transfer = {
		id: `TR-${String(seq).padStart(8, '0')}`,
		onusReference,
		merchantReference: input.reference,
		amount: input.amount,
		fee,
		currency: input.currency,
		beneficiaryAccountNumber: input.beneficiaryAccountNumber,
		beneficiaryAccountName: input.beneficiaryAccountName,
		bankCode: dest.bankCode,
		bankName: dest.bankName,
		momoNetwork: dest.momoNetwork,
		paymentStatus: 'PENDING',
		paymentChannel: dest.channel,
		transferType: input.transferType,
		narration: input.narration ?? '',
		countryCode: input.countryCode,
		email: input.email ?? null,
		responseMessage: null,
		bulkReference,
		businessId: business.id,
		businessName: business.name,
		merchantId: business.merchantId,
		merchantName: state.merchantName(business.merchantId),
		createdDate: now,
		lastUpdatedDate: now,
		_seq: seq,
		_createdMs: state.clock.nowMs(),
		_plannedOutcome: plannedOutcome(input.beneficiaryAccountNumber),
		_walletId: wallet.id,
	};
	state.claimReference(business.id, input.reference, 'transfer', onusReference);
	state.transfers.set(onusReference, t);
	state.post(wallet, 'PAYOUT_DEBIT', -input.amount, onusReference);
	if (fee > 0) state.post(wallet, 'PAYOUT_FEE', -fee, onusReference);
	const notificationUrl = input.notificationUrl ?? null;
	if (t._plannedOutcome !== 'HOLD') {
		sb.later(state.config.transferDelayMs, () => {
			if (t.paymentStatus === 'PENDING') finishTransfer(sb, t, t._plannedOutcome, notificationUrl);
		});
	}
	return t;
}

/** Final status of a PENDING transfer; a failure reverses amount and fee. Sends PAYOUT. */
export function finishTransfer(sb: Sandbox, t: Transfer, outcome: string, notificationUrl: string | null = null): void {
	const state = sb.state;
	if (t.paymentStatus !== 'PENDING') {
		throw new ApiError(409, `Transfer ${t.onusReference} is already ${t.paymentStatus}`, [`onusReference: transfer is already ${t.paymentStatus}`]);
	}
	const success = outcome === 'SUCCESSFUL';
	t.paymentStatus = success ? 'SUCCESSFUL' : 'FAILED';
	t.responseMessage = success ? 'Transfer successful' : outcome === 'FAILED' ? 'UNKNOWN_ERROR' : outcome;
	t.lastUpdatedDate = state.now();
	if (!success) {
		const wallet = state.walletsById.get(t._walletId)!;
		state.post(wallet, 'PAYOUT_REVERSAL', round2(t.amount + t.fee), t.onusReference);
	}
	const body = {
		id: t.id,
		type: 'PAYOUT',
		currency: t.currency,
		businessId: t.businessId,
		accountNumber: t.beneficiaryAccountNumber,
		onusReference: t.onusReference,
		paymentStatus: t.paymentStatus,
		paymentChannel: t.paymentChannel,
		transferType: t.transferType,
		transactionAmount: t.amount,
		merchantReference: t.merchantReference,
		merchantFee: t.fee,
		beneficiaryAccountName: t.beneficiaryAccountName,
		bankCode: t.bankCode,
		bankName: t.bankName,
		responseMessage: t.responseMessage,
		narration: t.narration,
		createdDate: t.createdDate,
	};
	sb.webhooks.emit('PAYOUT', body, [t.beneficiaryAccountNumber, t.onusReference, t.paymentStatus], notificationUrl);
}

function checkFunds(wallet: Wallet, total: number, field = 'amount'): void {
	if (!wallet.payoutAllowed || !wallet.active) throw new ApiError(403, `Payouts are not allowed from wallet ${wallet.id}`, ['currency: payouts disabled']);
	if (wallet.availableBalance < total) {
		throw new ApiError(400, `Insufficient wallet balance: ${wallet.currency} ${wallet.availableBalance} available, ${total} needed (amount plus fee)`, [
			`${field}: insufficient balance in the ${wallet.currency} wallet (available ${wallet.availableBalance}, needed ${total})`,
		]);
	}
}

function initiateTransfer(ctx: Ctx) {
	const { sb } = ctx;
	const state = sb.state;
	const input = parse(transferSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const dest = resolveDestination(input);
	const replay = duplicateReplay(ctx, business.id, input.reference);
	if (replay) return replay;
	state.checkReferenceFree(business.id, input.reference);
	if (input.fromSubWallet) {
		throw new ApiError(404, `Wallet ${input.walletId ?? ''} not found (sub-wallets are not simulated)`, ['walletId: sub-wallet not found']);
	}
	const wallet = state.requireWallet(business.id, input.currency);
	if (input.amount > wallet.maxSinglePayout) fail('amount', `exceeds maxSinglePayout ${wallet.maxSinglePayout} of the ${wallet.currency} wallet`);
	const fee = payoutFee(input.transferType, input.currency, input.amount);
	checkFunds(wallet, round2(input.amount + fee));
	const t = createTransfer(sb, business, wallet, input, dest, fee, null);
	return ok({
		paymentStatus: t.paymentStatus,
		currency: t.currency,
		amount: t.amount,
		fee: t.fee,
		onusReference: t.onusReference,
		merchantReference: t.merchantReference,
	});
}

const nameEnquirySchema = z.object({ institutionCode: str(), accountNumber: str(), businessId: str(), currency: currency() });

function nameEnquiry(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(nameEnquirySchema, ctx.body);
	state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const bank = (BANKS[input.currency] ?? []).find((b) => b.code === input.institutionCode);
	if (!bank) fail('institutionCode', `is not a ${input.currency} bank code (see GET /api/v1/banks?key=${input.currency})`);
	if (input.currency === 'NGN' && !/^\d{10}$/.test(input.accountNumber)) fail('accountNumber', 'must be a 10-digit NUBAN');
	if (/^0+$/.test(input.accountNumber)) {
		throw new ApiError(404, `Account ${input.accountNumber} not found at ${bank.name}`, ['accountNumber: account not found']);
	}
	return ok({ accountNumber: input.accountNumber, accountName: accountNameFor(input.accountNumber), bankCode: bank.code, bankName: bank.name });
}

function searchTransfers(ctx: Ctx) {
	const { state } = ctx.sb;
	const q = ctx.query;
	const merchantId = qRequired(q, 'merchantId');
	if (!state.merchants.has(merchantId)) throw new ApiError(404, `Merchant ${merchantId} not found`, [`merchantId: ${merchantId} not found`]);
	if (merchantId !== ctx.auth!.merchantId) throw new ApiError(403, 'Insufficient authority for this merchant', [`merchantId: not your merchant`]);
	const onus = q.get('onusReference') || undefined;
	// Profile ignores-undocumented-filters: only merchantId and onusReference are documented.
	const honour = !ctx.sb.profiles.has('ignores-undocumented-filters');
	const ref = honour ? q.get('merchantReference') || q.get('reference') || undefined : undefined;
	const businessId = honour ? q.get('businessId') || undefined : undefined;
	if (businessId) state.ownedBusiness(businessId, merchantId);
	const status = honour ? qEnum(q, 'status', ['PENDING', 'SUCCESSFUL', 'FAILED']) ?? qEnum(q, 'paymentStatus', ['PENDING', 'SUCCESSFUL', 'FAILED']) : undefined;
	const transferType = honour ? qEnum(q, 'transferType', [...TRANSFER_TYPES]) : undefined;
	const bulkReference = honour ? q.get('bulkReference') || undefined : undefined;
	const from = honour ? qDate(q, 'fromDate') : undefined;
	const to = honour ? qDate(q, 'toDate') : undefined;
	if (from !== undefined && to !== undefined && from > to) fail('fromDate', 'must not be after toDate');
	let candidates: Transfer[];
	if (onus) {
		const t = state.transfers.get(onus);
		candidates = t ? [t] : [];
	} else if (ref && businessId) {
		const hit = state.references.get(state.refKey(businessId, ref));
		const t = hit?.kind === 'transfer' ? state.transfers.get(hit.onusReference) : undefined;
		candidates = t ? [t] : [];
	} else {
		candidates = [...state.transfers.values()].reverse();
	}
	const toEnd = to === undefined ? undefined : to + 86_400_000;
	const items = candidates.filter(
		(t) =>
			t.merchantId === merchantId &&
			(!ref || t.merchantReference === ref) &&
			(!businessId || t.businessId === businessId) &&
			(!status || t.paymentStatus === status) &&
			(!transferType || t.transferType === transferType) &&
			(!bulkReference || t.bulkReference === bulkReference) &&
			(from === undefined || t._createdMs >= from) &&
			(toEnd === undefined || t._createdMs < toEnd),
	);
	return ok(pageFromOne(items, q, (t) => transferView(t, ctx.sb.profiles), ctx.sb.profiles));
}

// ---------- bulk ----------

const BULK_COLUMNS = ['beneficiaryAccountNumber', 'beneficiaryAccountName', 'beneficiaryBankCode', 'amount', 'narration'];

function bulkTransfer(ctx: Ctx) {
	const { sb } = ctx;
	const state = sb.state;
	const parts = parseMultipart(ctx.rawBody, ctx.contentType);
	const field = (name: string) => parts.get(name)?.data.toString('utf8').trim() || undefined;
	const batchRef = field('reference');
	const businessId = field('businessId');
	const cur = field('currency') ?? 'NGN';
	const file = parts.get('file');
	const missing = [
		!batchRef && 'reference: is required',
		!businessId && 'businessId: is required',
		!file && 'file: a CSV part named "file" is required',
	].filter(Boolean) as string[];
	if (missing.length) throw new ApiError(400, `Invalid request: ${missing.join('; ')}`, missing);
	if (batchRef!.length > 100) fail('reference', 'must be at most 100 characters');
	const business = state.ownedBusiness(businessId!, ctx.auth!.merchantId);
	const country = field('countryCode') ?? { NGN: 'NG', KES: 'KE', ZAR: 'ZA', GHS: 'GH', USD: 'NG' }[cur] ?? 'NG';
	const rows = parseCsv(file!.data.toString('utf8'));
	if (rows.length < 2) fail('file', 'must have a header row and at least one beneficiary row');
	const header = rows[0].map((h) => h.trim());
	const missingCols = BULK_COLUMNS.filter((c) => c !== 'narration' && !header.includes(c));
	if (missingCols.length) fail('file', `header is missing column(s) ${missingCols.join(', ')} (expected ${BULK_COLUMNS.join(',')})`);
	if (rows.length - 1 > 1000) fail('file', 'must have at most 1000 rows');
	const errors: string[] = [];
	const inputs: Array<{ input: Omit<TransferInput, 'businessId'>; dest: Resolved; fee: number }> = [];
	for (let i = 1; i < rows.length; i++) {
		const cell = (name: string) => (rows[i][header.indexOf(name)] ?? '').trim();
		const prefix = `file row ${i} `;
		const amt = Number(cell('amount'));
		const rowInput = {
			amount: amt,
			beneficiaryAccountNumber: cell('beneficiaryAccountNumber'),
			beneficiaryAccountName: cell('beneficiaryAccountName'),
			beneficiaryBankCode: cell('beneficiaryBankCode'),
			transferType: 'WALLET_TO_BANK_ACCOUNT' as const,
			countryCode: country,
			currency: cur,
			// Profile bulk-rows-named-otherwise: row references not derived from the batch reference.
			reference: ctx.sb.profiles.has('bulk-rows-named-otherwise') ? `BULKROW-${state.nextSeq()}-${i}` : `${batchRef}-${i}`,
			narration: cell('narration') || undefined,
		};
		try {
			if (cell('amount') === '' || !Number.isFinite(amt) || amt <= 0) fail(`${prefix}amount`, 'must be a number greater than 0');
			if (!rowInput.beneficiaryAccountNumber) fail(`${prefix}beneficiaryAccountNumber`, 'is required');
			if (!rowInput.beneficiaryAccountName) fail(`${prefix}beneficiaryAccountName`, 'is required');
			const dest = resolveDestination(rowInput, prefix);
			inputs.push({ input: rowInput, dest, fee: payoutFee(rowInput.transferType, cur, amt) });
		} catch (error) {
			if (error instanceof ApiError) errors.push(...error.errors);
			else throw error;
		}
	}
	if (errors.length) throw new ApiError(400, `Invalid request: ${errors.join('; ')}`, errors);
	const replay = duplicateReplay(ctx, business.id, batchRef!);
	if (replay) return replay;
	state.checkReferenceFree(business.id, batchRef!);
	for (const r of inputs) state.checkReferenceFree(business.id, r.input.reference);
	const wallet = state.requireWallet(business.id, cur);
	for (const r of inputs) {
		if (r.input.amount > wallet.maxSinglePayout) fail(`file row ${inputs.indexOf(r) + 1} amount`, `exceeds maxSinglePayout ${wallet.maxSinglePayout}`);
	}
	const totalAmount = round2(inputs.reduce((s, r) => s + r.input.amount, 0));
	const totalFee = round2(inputs.reduce((s, r) => s + r.fee, 0));
	checkFunds(wallet, round2(totalAmount + totalFee), 'file');
	state.claimReference(business.id, batchRef!, 'bulk', batchRef!);
	const transfers = inputs.map((r) => createTransfer(sb, business, wallet, r.input, r.dest, r.fee, batchRef!));
	return ok({
		reference: batchRef,
		businessId: business.id,
		currency: cur,
		status: 'PENDING',
		totalCount: transfers.length,
		totalAmount,
		totalFee,
		transfers: transfers.map((t) => transferView(t, ctx.sb.profiles)),
	});
}

// ---------- refunds ----------

const refundSchema = z.object({
	businessId: str(),
	onusReference: str(),
	amount: amount().optional(),
	reason: optStr(),
	reference: reference().optional(),
	notificationUrl: optStr(),
});

export function refundView(r: Refund): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(r)) if (k[0] !== '_') out[k] = v;
	return out;
}

export function finishRefund(sb: Sandbox, r: Refund, outcome: string, notificationUrl: string | null = null): void {
	const state = sb.state;
	if (r.status !== 'PENDING') {
		throw new ApiError(409, `Refund ${r.onusReference} is already ${r.status}`, [`onusReference: refund is already ${r.status}`]);
	}
	const success = outcome === 'SUCCESSFUL';
	r.status = success ? 'SUCCESSFUL' : 'FAILED';
	r.responseMessage = success ? 'Refund successful' : outcome === 'FAILED' ? 'REFUND_FAILED' : outcome;
	r.lastUpdatedDate = state.now();
	const payin = state.payins.get(r.paymentOnusReference)!;
	if (!success) {
		state.post(state.walletsById.get(r._walletId)!, 'REFUND_REVERSAL', r.amount, r.onusReference);
		payin._refundedAmount = round2((payin._refundedAmount ?? 0) - r.amount);
	}
	const body = {
		id: r.id,
		type: 'REFUND',
		currency: r.currency,
		businessId: r.businessId,
		accountNumber: payin.accountNumber,
		onusReference: r.onusReference,
		paymentOnusReference: r.paymentOnusReference,
		paymentStatus: r.status,
		transactionAmount: r.amount,
		merchantReference: r.merchantReference,
		reason: r.reason,
		responseMessage: r.responseMessage,
	};
	sb.webhooks.emit('REFUND', body, [payin.accountNumber, r.onusReference, r.status], notificationUrl ?? payin.notificationUrl);
}

function refund(ctx: Ctx) {
	const { sb } = ctx;
	const state = sb.state;
	const input = parse(refundSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const payin = ownedPayin(ctx, input.onusReference);
	if (payin.businessId !== business.id) throw new ApiError(404, `Payment ${input.onusReference} not found for business ${business.id}`, ['onusReference: not found']);
	if (payin.paymentChannel !== 'BANK_TRANSFER') fail('onusReference', 'is not a bank transfer payin; only bank transfer payins can be refunded');
	if (payin.paymentStatus !== 'SUCCESSFUL') fail('onusReference', `payment is ${payin.paymentStatus}; only SUCCESSFUL payments can be refunded`);
	const remaining = round2(payin.amountPaid - (payin._refundedAmount ?? 0));
	const value = input.amount ?? remaining;
	if (remaining <= 0) throw new ApiError(409, `Payment ${payin.onusReference} is already fully refunded`, ['onusReference: already fully refunded']);
	if (value > remaining) fail('amount', `must be at most ${remaining} (amount paid less earlier refunds)`);
	if (input.reference) state.checkReferenceFree(business.id, input.reference);
	const wallet = state.requireWallet(business.id, payin.currency);
	checkFunds(wallet, value);
	const onusReference = state.onusReference('RFND');
	const seq = state.nextSeq();
	const now = state.now();
	const r: Refund = {
		id: `RF-${String(seq).padStart(8, '0')}`,
		onusReference,
		paymentOnusReference: payin.onusReference,
		merchantReference: input.reference ?? null,
		amount: value,
		currency: payin.currency,
		status: 'PENDING',
		reason: input.reason ?? null,
		responseMessage: null,
		businessId: business.id,
		businessName: business.name,
		createdDate: now,
		lastUpdatedDate: now,
		_seq: seq,
		_walletId: wallet.id,
		_plannedOutcome: state.config.refundOutcome,
	};
	if (input.reference) state.claimReference(business.id, input.reference, 'refund', onusReference);
	state.refunds.set(onusReference, r);
	payin._refundedAmount = round2((payin._refundedAmount ?? 0) + value);
	state.post(wallet, 'REFUND_DEBIT', -value, onusReference);
	if (r._plannedOutcome !== 'HOLD') {
		sb.later(state.config.transferDelayMs, () => {
			if (r.status === 'PENDING') finishRefund(sb, r, r._plannedOutcome, input.notificationUrl ?? null);
		});
	}
	return ok(refundView(r));
}

function listRefunds(ctx: Ctx) {
	const { state } = ctx.sb;
	const q = ctx.query;
	const businessId = qRequired(q, 'businessId');
	state.ownedBusiness(businessId, ctx.auth!.merchantId);
	const onus = q.get('onusReference') || undefined;
	const paymentOnus = q.get('paymentOnusReference') || undefined;
	const status = qEnum(q, 'status', ['PENDING', 'SUCCESSFUL', 'FAILED']);
	const items = [...state.refunds.values()]
		.reverse()
		.filter(
			(r) =>
				r.businessId === businessId &&
				(!onus || r.onusReference === onus) &&
				(!paymentOnus || r.paymentOnusReference === paymentOnus) &&
				(!status || r.status === status),
		);
	return ok(pageFromOne(items.map(refundView), q, undefined, ctx.sb.profiles));
}

export function registerPayouts(router: Router): void {
	router.add('GET', '/api/v1/banks', (ctx) => {
		const key = qRequired(ctx.query, 'key').toUpperCase();
		const list = BANKS[key];
		if (!list) fail('key', `must be a payout currency: ${Object.keys(BANKS).join(', ')}`);
		return ok(list);
	});
	router.add('POST', '/api/v1/transfer-requests/name-enquiry', nameEnquiry);
	router.add('POST', '/api/v1/transfer-requests/bank-transfer', initiateTransfer);
	router.add('POST', '/api/v1/transfer-requests/bulk/bank-transfer', bulkTransfer);
	router.add('GET', '/api/v1/transfer-requests', searchTransfers);
	router.add('POST', '/api/v1/refunds/bank-transfer', refund);
	router.add('GET', '/api/v1/refunds', listRefunds);
}
