import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import * as v from '../../shared/validation';
import { humanize } from '../../shared/validation';
import { filtersField, returnAllFields } from './fields';
import { PayOnUsInputError } from './types';

/**
 * The pattern every list/search operation shares: Return All + Limit, a
 * Filters collection, and the filters given sent as the query. The pages are
 * walked by shared/api (readList; one output item per record).
 */

/** Return All + Limit, then the Filters collection. */
export function searchProperties(filterOptions: INodeProperties[]): INodeProperties[] {
	return [...returnAllFields(), filtersField(filterOptions)];
}

/** zod shape of Return All + Limit (Return All off when not given). */
export const pagingShape = {
	returnAll: v.optional(v.bool()),
	limit: v.optional(v.integer(1)),
};

/** Refinement of a search schema: Limit is needed when Return All is off. */
export function limitWhenNotAll(input: { returnAll?: boolean; limit?: number }, ctx: z.RefinementCtx): void {
	if (input.returnAll !== true && input.limit === undefined) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['limit'], message: 'is required when Return All is off' });
	}
}

/** The filters that were given (empty ones are not sent). */
export function givenFilters(filters: object): IDataObject {
	const qs: IDataObject = {};
	for (const [key, value] of Object.entries(filters)) {
		if (value !== undefined) qs[key] = value as IDataObject[keyof IDataObject];
	}
	return qs;
}

/** Refuses a date range whose end comes before its start (names are filter names). */
export function checkDateRange(filters: Record<string, unknown>, from: string, to: string): void {
	const start = filters[from];
	const end = filters[to];
	if (typeof start === 'string' && typeof end === 'string' && start > end) {
		throw new PayOnUsInputError(`filters.${to}`, `must be on or after "${humanize(from)}"`);
	}
}
