/**
 * The sandbox's fund simulation (POST /api/v1/fund-ngn-account): a customer's
 * bank transfer into a dynamic account (the exact amount, once) or into a
 * fixed account (any amount, a new payin each time).
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import { ok, type Ctx } from '../../router';
import { amount, bool, fail, optStr, parse, str } from '../../validate';
import { confirmPayin, failPayin, newPayin, ownedPayin, payinView } from './record';

const fundSchema = z.object({
	onusReference: str().optional(),
	accountNumber: str(),
	amount: amount(),
	paymentStatus: z.enum(['SUCCESSFUL', 'FAILED'], { errorMap: () => ({ message: 'must be SUCCESSFUL or FAILED' }) }).default('SUCCESSFUL'),
	forDynamicAccount: bool().default(true),
	senderName: optStr(),
	senderAccountNumber: optStr(),
});

export function fund(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(fundSchema, ctx.body);
	const target = state.accountNumbers.get(input.accountNumber);
	if (input.forDynamicAccount) {
		if (!input.onusReference) fail('onusReference', 'is required for a dynamic account');
		const p = ownedPayin(ctx, input.onusReference);
		if (!target || target.kind !== 'dynamic' || target.key !== p.onusReference) {
			fail('accountNumber', `does not match the dynamic account of ${p.onusReference}`);
		}
		if (p.paymentStatus !== 'PENDING') {
			throw new ApiError(409, `Payment ${p.onusReference} is already ${p.paymentStatus}`, [`onusReference: payment is already ${p.paymentStatus}`]);
		}
		if (input.amount !== p.amount) {
			fail('amount', `must be exactly ${p.amount} (ACCEPT_FULL_VALUE_ONLY); ${input.amount} was sent`);
		}
		p.senderName = input.senderName ?? 'Sandbox Sender';
		p.senderAccountNumber = input.senderAccountNumber ?? '0123456789';
		p.senderAccount = p.senderAccountNumber;
		p.sessionId = `SBXSESSION${p._seq}`;
		if (input.paymentStatus === 'SUCCESSFUL') confirmPayin(ctx.sb, p);
		else failPayin(ctx.sb, p, 'Transfer failed (simulated)');
		return ok(payinView(p));
	}
	if (!target || target.kind !== 'fixed') fail('accountNumber', 'is not a fixed virtual account of this sandbox');
	const account = state.fixedAccounts.get(target.key)!;
	const business = state.ownedBusiness(account.businessId, ctx.auth!.merchantId);
	const p = newPayin(ctx.sb, business, 'FXD', {
		amount: input.amount,
		currency: 'NGN',
		paymentChannel: 'BANK_TRANSFER',
		reference: account.merchantReference,
		accountNumber: account.accountNumber,
		accountName: account.accountName,
		bankName: account.bankName,
		bankCode: account.bankCode,
		email: account.customerEmail,
		fixedAccount: true,
		fixedAccountId: account.id,
		fixedAccountMerchantReference: account.merchantReference,
		senderName: input.senderName ?? 'Sandbox Sender',
		senderAccountNumber: input.senderAccountNumber ?? '0123456789',
		senderAccount: input.senderAccountNumber ?? '0123456789',
	});
	if (input.paymentStatus === 'SUCCESSFUL') confirmPayin(ctx.sb, p);
	else failPayin(ctx.sb, p, 'Transfer failed (simulated)');
	return ok(payinView(p));
}
