import type { IDataObject } from 'n8n-workflow';
import type { MoneyMovingOptions, PayOnUsClient } from '../../../shared/client';

/**
 * Finds the payment request a payin call created, by its merchant reference
 * (GET /api/v1/payment-requests?businessId=..&reference=..). The list's
 * filters are not trusted alone: the match on reference (and business, when
 * the record carries one) is checked here. Undefined when there is none.
 */
export async function findPaymentByReference(
	client: PayOnUsClient,
	businessId: string,
	reference: string,
): Promise<IDataObject | undefined> {
	const data = await client.request<IDataObject | IDataObject[] | null>({
		method: 'GET',
		path: '/api/v1/payment-requests',
		qs: { businessId, reference, page: 0, size: 20 },
	});
	const records = Array.isArray(data)
		? data
		: Array.isArray(data?.content)
			? (data.content as IDataObject[])
			: [];
	return records.find(
		(r) =>
			(r.reference === reference || r.merchantReference === reference) &&
			(r.businessId === undefined || r.businessId === null || r.businessId === businessId),
	);
}

/** The `moneyMoving` option of a payin call carrying `reference` for `businessId`. */
export function payinMoneyMoving(client: PayOnUsClient, businessId: string, reference: string): MoneyMovingOptions {
	return { reference, lookup: async () => await findPaymentByReference(client, businessId, reference) };
}
