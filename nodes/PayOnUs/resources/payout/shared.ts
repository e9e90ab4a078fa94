import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../../../shared/client';
import { PayOnUsInputError } from '../types';

/**
 * Pieces shared by the payout operations: the business / merchant defaults,
 * the transfer lookup by reference (the money-safety check) and the
 * beneficiary-name comparison.
 */

export const TRANSFERS_PATH = '/api/v1/transfer-requests';

export function resolveBusinessId(client: PayOnUsClient, given: string | undefined): string {
	const id = given ?? client.defaults.businessId;
	if (!id) {
		throw new PayOnUsInputError(
			'businessId',
			'is required: choose a Business or set a Default Business ID in the PayOnUs API credential',
		);
	}
	return id;
}

export function resolveMerchantId(client: PayOnUsClient, given: string | undefined, why: string): string {
	const id = given ?? client.defaults.merchantId;
	if (!id) {
		throw new PayOnUsInputError(
			'merchantId',
			`is required ${why}: set a Default Merchant ID in the PayOnUs API credential`,
		);
	}
	return id;
}

/** Page size of the lookup scan, and how many pages it reads at most. */
export const LOOKUP_PAGE_SIZE = 100;
export const LOOKUP_MAX_PAGES = 10;

interface PagedData {
	content?: IDataObject[];
	lastPage?: number;
	pageNo?: number;
}

function matches(record: IDataObject, reference: string, businessId: string): boolean {
	if (record.merchantReference !== reference) return false;
	// The transfer record of the spec carries no businessId; when the service
	// adds one, it must be ours (references are unique per business only).
	return record.businessId === undefined || record.businessId === null || record.businessId === businessId;
}

/**
 * Finds transfers by their merchant reference. The search filters
 * `merchantReference` and `businessId` are not documented (DESIGN.md: shapes
 * the spec leaves open), so they are sent but never trusted: every record is
 * checked here. When the filtered answer holds records but none match, the
 * filter was ignored, and the newest pages (newest first) are scanned, up to
 * LOOKUP_MAX_PAGES pages of LOOKUP_PAGE_SIZE.
 *
 * Returns a map reference -> record for the references found.
 */
export async function findTransfersByReference(
	client: PayOnUsClient,
	merchantId: string,
	businessId: string,
	references: string[],
): Promise<Map<string, IDataObject>> {
	const wanted = new Set(references);
	const found = new Map<string, IDataObject>();
	const take = (records: IDataObject[] | undefined) => {
		for (const record of records ?? []) {
			const ref = record.merchantReference;
			if (typeof ref === 'string' && wanted.has(ref) && !found.has(ref) && matches(record, ref, businessId)) {
				found.set(ref, record);
			}
		}
	};

	// 1. The filtered query, for one reference (the common case).
	if (references.length === 1) {
		const first = await client.request<PagedData>({
			method: 'GET',
			path: TRANSFERS_PATH,
			qs: { merchantId, merchantReference: references[0], businessId, pageNo: 1, pageSize: LOOKUP_PAGE_SIZE },
		});
		take(first?.content);
		if (found.size === 1) return found;
		const content = first?.content ?? [];
		const filterHonoured = content.every((r) => r.merchantReference === references[0]);
		// An empty or all-matching answer means the filter works: no record.
		if (filterHonoured) return found;
	}

	// 2. The filter is ignored (or many references): scan the newest pages.
	for (let pageNo = 1; pageNo <= LOOKUP_MAX_PAGES; pageNo++) {
		const page = await client.request<PagedData>({
			method: 'GET',
			path: TRANSFERS_PATH,
			qs: { merchantId, businessId, pageNo, pageSize: LOOKUP_PAGE_SIZE },
		});
		const content = page?.content ?? [];
		take(content);
		if (found.size === wanted.size) break;
		if (content.length < LOOKUP_PAGE_SIZE) break;
		if (typeof page?.lastPage === 'number' && pageNo >= page.lastPage) break;
	}
	return found;
}

/** The lookup a single money-moving transfer passes to the transport. */
export function transferLookup(
	client: PayOnUsClient,
	merchantId: string,
	businessId: string,
	reference: string,
): () => Promise<IDataObject | undefined> {
	return async () => (await findTransfersByReference(client, merchantId, businessId, [reference])).get(reference);
}

/**
 * Beneficiary-name rule: two names match when they are equal after
 * lower-casing, trimming and collapsing every run of white space to one
 * space. Nothing else is forgiven (no reordering, no initials, no
 * punctuation), because a near miss on a payout name is what the check is
 * for.
 */
export function normaliseName(name: string): string {
	return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export function namesMatch(a: string, b: string): boolean {
	return normaliseName(a) === normaliseName(b);
}
