import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import type { PagingStyle } from './paging';
import { PATHS } from './paths';

/**
 * The service's paged lists: where each lives and how it numbers its pages
 * (payment requests: page/size from 0; the others: pageNo/pageSize from 1).
 * The walk itself is ./paging.ts (through client.paginate).
 */

export interface PagedList {
	path: string;
	style: PagingStyle;
}

export const LISTS = {
	payments: { path: PATHS.paymentRequests, style: 'zeroBased' },
	transfers: { path: PATHS.transferRequests, style: 'fromOne' },
	links: { path: PATHS.links, style: 'fromOne' },
	storedCards: { path: PATHS.storedCards, style: 'fromOne' },
} as const satisfies Record<string, PagedList>;

/** The page query of a list: { page, size } or { pageNo, pageSize }, in the list's own numbering. */
export function pageQuery(list: PagedList, page: number, size: number): IDataObject {
	return list.style === 'zeroBased' ? { page, size } : { pageNo: page, pageSize: size };
}

/** The records of an answer that may be a bare array or a page (`content`); [] otherwise. */
export function recordsOf(data: unknown): IDataObject[] {
	if (Array.isArray(data)) return data as IDataObject[];
	const content = (data as IDataObject | null | undefined)?.content;
	return Array.isArray(content) ? (content as IDataObject[]) : [];
}

/**
 * Reads a list with the query: every page (returnAll), or up to `limit`
 * records. Return All + Limit of the list operations, and the poll trigger
 * (which also sets its page size).
 */
export async function readList(
	client: PayOnUsClient,
	list: PagedList,
	qs: IDataObject,
	paging: { returnAll?: boolean; limit?: number; pageSize?: number },
): Promise<IDataObject[]> {
	const returnAll = paging.returnAll === true;
	return await client.paginate<IDataObject>({
		path: list.path,
		qs,
		style: list.style,
		returnAll,
		limit: returnAll ? undefined : paging.limit,
		...(paging.pageSize !== undefined ? { pageSize: paging.pageSize } : {}),
	});
}

/** The records of ONE page of a list (its first by default): a filtered query expected to answer few records. */
export async function fetchPage(
	client: PayOnUsClient,
	list: PagedList,
	qs: IDataObject,
	size: number,
	page = list.style === 'zeroBased' ? 0 : 1,
): Promise<IDataObject[]> {
	return recordsOf(await client.request<unknown>({ method: 'GET', path: list.path, qs: { ...qs, ...pageQuery(list, page, size) } }));
}
