/** The two paging styles of the service, both returning the spec's paged shape. */
import { qInt } from './validate';
import { STRICT_PAGE_SIZE, type Profiles } from './profiles';

/** Profile effects shared by every list: order (oldest-first) and the page size cap (strict-paging). */
function shaped<T>(items: T[], asked: number, profiles?: Profiles): { items: T[]; size: number } {
	const ordered = profiles?.has('oldest-first') ? [...items].reverse() : items;
	const size = profiles?.has('strict-paging') ? Math.min(asked, STRICT_PAGE_SIZE) : asked;
	return { items: ordered, size };
}

export const MAX_PAGE_SIZE = 200;

export interface Paged<T> {
	pageNo: number;
	pageSize: number;
	lastPage: number;
	totalNumberOfItems: number;
	content: T[];
}

/** Links, card tokens, transfers: `pageNo` from 1, `pageSize` default 30. `lastPage` = number of the last page (>= 1). */
export function pageFromOne<T, V = T>(all: T[], q: URLSearchParams, view?: (item: T) => V, profiles?: Profiles): Paged<V> {
	const pageNo = qInt(q, 'pageNo', 1, 1, 1_000_000);
	const { items, size: pageSize } = shaped(all, qInt(q, 'pageSize', 30, 1, MAX_PAGE_SIZE), profiles);
	const start = (pageNo - 1) * pageSize;
	return {
		pageNo,
		pageSize,
		lastPage: Math.max(1, Math.ceil(items.length / pageSize)),
		totalNumberOfItems: items.length,
		// `view` maps only the page (mapping every record per page made Return All quadratic).
		content: view ? items.slice(start, start + pageSize).map(view) : (items.slice(start, start + pageSize) as unknown as V[]),
	};
}

/**
 * Payment requests: `page` zero-based, `size` default 20. `pageNo` echoes the
 * zero-based page and `lastPage` is the zero-based index of the last page; the
 * prose fields `page`, `size`, `totalElements`, `totalPages` are included too.
 */
export function pageZeroBased<T, V = T>(
	all: T[],
	q: URLSearchParams,
	view?: (item: T) => V,
	profiles?: Profiles,
): Partial<Paged<V>> & Record<string, unknown> {
	const page = qInt(q, 'page', 0, 0, 1_000_000);
	const { items, size } = shaped(all, qInt(q, 'size', 20, 1, MAX_PAGE_SIZE), profiles);
	const totalPages = Math.ceil(items.length / size);
	const content = view ? items.slice(page * size, page * size + size).map(view) : (items.slice(page * size, page * size + size) as unknown as V[]);
	if (profiles?.has('prose-paging-fields')) {
		// Only the fields of the spec's prose description of this list.
		return { content, page, size, totalElements: items.length, totalPages, sort: profiles.has('oldest-first') ? 'createdDate,asc' : 'createdDate,desc' };
	}
	return {
		pageNo: page,
		pageSize: size,
		lastPage: Math.max(0, totalPages - 1),
		totalNumberOfItems: items.length,
		content,
		page,
		size,
		totalElements: items.length,
		totalPages,
		sort: profiles?.has('oldest-first') ? 'createdDate,asc' : 'createdDate,desc',
	};
}
