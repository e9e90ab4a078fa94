import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { LISTS, pageQuery } from '../api/lists';
import { hasMore, PageLimitError, readPage, walkPages } from '../api/paging';
import { compare, describeExpected, type Expected } from './match';
import type { MoneyMovingOptions } from './options';

/**
 * 3. The one lookup by merchant reference behind every money-moving call
 * (./send.ts calls it after a timeout, a dropped connection, a 5xx or a 409,
 * before anything is resent; the whole contract in order: ./index.ts),
 * and moneyMoving() at the end, the options of a call carrying a reference.
 *
 * Rules, the same for payins and transfers, whatever the service does with
 * filters it does not document, its sort order or its page size:
 * 1. Ask the list with the reference filter (and the business) first: a
 *    service that honours it answers the record in one call.
 * 2. Never trust the filter: a record counts only when its reference matches
 *    (checked here), and not when it names another business.
 * 3. An answer that proves nothing (the filter is undocumented, or the
 *    answer holds other records) is followed by a walk of the whole list
 *    (../api/paging.ts), filtered here by reference: newest pages first
 *    (a list sorted oldest first is walked from its last page back), ending
 *    as soon as the record is found, and bounded by LOOKUP_MAX_PAGES: hitting
 *    the bound throws (the caller reports "outcome unknown"), it never means
 *    "not found".
 * 4. When several records hold the reference (records that do not name
 *    their business), the one matching the request is preferred.
 */

/** Page size of the scan, and how many pages it reads at most. */
export const LOOKUP_PAGE_SIZE = 100;
export const LOOKUP_MAX_PAGES = 100;

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
	/** True when the spec documents the filter (its empty answer is trusted). */
	filterDocumented: boolean;
}

/** Payment requests (every payin): GET /api/v1/payment-requests, `reference` filter (documented). */
export const PAYMENT_REQUESTS: ReferenceSource = {
	...LISTS.payments,
	filter: 'reference',
	recordKeys: ['reference', 'merchantReference'],
	filteredPageSize: 20,
	filterDocumented: true,
};

/** Transfers of a merchant: `merchantReference` filter (agreed, NOT documented: its answer proves nothing). */
export function transfersOf(merchantId: string): ReferenceSource {
	return {
		...LISTS.transfers,
		filter: 'merchantReference',
		recordKeys: ['merchantReference'],
		qs: { merchantId },
		filteredPageSize: LOOKUP_PAGE_SIZE,
		filterDocumented: false,
	};
}

function referenceOf(source: ReferenceSource, record: IDataObject, wanted: Set<string>): string | undefined {
	for (const key of source.recordKeys) {
		const value = record[key];
		if (typeof value === 'string' && wanted.has(value)) return value;
	}
	return undefined;
}

/** References are unique per business only: a record naming another business is not ours. */
function otherBusiness(record: IDataObject, businessId: string): boolean {
	return typeof record.businessId === 'string' && record.businessId !== '' && record.businessId !== businessId;
}

function createdOf(record: IDataObject | undefined): string | undefined {
	const v = record?.createdDate;
	return typeof v === 'string' && v !== '' ? v : undefined;
}

export interface FindOptions {
	/** Differences between a record and the request it should be (empty: a match). */
	check?: (record: IDataObject) => string[];
	/** Bound on the pages walked (default LOOKUP_MAX_PAGES). */
	maxPages?: number;
}

/**
 * Finds records by their merchant references. Returns a map reference ->
 * record for the references found (a missing key: the whole list was read
 * and holds no such record). Throws when it cannot tell (a failed call, or
 * the page bound reached).
 */
export async function findByReferences(
	client: PayOnUsClient,
	source: ReferenceSource,
	businessId: string,
	references: string[],
	options: FindOptions = {},
): Promise<Map<string, IDataObject>> {
	const wanted = new Set(references);
	const candidates = new Map<string, IDataObject[]>();
	/** References for which a record was found. */
	const settled = new Set<string>();
	const take = (records: IDataObject[]) => {
		for (const record of records) {
			const ref = referenceOf(source, record, wanted);
			if (ref === undefined || otherBusiness(record, businessId)) continue;
			const list = candidates.get(ref) ?? [];
			list.push(record);
			candidates.set(ref, list);
			// The first record holding the reference settles it: references are
			// unique per business, and records naming another business were
			// skipped above. (Records that name no business cannot be told apart
			// from a same-reference record of another business of the merchant;
			// a mismatch then fails safe: "different owner", nothing resent.)
			settled.add(ref);
		}
	};
	const result = () => {
		const found = new Map<string, IDataObject>();
		for (const [ref, list] of candidates) {
			const best =
				list.find((r) => r.businessId === businessId && (!options.check || options.check(r).length === 0)) ??
				list.find((r) => !options.check || options.check(r).length === 0) ??
				list.find((r) => r.businessId === businessId) ??
				list[0];
			found.set(ref, best);
		}
		return found;
	};
	const get = async (qs: IDataObject) =>
		await client.request<unknown>({ method: 'GET', path: source.path, qs: { ...source.qs, ...qs } });
	const first = source.style === 'zeroBased' ? 0 : 1;

	// 1. The filtered query, for one reference (the common case).
	if (references.length === 1) {
		const info = readPage(
			await get({ [source.filter]: references[0], businessId, ...pageQuery(source, first, source.filteredPageSize) }),
			source.style,
		);
		take(info.content);
		if (settled.size === wanted.size) return result();
		// A documented filter that answered nothing, or only records holding the
		// reference, is trusted; anything else (an undocumented filter, other
		// records in the answer) proves nothing: read the whole list.
		const honoured = info.content.every((r) => referenceOf(source, r, wanted) !== undefined);
		// (References are unique per business: records holding one never fill pages.)
		if (source.filterDocumented && honoured) return result();
	}

	// 2. Walk the list (its own order first, to see which way it is sorted).
	const maxPages = options.maxPages ?? LOOKUP_MAX_PAGES;
	const qs = { businessId };
	const firstInfo = readPage(await get({ ...qs, ...pageQuery(source, first, LOOKUP_PAGE_SIZE) }), source.style);
	take(firstInfo.content);
	if (settled.size === wanted.size || !hasMore(firstInfo, 0, firstInfo.content.length)) return result();
	const c = firstInfo.content;
	const oldestFirst = c.length > 1 && createdOf(c[0]) !== undefined && createdOf(c[c.length - 1]) !== undefined && createdOf(c[0])! < createdOf(c[c.length - 1])!;
	const pageSize = firstInfo.statedSize ?? LOOKUP_PAGE_SIZE;
	const pageCount =
		firstInfo.pageCount ?? (firstInfo.total !== undefined && pageSize > 0 ? Math.ceil(firstInfo.total / pageSize) : undefined);
	if (oldestFirst && pageCount !== undefined) {
		// Oldest first: the record we look for is near the end; walk back from the last page.
		let read = 1;
		for (let n = pageCount; n >= 2; n--) {
			if (read >= maxPages) throw new PageLimitError(source.path, read, read * pageSize, firstInfo.total);
			const info = readPage(await get({ ...qs, ...pageQuery(source, first + n - 1, LOOKUP_PAGE_SIZE) }), source.style);
			read++;
			take(info.content);
			if (settled.size === wanted.size) break;
		}
		return result();
	}
	await walkPages({
		path: source.path,
		style: source.style,
		pageSize: LOOKUP_PAGE_SIZE,
		maxPages,
		fetch: async (page, size) =>
			page === first ? { ...firstPageData(firstInfo) } : await get({ ...qs, ...pageQuery(source, page, size) }),
		onPage: (records, _info, page) => {
			if (page !== first) take(records);
			return settled.size === wanted.size;
		},
	});
	return result();
}

/** The first page again, as walkPages reads it (already fetched). */
function firstPageData(info: ReturnType<typeof readPage>): IDataObject {
	return {
		content: info.content,
		...(info.total !== undefined ? { totalNumberOfItems: info.total } : {}),
		...(info.pageCount !== undefined ? { totalPages: info.pageCount } : {}),
		...(info.statedSize !== undefined ? { pageSize: info.statedSize } : {}),
	};
}

/** The record holding one reference (the one matching the request, when several do), or undefined. */
export async function findByReference(
	client: PayOnUsClient,
	source: ReferenceSource,
	businessId: string,
	reference: string,
	options: FindOptions = {},
): Promise<IDataObject | undefined> {
	return (await findByReferences(client, source, businessId, [reference], options)).get(reference);
}

/**
 * The `moneyMoving` option of a call carrying `reference` for `businessId`
 * (its proof is the call's declared one: ./call.ts moneyRequest adds it).
 * With `expected`, every answer and every record found is compared with the
 * request (./match.ts).
 */
export function moneyMoving(
	client: PayOnUsClient,
	source: ReferenceSource,
	businessId: string,
	reference: string,
	expected?: Omit<Expected, 'reference' | 'businessId'>,
	noun?: string,
): Omit<MoneyMovingOptions, 'proof'> {
	const full: Expected | undefined = expected ? { ...expected, reference, businessId } : undefined;
	const check = full ? (record: IDataObject) => compare(full, record) : undefined;
	return {
		reference,
		expected: { ...expected, businessId },
		lookup: async () => await findByReference(client, source, businessId, reference, { check }),
		...(full ? { check, describe: describeExpected(full) } : {}),
		...(noun ? { noun } : {}),
	};
}
