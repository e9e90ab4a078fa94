/** Payout banks per currency and the name enquiry (account names picked by the test account's last digits). */
import { z } from 'zod';
import { BANKS } from '../../catalog';
import { ApiError } from '../../errors';
import { ok, type Ctx } from '../../router';
import { currency, fail, parse, qRequired, str } from '../../validate';
import { plannedOutcome } from './rules';

/** GET /api/v1/banks?key=<currency>. */
export function listBanks(ctx: Ctx) {
	const key = qRequired(ctx.query, 'key').toUpperCase();
	const list = BANKS[key];
	if (!list) fail('key', `must be a payout currency: ${Object.keys(BANKS).join(', ')}`);
	return ok(list);
}

function accountNameFor(accountNumber: string): string {
	const outcome = plannedOutcome(accountNumber);
	if (outcome === 'SUCCESSFUL' && accountNumber.replace(/\D/g, '').endsWith('1112')) return 'Sandbox Success Beneficiary';
	if (outcome === 'HOLD') return 'Sandbox Pending Beneficiary';
	if (outcome !== 'SUCCESSFUL') return `Sandbox ${outcome.replace(/_/g, ' ').toLowerCase()} beneficiary`;
	return `Sandbox Beneficiary ${accountNumber.slice(-4)}`;
}

const nameEnquirySchema = z.object({ institutionCode: str(), accountNumber: str(), businessId: str(), currency: currency() });

export function nameEnquiry(ctx: Ctx) {
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
