import { z } from 'zod/v3';
import { LISTS, readList } from '../../../shared/api';
import * as v from '../../../shared/validation';
import { businessIdFilter, dateFilter, statusFilter } from '../fields';
import { givenFilters, limitWhenNotAll, pagingShape, searchProperties } from '../search';
import { itemByItem, type PayOnUsOperation } from '../types';
import { toPayin } from '../../../shared/records';

/**
 * List payments: GET /api/v1/payment-requests with every documented filter;
 * the zero-based page/size paging is walked by the client. One item per
 * payment request.
 */

const STATUSES = ['PROCESSING', 'PENDING', 'SUCCESSFUL', 'FAILED'] as const;

const schema = z
	.object({
		...pagingShape,
		filters: v.group({
			status: v.optional(v.oneOf(STATUSES)),
			businessId: v.optional(v.businessId()),
			reference: v.optionalText(100),
			onusReference: v.optional(v.onusReference()),
			fromDate: v.optional(v.date()),
			toDate: v.optional(v.date()),
		}),
	})
	.superRefine((input, ctx) => {
		// The documented filters are checked before sending (the other
		// searches check their date range in the handler).
		const { fromDate, toDate } = input.filters;
		if (fromDate && toDate && fromDate > toDate) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['filters', 'toDate'], message: 'must not be before "From Date"' });
		}
		limitWhenNotAll(input, ctx);
	});

type Input = z.infer<typeof schema>;

export const listPayments: PayOnUsOperation<typeof schema> = {
	value: 'listPayments',
	name: 'Get Many Payments',
	action: 'Get many payments',
	description:
		'List payins (payment requests), newest first, filtered by status, business, reference, onusReference or creation date; all of them or up to a limit. Returns one item per payment with its status and amount (read only).',
	properties: searchProperties([
		businessIdFilter("Only this business's payments (empty: every business of the merchant)"),
		dateFilter('fromDate', 'From Date', 'Created on or after this day (YYYY-MM-DD, UTC)'),
		{
			displayName: 'PayOnUs Reference',
			name: 'onusReference',
			type: 'string',
			default: '',
			description: 'The reference PayOnUs gave the payin',
		},
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			description: 'Your own (merchant) reference',
		},
		statusFilter(STATUSES, 'SUCCESSFUL'),
		dateFilter('toDate', 'To Date', 'Created on or before this day (YYYY-MM-DD, UTC)'),
	]),
	schema,
	effect: 'read',
	outputRecord: 'payment',
	paging: true,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const records = await readList(client, LISTS.payments, givenFilters(input.filters), input);
		return records.map(toPayin);
	},
};
