import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../validation';
import { customerSchema, PAYIN_CUSTOMERS, type PayinCustomer } from './customer';

/**
 * The bodies of the payin calls (./calls.ts), typed, and the zod schema each
 * is checked with before anything is sent: the same rules the PayOnUs node
 * applies to its fields (nodes/shared/validation.ts and ./customer.ts), so a
 * value either refuses is refused by both. A body that fails its schema is
 * a PayinInputError naming every field at fault by its path in the body
 * ("customer.email: must be an e-mail address such as name@example.com");
 * nothing is sent.
 */

/** A body refused by its schema: every field at fault, by its path in the body. */
export class PayinInputError extends Error {
	constructor(readonly issues: z.ZodIssue[]) {
		super(issues.map((issue) => `${issuePath(issue)}: ${issue.message}`).join('; '));
		this.name = 'PayinInputError';
	}
}

/** "customer.email", or "input" for the body as a whole. */
export function issuePath(issue: z.ZodIssue): string {
	return issue.path.length > 0 ? issue.path.join('.') : 'input';
}

/** The body as its schema reads it (trimmed, upper-cased codes, amounts as numbers), or a PayinInputError. */
export function checked<T>(schema: z.ZodTypeAny, body: unknown): T {
	const parsed = schema.safeParse(body);
	if (!parsed.success) throw new PayinInputError(parsed.error.issues);
	return parsed.data as T;
}

/** Values left out (undefined, or an address with nothing in it) are not sent. */
export function givenCustomer(customer: PayinCustomer): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(customer)) {
		if (value === undefined || value === '') continue;
		if (key === 'address') {
			const address = givenCustomer(value as PayinCustomer) as IDataObject;
			if (Object.keys(address).length > 0) out.address = address;
		} else out[key] = value;
	}
	return out;
}

/** One payin by its onusReference, in one business. */
export interface PayinKey {
	businessId: string;
	onusReference: string;
}
export const payinKey = z.object({ businessId: v.businessId(), onusReference: v.onusReference() });

/** A one-time NGN account for one exact amount (POST /api/v1/virtual-accounts/dynamic). */
export interface DynamicAccountBody {
	businessId: string;
	amount: number;
	reference: string;
	customer: PayinCustomer;
}
export const dynamicAccountBody = z.object({
	businessId: v.businessId(),
	amount: v.amount(),
	reference: v.reference(),
	customer: customerSchema(PAYIN_CUSTOMERS.dynamicAccount),
});

/** A card charged with its encrypted card data (POST /api/v1/card-payments). */
export interface CardChargeBody {
	businessId: string;
	/** The card details RSA-encrypted and Base64-encoded: never raw card numbers. */
	cardData: string;
	amount: number;
	currency: string;
	reference: string;
	narration?: string;
	/** Where the customer returns after 3-D Secure. */
	redirectUrl?: string;
	customer: PayinCustomer;
}
export const cardChargeBody = z.object({
	businessId: v.businessId(),
	cardData: v.encryptedCardData(),
	amount: v.amount(),
	currency: v.currency(),
	reference: v.reference(),
	narration: v.optionalText(255),
	redirectUrl: v.optional(v.url()),
	customer: customerSchema(PAYIN_CUSTOMERS.cardCharge),
});

/** A mobile money prompt on the customer's phone (POST /api/v1/mobile-money/collection). */
export interface MobileMoneyBody {
	businessId: string;
	momoNetwork: string;
	amount: number;
	reference: string;
	narration?: string;
	/** The pre-OTP code some networks need. */
	initiatingCode?: string;
	customer: PayinCustomer & { phone: string };
}
export const mobileMoneyBody = z.object({
	businessId: v.businessId(),
	momoNetwork: v.identifier('MTN-GH'),
	amount: v.amount(),
	reference: v.reference(),
	narration: v.optionalText(255),
	initiatingCode: v.optionalText(50),
	customer: customerSchema(PAYIN_CUSTOMERS.mobileMoney),
});

/** An EFT payin in ZAR, authorised at the customer's bank (POST /api/v1/eft-payment). */
export interface EftBody {
	businessId: string;
	/** The bank's code (GET /api/v1/eft-payment/banks). */
	bank: string;
	amount: number;
	reference: string;
	narration?: string;
	/** Where the customer returns from their bank's page. */
	redirectUrl?: string;
	customer: PayinCustomer;
}
export const eftBody = z.object({
	businessId: v.businessId(),
	bank: v.identifier('a bank code'),
	amount: v.amount(),
	reference: v.reference(),
	narration: v.optionalText(255),
	redirectUrl: v.optional(v.url()),
	customer: customerSchema(PAYIN_CUSTOMERS.eft),
});

/** Sandbox only: a dynamic account paid, as if by the customer (POST /api/v1/fund-ngn-account). */
export interface SimulateBody {
	onusReference: string;
	accountNumber: string;
	amount: number;
	paymentStatus: 'SUCCESSFUL' | 'FAILED';
	forDynamicAccount: boolean;
}
export const simulateBody = z.object({
	onusReference: v.onusReference(),
	accountNumber: v.accountNumber(),
	amount: v.amount(),
	paymentStatus: v.oneOf(['SUCCESSFUL', 'FAILED'] as const),
	forDynamicAccount: v.bool(),
});
