/** Bulk transfers: a multipart CSV of bank transfers, checked whole before any row moves money. */
import { COUNTRY_OF_CURRENCY } from '../../catalog';
import { ApiError } from '../../errors';
import { round2 } from '../../money';
import { parseCsv, parseMultipart } from '../../multipart';
import { ok, type Ctx } from '../../router';
import { fail } from '../../validate';
import { duplicateReplay } from '../replay';
import { checkFunds, payoutFee, resolveDestination, type Resolved } from './rules';
import { createTransfer, type TransferInput } from './transfer';
import { transferView } from './view';

const BULK_COLUMNS = ['beneficiaryAccountNumber', 'beneficiaryAccountName', 'beneficiaryBankCode', 'amount', 'narration'];

export function bulkTransfer(ctx: Ctx) {
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
	const country = field('countryCode') ?? COUNTRY_OF_CURRENCY[cur] ?? 'NG';
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
