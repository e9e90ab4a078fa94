import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { merchantIdField, returnAllFields } from '../fields';
import type { OperationContext, PayOnUsOperation } from '../types';
import { PayOnUsInputError } from '../types';
import {
	commonFilterOptions,
	commonFilterQuery,
	commonFilterShape,
	explain,
	LINK_STATUSES,
	LINKS_PATH,
	withoutCardData,
} from './shared';

/** Search Links: GET /api/v1/card-tokenization-links, pageNo from 1. */

const schema = z.object({
	merchantId: v.merchantId(),
	returnAll: v.optional(v.bool()),
	limit: v.optional(v.integer(1)),
	filters: v.group({
		...commonFilterShape,
		hasCardToken: v.optional(v.bool()),
		id: v.optional(v.identifier('a link id')),
		merchantReference: v.optional(v.reference(100)),
		status: v.optional(v.oneOf(LINK_STATUSES)),
	}),
});

type Input = z.infer<typeof schema>;

export const searchLinksOperation: PayOnUsOperation<typeof schema> = {
	resource: 'cardTokenization',
	value: 'searchLinks',
	name: 'Search Links',
	action: 'Search card tokenization links',
	description: 'Search tokenization links of the merchant (one item per link)',
	properties: [
		merchantIdField(),
		...returnAllFields(),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
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
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					options: [
						{ name: 'Cancelled', value: 'CANCELLED' },
						{ name: 'Completed', value: 'COMPLETED' },
						{ name: 'Expired', value: 'EXPIRED' },
						{ name: 'Pending', value: 'PENDING' },
					],
					default: 'PENDING',
				},
			],
		},
	],
	schema,
	async execute(ctx: OperationContext, input: Input) {
		const f = input.filters;
		if (f.createdFrom && f.createdTo && f.createdFrom > f.createdTo) {
			throw new PayOnUsInputError('filters.createdTo', 'must be on or after "filters.createdFrom"');
		}
		const qs: IDataObject = { merchantId: input.merchantId, ...commonFilterQuery(f) };
		if (f.id !== undefined) qs.id = f.id;
		if (f.merchantReference !== undefined) qs.merchantReference = f.merchantReference;
		if (f.status !== undefined) qs.status = f.status;
		if (f.hasCardToken !== undefined) qs.hasCardToken = f.hasCardToken;
		const returnAll = input.returnAll === true;
		try {
			const links = await ctx.client.paginate<IDataObject>({
				path: LINKS_PATH,
				qs,
				style: 'fromOne',
				returnAll,
				limit: returnAll ? undefined : (input.limit ?? 50),
			});
			return withoutCardData(links);
		} catch (error) {
			throw explain(error, {
				403: `Searching tokenization links was refused for merchant ${input.merchantId}: the API client may not read them, or card tokenization is not enabled for a business searched`,
			});
		}
	},
};
