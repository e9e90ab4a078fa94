/** Fixed virtual accounts: a lasting NGN account number per customer; each transfer into it is a new payin (fund.ts). */
import { z } from 'zod';
import { SANDBOX_BANK } from '../../catalog';
import { ok, type Ctx } from '../../router';
import { countryCode, email, isoDate, optStr, parse, phone, reference, str } from '../../validate';

const fixedSchema = z.object({
	reference: reference(),
	businessId: str(),
	dob: isoDate(),
	customer: z.object(
		{
			name: str(),
			email: email(),
			phone: phone().optional(),
			externalId: optStr(),
			bvn: str().regex(/^\d{11}$/, 'must be 11 digits'),
			address: z.object(
				{ line1: str(), city: str(), state: optStr(), postalCode: optStr(), countryCode: countryCode() },
				{ required_error: 'is required' },
			),
		},
		{ required_error: 'is required' },
	),
	notificationUrl: optStr(),
});

export function createFixed(ctx: Ctx) {
	const { state } = ctx.sb;
	const input = parse(fixedSchema, ctx.body);
	const business = state.ownedBusiness(input.businessId, ctx.auth!.merchantId);
	state.requireWallet(business.id, 'NGN');
	state.checkReferenceFree(business.id, input.reference);
	const onusReference = state.onusReference('FXD');
	state.claimReference(business.id, input.reference, 'fixedAccount', onusReference);
	const accountNumber = state.accountNumber();
	const account = {
		id: `FXA-${String(state.nextSeq()).padStart(8, '0')}`,
		onusReference,
		accountNumber,
		accountName: `${business.name} / ${input.customer.name}`,
		bankName: SANDBOX_BANK.name,
		bankCode: SANDBOX_BANK.code,
		currency: 'NGN',
		merchantReference: input.reference,
		customerName: input.customer.name,
		customerEmail: input.customer.email,
		status: 'ACTIVE',
		businessId: business.id,
		businessName: business.name,
		merchantName: state.merchantName(business.merchantId),
		createdDate: state.now(),
	};
	state.fixedAccounts.set(account.id, account);
	state.accountNumbers.set(accountNumber, { kind: 'fixed', key: account.id });
	return ok(account);
}
