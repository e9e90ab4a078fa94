import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../../../shared/clientInterface';
import { moneyMoving, PAYMENT_REQUESTS } from '../../../shared/moneyMoving';
import { moneyAsNumbers } from '../../../shared/records';

/**
 * The request every money-moving payin makes: a POST carrying the merchant
 * reference, never resent blindly: after a lost answer the transport first
 * looks the reference up among the payment requests (shared/moneyMoving/lookup.ts).
 * Returns the answer's `data` ({} when the service sends none).
 */
export async function postPayin(
	client: PayOnUsClient,
	path: string,
	body: IDataObject & { businessId: string; reference: string },
): Promise<IDataObject> {
	// What the record of this payin must show (../../../shared/moneyMoving/match.ts):
	// the amount, the currency when the call names it, the customer's phone
	// for mobile money. (A fixed account carries no amount: no comparison.)
	const customer = body.customer as IDataObject | undefined;
	const phone = path.includes('mobile-money') && typeof customer?.phone === 'string' ? customer.phone : undefined;
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
	// Amounts the service answers as text come out as numbers (nodes/shared/records.ts).
	return moneyAsNumbers(data);
}
