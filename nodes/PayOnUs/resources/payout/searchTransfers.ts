import { z } from 'zod/v3';
import { date, group, identifier, oneOf, optional, reference } from '../../../shared/validation';
import { businessIdFilter, dateFilter, merchantIdField, statusFilter } from '../fields';
import { LISTS, readList } from '../../../shared/api';
import { checkDateRange, givenFilters, limitWhenNotAll, pagingShape, searchProperties } from '../search';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { resolveMerchantId } from './shared';
import { toTransfer } from '../../../shared/records';

/**
 * Search Transfers: GET /api/v1/transfer-requests, pageNo from 1. The spec
 * documents merchantId and onusReference; the other filters are the ones
 * DESIGN.md records as agreed with the sandbox.
 */

const STATUSES = ['PENDING', 'SUCCESSFUL', 'FAILED'] as const;

const schema = z
	.object({
		merchantId: optional(identifier('MER-1001')),
		...pagingShape,
		filters: group({
			businessId: optional(identifier('BUS-2001')),
			fromDate: optional(date()),
			merchantReference: optional(reference()),
			onusReference: optional(identifier('ONUS-TRNF-1234567890123-31052024-101500')),
			status: optional(oneOf(STATUSES)),
			toDate: optional(date()),
		}),
	})
	.superRefine(limitWhenNotAll);

export const searchTransfers: PayOnUsOperation<typeof schema> = {
	value: 'searchTransfers',
	name: 'Get Many Transfers',
	action: 'Get many transfers',
	description:
		'Search the transfers (payouts) of the merchant, newest first, filtered by business, status, reference or creation date. Returns one item per transfer with its status, amount and fee (read only).',
	properties: [
		merchantIdField(),
		...searchProperties([
			businessIdFilter("Only this business's transfers (empty: every business of the merchant)"),
			dateFilter('fromDate', 'From Date', 'Created on or after this date (YYYY-MM-DD)'),
			{
				displayName: 'Merchant Reference',
				name: 'merchantReference',
				type: 'string',
				default: '',
				description: 'Your reference of the transfer',
			},
			{ displayName: 'PayOnUs Reference', name: 'onusReference', type: 'string', default: '' },
			statusFilter(STATUSES, 'PENDING'),
			dateFilter('toDate', 'To Date', 'Created on or before this date (YYYY-MM-DD)'),
		]),
	],
	schema,
	effect: 'read',
	outputRecord: 'transfer',
	paging: true,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input) {
		const merchantId = resolveMerchantId(ctx.client, input.merchantId, 'to search transfers');
		const f = input.filters;
		checkDateRange(f, 'fromDate', 'toDate');
		const records = await readList(ctx.client, LISTS.transfers, { merchantId, ...givenFilters(f) }, input);
		// The undocumented filters are checked here too.
		return records
			.map(toTransfer)
			.filter(
				(r) =>
					(f.merchantReference === undefined || r.merchantReference === f.merchantReference) &&
					(f.onusReference === undefined || r.onusReference === f.onusReference) &&
					(f.status === undefined || r.paymentStatus === f.status),
			);
	},
};
