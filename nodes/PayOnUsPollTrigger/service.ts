import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { LISTS, readList } from '../shared/api';
import type { Stream } from './cursor';

/**
 * Every read the PayOnUs Poll Trigger makes of the service, in one place:
 * the payins (GET /api/v1/payment-requests, pages from 0) or the transfers
 * (GET /api/v1/transfer-requests, pages from 1, needs a Merchant ID) of one
 * stream, every page.
 */

/**
 * The spec's default page size (30). Its maximum is not documented: a larger
 * page may be cut short by the service, which must never look like the last
 * page.
 */
const PAGE_SIZE = 30;

export interface ListQuery {
	fromDate?: string;
	status?: string;
	businessId?: string;
	/** Transfers only. */
	merchantId: string;
}

/** The records of one stream matching the query (all pages, or the first `limit`). */
export async function listRecords(
	client: PayOnUsClient,
	stream: Stream,
	query: ListQuery,
	limit?: number,
): Promise<IDataObject[]> {
	const qs: IDataObject = {};
	if (query.fromDate !== undefined) qs.fromDate = query.fromDate;
	if (query.status !== undefined) qs.status = query.status;
	if (query.businessId !== undefined) qs.businessId = query.businessId;
	if (stream === 'payouts') qs.merchantId = query.merchantId;
	return await readList(client, stream === 'payins' ? LISTS.payments : LISTS.transfers, qs, {
		returnAll: limit === undefined,
		limit,
		pageSize: PAGE_SIZE,
	});
}
