import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { returnAllFields } from '../fields';
import type { PayOnUsOperation } from '../types';

/**
 * List payments: GET /api/v1/payment-requests with every documented filter;
 * the zero-based page/size paging is walked by the client. One item per
 * payment request.
 */

const STATUSES = ['PROCESSING', 'PENDING', 'SUCCESSFUL', 'FAILED'] as const;

const schema = z
	.object({
		returnAll: v.bool(),
		limit: v.optional(v.integer(1)),
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
		const { fromDate, toDate } = input.filters;
		if (fromDate && toDate && fromDate > toDate) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['filters', 'toDate'], message: 'must not be before fromDate' });
		}
		if (!input.returnAll && input.limit === undefined) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['limit'], message: 'is required when Return All is off' });
		}
	});

type Input = z.infer<typeof schema>;

export const listPayments: PayOnUsOperation<typeof schema> = {
	resource: 'payin',
	value: 'listPayments',
	name: 'List Payments',
	action: 'List payments',
	description:
		'List payins (payment requests), newest first, filtered by status, business, reference, onusReference or creation date; all of them or up to a limit (read only)',
	properties: [
		...returnAllFields(),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Business ID',
					name: 'businessId',
					type: 'string',
					default: '',
					placeholder: 'e.g. BUS-2001',
					description: "Only this business's payments (empty: every business of the merchant)",
				},
				{
					displayName: 'From Date',
					name: 'fromDate',
					type: 'dateTime',
					default: '',
					description: 'Created on or after this day (YYYY-MM-DD, UTC)',
				},
				{
					displayName: 'Onus Reference',
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
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					options: [
						{ name: 'Failed', value: 'FAILED' },
						{ name: 'Pending', value: 'PENDING' },
						{ name: 'Processing', value: 'PROCESSING' },
						{ name: 'Successful', value: 'SUCCESSFUL' },
					],
					default: 'SUCCESSFUL',
				},
				{
					displayName: 'To Date',
					name: 'toDate',
					type: 'dateTime',
					default: '',
					description: 'Created on or before this day (YYYY-MM-DD, UTC)',
				},
			],
		},
	],
	schema,
	async execute({ client }, input: Input) {
		const qs: IDataObject = {};
		for (const [key, value] of Object.entries(input.filters)) {
			if (value !== undefined) qs[key] = value;
		}
		return await client.paginate<IDataObject>({
			path: '/api/v1/payment-requests',
			qs,
			style: 'zeroBased',
			returnAll: input.returnAll,
			limit: input.returnAll ? undefined : input.limit,
		});
	},
};
