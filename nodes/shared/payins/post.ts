import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { moneyMoving, PAYMENT_REQUESTS } from '../moneyMoving';
import { moneyAsNumbers } from '../records';

/** What a payin's record must show besides its amount and currency, as its call declares it. */
export interface PayinProof {
	/** The customer's phone (mobile money: the phone asked to approve is part of the payin). */
	customerPhone?: boolean;
}

/**
 * The request every money-moving payin makes: a POST carrying the merchant
 * reference, never resent blindly: after a lost answer the transport first
 * looks the reference up among the payment requests (../moneyMoving/lookup.ts);
 * a reference already used is a 409 carrying the record that holds it.
 * Returns the answer's `data` ({} when the service sends none). The body is
 * sent as given: the calls of ./calls.ts check it first.
 */
export async function postPayin(
	client: PayOnUsClient,
	path: string,
	body: IDataObject & { businessId: string; reference: string },
	proof: PayinProof = {},
): Promise<IDataObject> {
	// What the record of this payin must show (../moneyMoving/match.ts):
	// the amount, the currency when the call names it, the customer's phone
	// when the call says so (`proof`). (A fixed account carries no amount: no comparison.)
	const customer = body.customer as IDataObject | undefined;
	const phone = proof.customerPhone === true && typeof customer?.phone === 'string' ? customer.phone : undefined;
	const expected =
		typeof body.amount === 'number'
			? {
					amount: body.amount,
					...(typeof body.currency === 'string' ? { currency: body.currency } : {}),
					...(phone ? { customerPhone: phone } : {}),
				}
			: undefined;
	const data = await client.request<IDataObject | null>({
		method: 'POST',
		path,
		body,
		moneyMoving: moneyMoving(client, PAYMENT_REQUESTS, body.businessId, body.reference, expected, 'payment'),
	});
	// Amounts the service answers as text come out as numbers (../records.ts).
	return moneyAsNumbers(data);
}
