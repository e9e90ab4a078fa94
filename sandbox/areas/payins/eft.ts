/** EFT payins (South Africa): the customer authorises the payment at their bank on the hosted redirect page. */
import { z } from 'zod';
import { EFT_BANKS } from '../../catalog';
import { ok, type Ctx } from '../../router';
import { amount, fail, optStr, parse, reference, str } from '../../validate';
import { duplicateReplay } from '../replay';
import { customerBase } from './customer';
import { newPayin } from './record';

const eftSchema = z.object({
	amount: amount(),
	reference: reference(),
	narration: optStr(),
	businessId: str(),
	bank: str(),
	redirectUrl: optStr(),
	notificationUrl: optStr(),
	customer: z.object({ ...customerBase }, { required_error: 'is required' }),
});

export function eftPayment(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(eftSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	const bank = EFT_BANKS.find((b) => b.code === input.bank);
	if (!bank) fail('bank', `must be a bank code from GET /api/v1/eft-payment/banks (${EFT_BANKS.map((b) => b.code).join(', ')})`);
	state.requireWallet(business.id, 'ZAR');
	const replay = duplicateReplay(ctx, business.id, input.reference);
	if (replay) return replay;
	state.checkReferenceFree(business.id, input.reference);
	const p = newPayin(ctx.sb, business, 'EFT', {
		amount: input.amount,
		currency: 'ZAR',
		paymentChannel: 'EFT',
		reference: input.reference,
		countryCode: 'ZA',
		accountName: input.customer.name,
		email: input.customer.email,
		mobileNumber: input.customer.phone ?? '',
		bankName: bank.name,
		bankCode: bank.code,
		narration: input.narration ?? '',
		redirectUrl: input.redirectUrl ?? null,
		notificationUrl: input.notificationUrl ?? null,
		paymentStatus: 'PROCESSING',
		_eftBank: bank.code,
	});
	state.claimReference(business.id, input.reference, 'payin', p.onusReference);
	return ok({
		onusReference: p.onusReference,
		reference: p.reference,
		amount: p.amount,
		redirectUrl: `${ctx.baseUrl}/hosted/eft/${encodeURIComponent(p.onusReference)}`,
		bankName: bank.name,
		paymentStatus: p.paymentStatus,
	});
}

/** GET /api/v1/eft-payment/banks. */
export const listEftBanks = () => ok(EFT_BANKS);
