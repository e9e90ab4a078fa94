import type { IDataObject } from 'n8n-workflow';

/**
 * The one page walker behind Return All, the lookup by reference and the
 * poll trigger.
 *
 * The spec's paged shape is `pageNo, pageSize, lastPage, totalNumberOfItems,
 * content`; the payment request list's prose adds `page, size,
 * totalElements, totalPages`. The service may cap the page size below what
 * was asked (no maximum is documented), so a page shorter than the size
 * ASKED proves nothing. The walk ends on, in this order:
 *  1. an empty page;
 *  2. the records seen reaching `totalNumberOfItems` / `totalElements`;
 *  3. the page number reaching `totalPages`, or `lastPage` (in the list's own
 *     numbering: pageNo from 1, or page from 0);
 *  4. with none of those, a page shorter than the page size the ANSWER
 *     states (`pageSize` / `size`);
 *  5. a bare array (no paging at all);
 *  6. a page holding exactly the records of the page before (the service
 *     ignores the page number: there is nothing more to read).
 * It never walks more than `maxPages` pages: hitting that bound while the
 * list says there is more throws a PageLimitError (never a silent partial
 * result).
 */

export type PagingStyle = 'zeroBased' | 'fromOne';

export interface PageInfo {
	/** Records of this page. */
	content: IDataObject[];
	/** Total records, when the answer says. */
	total?: number;
	/** Number of pages, when the answer says (totalPages, or derived from lastPage). */
	pageCount?: number;
	/** The page size the answer states (pageSize / size). */
	statedSize?: number;
	/** True for a bare array (no paging). */
	bare: boolean;
}

function num(v: unknown): number | undefined {
	const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
	return Number.isFinite(n) ? n : undefined;
}

/** Reads one answer of a paged list (the envelope's `data`). */
export function readPage(data: unknown, style: PagingStyle): PageInfo {
	if (Array.isArray(data)) return { content: data as IDataObject[], bare: true };
	const d = (data && typeof data === 'object' ? data : {}) as IDataObject;
	const content = Array.isArray(d.content) ? (d.content as IDataObject[]) : [];
	const total = num(d.totalNumberOfItems) ?? num(d.totalElements);
	const totalPages = num(d.totalPages);
	const lastPage = num(d.lastPage);
	let pageCount: number | undefined = totalPages;
	if (pageCount === undefined && lastPage !== undefined) pageCount = style === 'zeroBased' ? lastPage + 1 : lastPage;
	const statedSize = num(d.pageSize) ?? num(d.size);
	return { content, total, pageCount, statedSize, bare: false };
}

/** Thrown when a walk hits its page bound while the list says there is more. */
export class PageLimitError extends Error {
	constructor(
		readonly path: string,
		readonly pages: number,
		readonly records: number,
		readonly total: number | undefined,
	) {
		super(
			`Stopped reading ${path} after ${pages} page(s) (${records} record(s)) although the list ${
				total !== undefined ? `says it holds ${total}` : 'says there is more'
			}: the bound of ${pages} pages was reached`,
		);
		this.name = 'PageLimitError';
	}
}

export interface WalkOptions {
	path: string;
	style: PagingStyle;
	/** Page size asked for (the service may answer fewer). */
	pageSize: number;
	/** Bound on the pages read. */
	maxPages: number;
	/** Fetches one page: `page` in the list's own numbering (from 0 or from 1). */
	fetch: (page: number, size: number) => Promise<unknown>;
	/** Called with each page's records; return true to stop walking (found what was wanted). */
	onPage: (records: IDataObject[], info: PageInfo, page: number) => boolean | void;
	/**
	 * Pages fetched ahead at most, once the first page tells how many pages
	 * there are (default 1: one page after another). The pages are still
	 * taken in order through the same rules: fetching ahead changes when a
	 * page is asked for, never which records are returned or when the walk
	 * ends; a page fetched ahead that the walk does not reach is dropped.
	 */
	parallel?: number;
	/** With `parallel`: pages wanted at most (e.g. a limit's worth). */
	wantedPages?: number;
}

/**
 * Pages the list holds, as told by its first page: its page count, or its
 * total over the page size the answer states (or, stating none, the size
 * asked when the page is full). Undefined when the first page cannot tell.
 */
export function knownPageCount(info: PageInfo, askedSize: number): number | undefined {
	if (info.bare) return undefined;
	if (info.pageCount !== undefined && info.pageCount >= 1) return Math.floor(info.pageCount);
	if (info.total === undefined) return undefined;
	const size = info.statedSize ?? (info.content.length === askedSize ? askedSize : undefined);
	if (size === undefined || size < 1) return undefined;
	return Math.max(1, Math.ceil(info.total / size));
}

/** Fetches pages [from, to) ahead of the walk, at most `parallel` in flight; `take` hands a page's answer over (or fetches it then). */
class PagesAhead {
	private readonly pages = new Map<number, Promise<unknown>>();
	private next: number;
	private inFlight = 0;
	private stopped = false;

	constructor(
		private readonly fetch: (index: number) => Promise<unknown>,
		from: number,
		private readonly to: number,
		private readonly parallel: number,
	) {
		this.next = from;
		this.fill();
	}

	private fill(): void {
		while (!this.stopped && this.inFlight < this.parallel && this.next < this.to) {
			const index = this.next++;
			this.inFlight++;
			const page = this.fetch(index).finally(() => {
				this.inFlight--;
				this.fill();
			});
			// Awaited by take(); a page the walk never reaches must not be an unhandled rejection.
			page.catch(() => undefined);
			this.pages.set(index, page);
		}
	}

	async take(index: number): Promise<unknown> {
		const page = this.pages.get(index);
		if (!page) return await this.fetch(index);
		this.pages.delete(index);
		return await page;
	}

	stop(): void {
		this.stopped = true;
	}
}

export interface WalkResult {
	pages: number;
	records: number;
	/** True when the walk read the whole list (not stopped by onPage). */
	complete: boolean;
	total?: number;
}

/** True when the list has more pages after `pageIndex` (0-based count of pages read - 1). */
export function hasMore(info: PageInfo, pageIndex: number, seen: number): boolean {
	if (info.bare || info.content.length === 0) return false;
	if (info.total !== undefined) return seen < info.total;
	if (info.pageCount !== undefined) return pageIndex + 1 < info.pageCount;
	if (info.statedSize !== undefined) return info.content.length >= info.statedSize;
	return true;
}

/** Identity of a page's records (onusReference, id, or the whole record). */
function pageSignature(records: IDataObject[]): string {
	if (records.length === 0) return '';
	return records.map((r) => String(r.onusReference ?? r.id ?? JSON.stringify(r))).join('|');
}

/** Walks the pages forward from the first. */
export async function walkPages(opts: WalkOptions): Promise<WalkResult> {
	const first = opts.style === 'zeroBased' ? 0 : 1;
	let seen = 0;
	let total: number | undefined;
	let previous = '';
	let ahead: PagesAhead | undefined;
	const fetchIndex = async (index: number) => await opts.fetch(first + index, opts.pageSize);
	try {
		for (let index = 0; ; index++) {
			if (index >= opts.maxPages) throw new PageLimitError(opts.path, index, seen, total);
			const info = readPage(await (ahead ? ahead.take(index) : fetchIndex(index)), opts.style);
			if (index === 0 && (opts.parallel ?? 1) > 1) {
				const count = knownPageCount(info, opts.pageSize);
				const to = Math.min(count ?? 0, opts.maxPages, opts.wantedPages ?? Infinity);
				if (to > 1) ahead = new PagesAhead(fetchIndex, 1, to, Math.floor(opts.parallel ?? 1));
			}
			const end = step(info, index);
			if (end) return end;
		}
	} finally {
		ahead?.stop();
	}

	function step(info: PageInfo, index: number): WalkResult | undefined {
		const signature = pageSignature(info.content);
		if (index > 0 && signature !== '' && signature === previous) return { pages: index + 1, records: seen, complete: true, total };
		previous = signature;
		seen += info.content.length;
		total = info.total ?? total;
		if (opts.onPage(info.content, info, first + index) === true) return { pages: index + 1, records: seen, complete: false, total };
		if (!hasMore(info, index, seen)) return { pages: index + 1, records: seen, complete: true, total };
		return undefined;
	}
}

export interface CollectOptions {
	path: string;
	qs?: IDataObject;
	style: PagingStyle;
	/** Records wanted at most (undefined: all). */
	limit?: number;
	pageSize: number;
	maxPages: number;
	/** Pages in flight at most once the first page tells how many there are (default 1). */
	parallel?: number;
}

/**
 * Reads the records of a list: all of them, or up to `limit`. The page
 * query (page/size or pageNo/pageSize) is added to `qs`. `get` sends one
 * GET and returns the envelope's data. Used by client.paginate (Return All,
 * the searches) and the poll trigger.
 */
export async function collectPages(
	get: (path: string, qs: IDataObject) => Promise<unknown>,
	opts: CollectOptions,
): Promise<IDataObject[]> {
	const limit = opts.limit ?? Infinity;
	const out: IDataObject[] = [];
	if (limit <= 0) return out;
	const size = Math.max(1, Math.floor(Number.isFinite(limit) ? Math.min(opts.pageSize, limit) : opts.pageSize));
	await walkPages({
		path: opts.path,
		style: opts.style,
		pageSize: size,
		maxPages: opts.maxPages,
		parallel: opts.parallel,
		wantedPages: Number.isFinite(limit) ? Math.ceil(limit / size) : undefined,
		fetch: async (page, pageSize) =>
			await get(opts.path, {
				...(opts.qs ?? {}),
				...(opts.style === 'zeroBased' ? { page, size: pageSize } : { pageNo: page, pageSize }),
			}),
		onPage: (records) => {
			for (const r of records) {
				if (out.length >= limit) break;
				out.push(r);
			}
			return out.length >= limit;
		},
	});
	return out;
}
