import type { IDataObject } from 'n8n-workflow';
import type { MoneyMovingOptions, PayOnUsClient } from '../../shared/client';

/**
 * The one lookup by merchant reference behind every money-moving call (the
 * transport calls it after a timeout, a dropped connection, a 5xx or a 409,
 * before anything is resent; see DESIGN.md, transport contract).
 *
 * Rules, the same for payins and transfers:
 * 1. Query the list with the reference filter (and the business).
 * 2. Never trust the filter: a record counts only when its reference AND its
 *    business (when the record carries one) match, checked here.
 * 3. When the filtered answer holds records but none carries the reference,
 *    the filter was ignored: scan the newest pages (the lists are newest
 *    first), at most LOOKUP_MAX_PAGES pages of LOOKUP_PAGE_SIZE.
 *    An empty or all-matching answer means the filter works: no record.
 */

/** Page size of the scan, and how many pages it reads at most. */
export const LOOKUP_PAGE_SIZE = 100;
export const LOOKUP_MAX_PAGES = 10;

/** A list of records that can be searched by merchant reference. */
export interface ReferenceSource {
	path: string;
	/** Paging of the list: page/size from 0, or pageNo/pageSize from 1. */
	style: 'zeroBased' | 'fromOne';
	/** Query parameter of the reference filter. */
	filter: string;
	/** Record fields that may hold the merchant reference. */
	recordKeys: string[];
	/** Query sent with every page (e.g. the merchant). */
	qs?: IDataObject;
	/** Page size of the filtered query (an honoured filter answers one record). */
	filteredPageSize: number;
}

/** Payment requests (every payin): GET /api/v1/payment-requests, `reference` filter (documented). */
export const PAYMENT_REQUESTS: ReferenceSource = {
	path: '/api/v1/payment-requests',
	style: 'zeroBased',
	filter: 'reference',
	recordKeys: ['reference', 'merchantReference'],
	filteredPageSize: 20,
};

export const TRANSFERS_PATH = '/api/v1/transfer-requests';

/** Transfers of a merchant: `merchantReference` filter (agreed, not documented). */
export function transfersOf(merchantId: string): ReferenceSource {
	return {
		path: TRANSFERS_PATH,
		style: 'fromOne',
		filter: 'merchantReference',
		recordKeys: ['merchantReference'],
		qs: { merchantId },
		filteredPageSize: LOOKUP_PAGE_SIZE,
	};
}

interface PagedData {
	content?: IDataObject[];
	lastPage?: number;
	totalPages?: number;
}

function pageQuery(source: ReferenceSource, index: number, size: number): IDataObject {
	return source.style === 'zeroBased' ? { page: index, size } : { pageNo: index + 1, pageSize: size };
}

function contentOf(data: PagedData | IDataObject[] | null | undefined): IDataObject[] {
	if (Array.isArray(data)) return data;
	return Array.isArray(data?.content) ? data.content : [];
}

function referenceOf(source: ReferenceSource, record: IDataObject, wanted: Set<string>): string | undefined {
	for (const key of source.recordKeys) {
		const value = record[key];
		if (typeof value === 'string' && wanted.has(value)) return value;
	}
	return undefined;
}

/** References are unique per business only: a record of another business is not ours. */
function sameBusiness(record: IDataObject, businessId: string): boolean {
	return record.businessId === undefined || record.businessId === null || record.businessId === businessId;
}

/**
 * Finds records by their merchant references. Returns a map reference ->
 * record for the references found (a missing key: no such record).
 */
export async function findByReferences(
	client: PayOnUsClient,
	source: ReferenceSource,
	businessId: string,
	references: string[],
): Promise<Map<string, IDataObject>> {
	const wanted = new Set(references);
	const found = new Map<string, IDataObject>();
	const take = (records: IDataObject[]) => {
		for (const record of records) {
			const ref = referenceOf(source, record, wanted);
			if (ref !== undefined && !found.has(ref) && sameBusiness(record, businessId)) found.set(ref, record);
		}
	};
	const get = async (qs: IDataObject) =>
		await client.request<PagedData | IDataObject[] | null>({ method: 'GET', path: source.path, qs: { ...source.qs, ...qs } });

	// 1. The filtered query, for one reference (the common case).
	if (references.length === 1) {
		const content = contentOf(
			await get({ [source.filter]: references[0], businessId, ...pageQuery(source, 0, source.filteredPageSize) }),
		);
		take(content);
		if (found.size === 1) return found;
		const filterHonoured = content.every((r) => referenceOf(source, r, wanted) !== undefined);
		if (filterHonoured) return found;
	}

	// 2. The filter is ignored (or many references): scan the newest pages.
	for (let index = 0; index < LOOKUP_MAX_PAGES; index++) {
		const data = await get({ businessId, ...pageQuery(source, index, LOOKUP_PAGE_SIZE) });
		const content = contentOf(data);
		take(content);
		if (found.size === wanted.size) break;
		if (content.length < LOOKUP_PAGE_SIZE || Array.isArray(data)) break;
		// lastPage counts in the list's own paging (an index from 0, or a number from 1).
		const current = source.style === 'zeroBased' ? index : index + 1;
		if (typeof data?.lastPage === 'number' && current >= data.lastPage) break;
		if (typeof data?.totalPages === 'number' && index + 1 >= data.totalPages) break;
	}
	return found;
}

/** The record holding one reference, or undefined. */
export async function findByReference(
	client: PayOnUsClient,
	source: ReferenceSource,
	businessId: string,
	reference: string,
): Promise<IDataObject | undefined> {
	return (await findByReferences(client, source, businessId, [reference])).get(reference);
}

/** The `moneyMoving` option of a call carrying `reference` for `businessId`. */
export function moneyMoving(
	client: PayOnUsClient,
	source: ReferenceSource,
	businessId: string,
	reference: string,
): MoneyMovingOptions {
	return { reference, lookup: async () => await findByReference(client, source, businessId, reference) };
}
