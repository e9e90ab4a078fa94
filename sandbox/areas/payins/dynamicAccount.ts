/** Dynamic virtual accounts: one NGN account number per payment, for the exact amount (paid with fund.ts). */
import { z } from 'zod';
import { SANDBOX_BANK } from '../../catalog';
import { ok, type Ctx } from '../../router';
import { amount, optStr, parse, reference, str } from '../../validate';
import { customerBase } from './customer';
import { newPayin } from './record';

const dynamicSchema = z.object({
	amount: amount(),
	reference: reference(),
	businessId: str(),
	customer: z.object({ ...customerBase, bvn: str().regex(/^\d{11}$/, 'must be 11 digits').optional() }, { required_error: 'is required' }),
	narration: optStr(),
	notificationUrl: optStr(),
});

export function createDynamic(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(dynamicSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	state.requireWallet(business.id, 'NGN');
	state.checkReferenceFree(business.id, input.reference);
	const accountNumber = state.accountNumber();
	const p = newPayin(ctx.sb, business, 'NUB', {
		amount: input.amount,
		currency: 'NGN',
		paymentChannel: 'BANK_TRANSFER',
		reference: input.reference,
		accountNumber,
		accountName: `${business.name} / ${input.customer.name}`,
		bankName: SANDBOX_BANK.name,
		bankCode: SANDBOX_BANK.code,
		email: input.customer.email,
		mobileNumber: input.customer.phone ?? '',
		merchantUserId: input.customer.externalId ?? null,
		narration: input.narration ?? '',
		notificationUrl: input.notificationUrl ?? null,
	});
	state.claimReference(business.id, input.reference, 'payin', p.onusReference);
	state.accountNumbers.set(accountNumber, { kind: 'dynamic', key: p.onusReference });
	return ok({
		accountName: p.accountName,
		accountNumber,
		bankName: p.bankName,
		amount: p.amount,
		onusReference: p.onusReference,
		merchantReference: p.merchantReference,
	});
}
