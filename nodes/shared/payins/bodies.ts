import { z } from 'zod/v3';
import type { MoneyCall } from '../moneyMoving/call';
import * as v from '../validation';

/**
 * What the payin calls' bodies share. The body of each money-moving payin is
 * declared once, by its operation (`moneyCall.body` in
 * nodes/PayOnUs/resources/payin/<operation>.ts), with the same rules the
 * node applies to its fields (nodes/shared/validation/ and ./customer.ts),
 * so a value either refuses is refused by both. A body that fails its schema
 * is a PayinInputError naming every field at fault by its path in the body
 * ("customer.email: must be an e-mail address such as name@example.com");
 * nothing is sent. Below: the bodies of the calls that move no money.
 */

/** A body refused by its schema: every field at fault, by its path in the body (../moneyMoving/call.ts). */
export { checked, issuePath, MoneyBodyError as PayinInputError } from '../moneyMoving/call';

/**
 * A payin body as its caller writes it: the fields its call declares (the
 * operation's `moneyCall.body`), each as the schema reads it.
 */
export type PayinBody<C extends MoneyCall> = { [K in keyof z.output<C['body']>]?: z.output<C['body']>[K] };

/** A narration, sent as '' when left out (card, mobile money and EFT payins always send one). */
export function narrationOrEmpty() {
	return v.optionalBankText(255).transform((narration) => narration ?? '');
}

/** One payin by its onusReference, in one business. */
export interface PayinKey {
	businessId: string;
	onusReference: string;
}
export const payinKey = z.object({ businessId: v.businessId(), onusReference: v.onusReference() });

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
