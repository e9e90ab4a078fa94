import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { type MoneyCall, moneyMoving, referenceSource, sendMoney } from '../moneyMoving';
import { moneyAsNumbers } from '../records';

/**
 * Sends a money-moving payin, as its operation declares it (`call`: where
 * it POSTs, what proves it, its lookup among the payment requests, its
 * body's fields; nodes/PayOnUs/resources/payin/<operation>.ts). The PayOnUs
 * node's operations and the Payment Page send every payin through here.
 * The body is checked with the call's schema first (a PayinInputError
 * naming every field at fault; nothing sent), then sent as a money-moving
 * request, never resent blindly: after a lost answer the transport first
 * looks the reference up among the payment requests
 * (../moneyMoving/lookup.ts); a reference already used is a 409 carrying
 * the record that holds it. Returns the answer's `data` ({} when the
 * service sends none), amounts as numbers.
 */
export async function postPayin(client: PayOnUsClient, call: MoneyCall, input: unknown): Promise<IDataObject> {
	const data = await sendMoney<IDataObject | null>(client, call, { body: input }, (body) => {
		// What the record of this payin must show (../moneyMoving/match.ts):
		// the amount, the currency when the call names it, the customer's phone
		// when the call declares it. (A fixed account carries no amount: no comparison.)
		const customer = body.customer as IDataObject | undefined;
		const phone = call.customerPhone === true && typeof customer?.phone === 'string' ? customer.phone : undefined;
		const expected =
			typeof body.amount === 'number'
				? {
						amount: body.amount,
						...(typeof body.currency === 'string' ? { currency: body.currency } : {}),
						...(phone ? { customerPhone: phone } : {}),
					}
				: undefined;
		return moneyMoving(client, referenceSource(call)!, String(body.businessId), String(body.reference), expected, 'payment');
	});
	// Amounts the service answers as text come out as numbers (../records.ts).
	return moneyAsNumbers(data);
}
