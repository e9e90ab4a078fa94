import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { LISTS, readList } from '../shared/api';
import type { Stream } from './cursor';

/**
 * Every read the PayOnUs Poll Trigger makes of the service, in one place
 * (poll.ts calls these, never `client.request` itself): the payins
 * (GET /api/v1/payment-requests, pages from 0) or the transfers
 * (GET /api/v1/transfer-requests, pages from 1, needs a Merchant ID) of one
 * stream, every page, once per business asked for.
 */

/**
 * The spec's default page size (30). Its maximum is not documented: a larger
 * page may be cut short by the service, which must never look like the last
 * page.
 */
const PAGE_SIZE = 30;

/** What a poll asks the service for. */
export interface ListQuery {
	/** Records created on or after this day (YYYY-MM-DD); undefined: every record. */
	fromDate?: string;
	/** One status is asked of the service; with several, every status is read (the poll filters). */
	statuses: string[];
	/** Only these businesses (each asked separately); empty: every business. */
	businessIds: string[];
	/** Transfers only. */
	merchantId: string;
}

/**
 * The records of one stream matching the query: every page, or the first
 * `limit` records of each business asked for. Records of a business not
 * asked for are dropped here too: the service's filters are not all
 * documented.
 */
export async function readRecords(client: PayOnUsClient, stream: Stream, query: ListQuery, limit?: number): Promise<IDataObject[]> {
	const status = query.statuses.length === 1 ? query.statuses[0] : undefined;
	const businesses = query.businessIds.length > 0 ? query.businessIds : [undefined];
	const out: IDataObject[] = [];
	for (const businessId of businesses) {
		out.push(...(await readPages(client, stream, { fromDate: query.fromDate, status, businessId, merchantId: query.merchantId }, limit)));
	}
	if (query.businessIds.length === 0) return out;
	return out.filter((r) => r.businessId === undefined || query.businessIds.includes(String(r.businessId)));
}

/** One list query (one business, at most one status): every page, or the first `limit` records. */
async function readPages(
	client: PayOnUsClient,
	stream: Stream,
	query: { fromDate?: string; status?: string; businessId?: string; merchantId: string },
	limit: number | undefined,
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
