import { z } from 'zod/v3';
import * as v from '../../../shared/validation';
import { merchantIdField, statusFilter } from '../fields';
import { limitWhenNotAll, pagingShape, searchProperties } from '../search';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { LISTS } from '../../../shared/api';
import { commonFilterOptions, commonFilterShape, LINK_STATUSES, searchMerchantRecords } from './shared';

/** Search Links: GET /api/v1/card-tokenization-links, pageNo from 1. */

const schema = z
	.object({
		merchantId: v.merchantId(),
		...pagingShape,
		filters: v.group({
			...commonFilterShape,
			hasCardToken: v.optional(v.bool()),
			id: v.optional(v.identifier('a link id')),
			merchantReference: v.optional(v.reference(100)),
			status: v.optional(v.oneOf(LINK_STATUSES)),
		}),
	})
	.superRefine(limitWhenNotAll);

type Input = z.infer<typeof schema>;

export const searchLinks: PayOnUsOperation<typeof schema> = {
	value: 'searchLinks',
	name: 'Get Many Links',
	action: 'Get many card tokenization links',
	description:
		'Search the card tokenization links of the merchant, filtered by business, status, reference or creation date. Returns one item per link with its status and URL (read only).',
	properties: [
		merchantIdField(),
		...searchProperties([
			...commonFilterOptions(),
			{
				displayName: 'Has Card Token',
				name: 'hasCardToken',
				type: 'boolean',
				default: true,
				description: 'Whether to return only links that produced a card token (true) or only the others (false)',
			},
			{ displayName: 'Link ID', name: 'id', type: 'string', default: '' },
			{ displayName: 'Merchant Reference', name: 'merchantReference', type: 'string', default: '' },
			statusFilter(LINK_STATUSES, 'PENDING'),
		]),
	],
	schema,
	effect: 'read',
	outputRecord: 'cardLink',
	paging: true,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input: Input) {
		return await searchMerchantRecords(ctx.client, LISTS.links, 'tokenization links', input);
	},
};
