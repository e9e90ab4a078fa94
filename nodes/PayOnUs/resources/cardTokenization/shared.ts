import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';

/**
 * Pieces shared by the card tokenization operations: the paths, the search
 * filters, the removal of anything card-like from output, and the service
 * errors of this area turned into plain sentences.
 */

export const LINKS_PATH = '/api/v1/card-tokenization-links';
export const STORED_CARDS_PATH = '/api/v1/card-tokens';

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

/** The HTTP status of a transport error (NodeApiError.httpCode or similar). */
export function statusOf(error: unknown): number | undefined {
	if (!error || typeof error !== 'object') return undefined;
	const e = error as { httpCode?: unknown; status?: unknown; statusCode?: unknown; context?: { status?: unknown } };
	for (const candidate of [e.httpCode, e.status, e.statusCode, e.context?.status]) {
		const n = typeof candidate === 'string' ? Number(candidate) : candidate;
		if (typeof n === 'number' && Number.isInteger(n) && n >= 100 && n < 600) return n;
	}
	return undefined;
}

/**
 * Rewrites the message of a service error with what it means for this
 * call (the error keeps its type, status and description, so n8n still shows
 * the service's own words). Errors of other statuses pass unchanged.
 */
export function explain(error: unknown, meanings: Partial<Record<number, string>>): unknown {
	const status = statusOf(error);
	const meaning = status === undefined ? undefined : meanings[status];
	if (meaning && error instanceof Error) {
		error.message = `${meaning} (PayOnUs answered ${status})`;
	}
	return error;
}

export const notEnabled = (businessId: string) =>
	`Card tokenization is not enabled for business ${businessId}, or the API client may not use it: enable card tokenization for this business on the PayOnUs dashboard (same environment)`;

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
		{
			displayName: 'Created From',
			name: 'createdFrom',
			type: 'dateTime',
			default: '',
			description: 'Created on or after this date (inclusive)',
		},
		{
			displayName: 'Created To',
			name: 'createdTo',
			type: 'dateTime',
			default: '',
			description: 'Created on or before this date (inclusive)',
		},
	];
}

/** Comma-separated business ids -> the list, each checked. */
export const businessIdList = () =>
	v.optional(
		z
			.string({ invalid_type_error: 'must be text: business IDs separated by commas' })
			.transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== ''))
			.pipe(
				z
					.array(z.string().regex(/^[^\s/?#]+$/, 'must be business IDs separated by commas, e.g. BUS-2001,BUS-2002'))
					.min(1, 'must name at least one business ID'),
			),
	);

export const commonFilterShape = {
	businessIds: businessIdList(),
	createdFrom: v.optional(v.date()),
	createdTo: v.optional(v.date()),
};

/** Query string of the common filters; null when the date range is reversed. */
export function commonFilterQuery(f: { businessIds?: string[]; createdFrom?: string; createdTo?: string }): IDataObject {
	const qs: IDataObject = {};
	// Sent as one comma-separated value: n8n would otherwise write
	// businessIds[0]=..., which a Spring-style service does not read.
	if (f.businessIds && f.businessIds.length > 0) qs.businessIds = f.businessIds.join(',');
	if (f.createdFrom) qs.createdFrom = f.createdFrom;
	if (f.createdTo) qs.createdTo = f.createdTo;
	return qs;
}
