import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';
import { bool, date, group, identifier, integer, oneOf, optional, reference } from '../../../shared/validation';
import { merchantIdField, returnAllFields } from '../fields';
import type { OperationContext, PayOnUsOperation } from '../types';
import { PayOnUsInputError } from '../types';
import { resolveMerchantId, TRANSFERS_PATH } from './shared';

/**
 * Search Transfers: GET /api/v1/transfer-requests, pageNo from 1. The spec
 * documents merchantId and onusReference; the other filters are the ones
 * DESIGN.md records as agreed with the sandbox.
 */

const STATUSES = ['PENDING', 'SUCCESSFUL', 'FAILED'] as const;

const properties: INodeProperties[] = [
	merchantIdField(),
	...returnAllFields(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ displayName: 'Business ID', name: 'businessId', type: 'string', default: '' },
			{
				displayName: 'From Date',
				name: 'fromDate',
				type: 'dateTime',
				default: '',
				description: 'Created on or after this date (YYYY-MM-DD)',
			},
			{
				displayName: 'Merchant Reference',
				name: 'merchantReference',
				type: 'string',
				default: '',
				description: 'Your reference of the transfer',
			},
			{ displayName: 'Onus Reference', name: 'onusReference', type: 'string', default: '' },
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Failed', value: 'FAILED' },
					{ name: 'Pending', value: 'PENDING' },
					{ name: 'Successful', value: 'SUCCESSFUL' },
				],
				default: 'PENDING',
			},
			{
				displayName: 'To Date',
				name: 'toDate',
				type: 'dateTime',
				default: '',
				description: 'Created on or before this date (YYYY-MM-DD)',
			},
		],
	},
];

const schema = z.object({
	merchantId: optional(identifier('MER-1001')),
	returnAll: optional(bool()),
	limit: optional(integer(1)),
	filters: group({
		businessId: optional(identifier('BUS-2001')),
		fromDate: optional(date()),
		merchantReference: optional(reference()),
		onusReference: optional(identifier('ONUS-TRNF-1234567890123-31052024-101500')),
		status: optional(oneOf(STATUSES)),
		toDate: optional(date()),
	}),
});

export const searchTransfersOperation: PayOnUsOperation<typeof schema> = {
	resource: 'payout',
	value: 'searchTransfers',
	name: 'Search Transfers',
	action: 'Search transfers',
	description: 'Search transfers of the merchant, newest first (one item per transfer)',
	properties,
	schema,
	async execute(ctx: OperationContext, input) {
		const merchantId = resolveMerchantId(ctx.client, input.merchantId, 'to search transfers');
		const f = input.filters;
		if (f.fromDate && f.toDate && f.fromDate > f.toDate) {
			throw new PayOnUsInputError('filters.toDate', 'must be on or after "filters.fromDate"');
		}
		const qs: IDataObject = { merchantId };
		for (const [key, value] of Object.entries(f)) if (value !== undefined) qs[key] = value;
		const returnAll = input.returnAll === true;
		const records = await ctx.client.paginate<IDataObject>({
			path: TRANSFERS_PATH,
			qs,
			style: 'fromOne',
			returnAll,
			limit: returnAll ? undefined : (input.limit ?? 50),
		});
		// The undocumented filters are checked here too.
		return records.filter(
			(r) =>
				(f.merchantReference === undefined || r.merchantReference === f.merchantReference) &&
				(f.onusReference === undefined || r.onusReference === f.onusReference) &&
				(f.status === undefined || r.paymentStatus === f.status),
		);
	},
};
