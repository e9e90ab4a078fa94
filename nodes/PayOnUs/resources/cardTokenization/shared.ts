import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import { readList, type PagedList } from '../../../shared/api';
import type { PayOnUsClient } from '../../../shared/clientInterface';
import * as v from '../../../shared/validation';
import { explain, type Meaning } from '../../../shared/errors';
import { dateFilter } from '../fields';
import { checkDateRange, givenFilters } from '../search';

/**
 * Pieces shared by the card tokenization operations: the search filters, the removal of anything card-like from output, and the
 * "not enabled" sentence of this area (statuses are read by shared/errors/).
 */

export const LINK_STATUSES = ['PENDING', 'COMPLETED', 'EXPIRED', 'CANCELLED'] as const;

/** Keys that would hold card data; never output. `maskedPan` is allowed. */
const CARD_KEY = /^(cardnumber|card_number|pan|cvv|cvv2|cvc|carddata|card_data|expiry|expirydate|expiry_date|pin)$/i;
/** An unmasked card-like number: 13 to 19 digits in a row. */
const CARD_NUMBER = /^\d{13,19}$/;

/**
 * A copy of a service record without card data: card-data keys are dropped
 * and any value that is a bare 13-19 digit number is masked to its last 4.
 */
export function withoutCardData<T>(value: T, depth = 0): T {
	if (depth > 6) return value;
	if (Array.isArray(value)) return value.map((x) => withoutCardData(x, depth + 1)) as T;
	if (value && typeof value === 'object') {
		const out: IDataObject = {};
		for (const [k, x] of Object.entries(value as IDataObject)) {
			if (CARD_KEY.test(k)) continue;
			out[k] = withoutCardData(x, depth + 1) as IDataObject[keyof IDataObject];
		}
		return out as T;
	}
	if (typeof value === 'string' && CARD_NUMBER.test(value)) return `****${value.slice(-4)}` as T;
	return value;
}

export const notEnabled = (businessId: string): Meaning => ({
	title: `Card tokenization is not enabled for business ${businessId}`,
	todo: 'Enable card tokenization for this business on the PayOnUs dashboard (same environment), or check that this API client may use it.',
});

/** Search filters both searches share (spec: Search links / Search card tokens). */
export function commonFilterOptions(): INodeProperties[] {
	return [
		{
			displayName: 'Business IDs',
			name: 'businessIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. BUS-2001,BUS-2002',
			description: "Comma-separated business IDs. Leave out for all the merchant's businesses.",
		},
		dateFilter('createdFrom', 'Created From', 'Created on or after this date (inclusive)'),
		dateFilter('createdTo', 'Created To', 'Created on or before this date (inclusive)'),
	];
}

/**
 * Comma-separated business ids, each checked, sent back as one
 * comma-separated value: n8n would write a list as businessIds[0]=...,
 * which a Spring-style service does not read.
 */
export const businessIdList = () =>
	v.optional(
		z
			.string({ invalid_type_error: 'must be text: business IDs separated by commas' })
			.transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== ''))
			.pipe(
				z
					.array(z.string().regex(/^[^\s/?#]+$/, 'must be business IDs separated by commas, e.g. BUS-2001,BUS-2002'))
					.min(1, 'must name at least one business ID'),
			)
			.transform((ids) => ids.join(',')),
	);

export const commonFilterShape = {
	businessIds: businessIdList(),
	createdFrom: v.optional(v.date()),
	createdTo: v.optional(v.date()),
};

/**
 * Runs one of the two searches (links or card tokens) of a merchant: the
 * date range checked, the filters given sent, pages from 1, card data
 * stripped from every record, a 403 explained.
 */
export async function searchMerchantRecords(
	client: PayOnUsClient,
	list: PagedList,
	what: string,
	input: { merchantId: string; returnAll?: boolean; limit?: number; filters: { createdFrom?: string; createdTo?: string } },
): Promise<IDataObject[]> {
	checkDateRange(input.filters, 'createdFrom', 'createdTo');
	try {
		const records = await readList(client, list, { merchantId: input.merchantId, ...givenFilters(input.filters) }, input);
		return withoutCardData(records);
	} catch (error) {
		throw explain(error, {
			403: {
				title: `Searching ${what} refused for merchant ${input.merchantId}`,
				todo: 'Check that this API client may read them and that card tokenization is enabled for the businesses searched (PayOnUs dashboard).',
			},
		});
	}
}
