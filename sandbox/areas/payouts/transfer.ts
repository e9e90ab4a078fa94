/**
 * Single transfers: the request, the record (PENDING, then SUCCESSFUL or
 * FAILED after `transferDelayMs`, or held until settled by the control API),
 * the PAYOUT webhook, and the record's API view.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import { round2 } from '../../money';
import type { Business, Transfer, Wallet } from '../../records';
import { ok, type Ctx } from '../../router';
import type { Sandbox } from '../../runtime';
import { amount, bool, countryCode, currency, email, fail, optStr, parse, reference, str } from '../../validate';
import { duplicateReplay } from '../replay';
import { checkFunds, payoutFee, plannedOutcome, resolveDestination, TRANSFER_TYPES, type Resolved } from './rules';
import { answerProfiles } from './view';

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

export type TransferInput = z.infer<typeof transferSchema>;

export function createTransfer(
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
		_plannedOutcome:
			sb.profiles.has('unlisted-payout-statuses') && input.beneficiaryAccountNumber.replace(/\D/g, '').endsWith('1122')
				? 'REJECTED'
				: plannedOutcome(input.beneficiaryAccountNumber),
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
	if (!sb.profiles.has('updated-date-unmoved')) t.lastUpdatedDate = state.now();
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

export function initiateTransfer(ctx: Ctx) {
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
	return ok(
		answerProfiles(
			t,
			{
				paymentStatus: t.paymentStatus,
				currency: t.currency,
				amount: t.amount,
				fee: t.fee,
				onusReference: t.onusReference,
				merchantReference: t.merchantReference,
			},
			sb.profiles,
		),
	);
}
