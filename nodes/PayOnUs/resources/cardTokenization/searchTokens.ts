import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { merchantIdField, returnAllFields } from '../fields';
import type { OperationContext, PayOnUsOperation } from '../types';
import { PayOnUsInputError } from '../types';
import { commonFilterOptions, commonFilterQuery, commonFilterShape, explain, STORED_CARDS_PATH, withoutCardData } from './shared';

/**
 * Search Card Tokens: GET /api/v1/card-tokens, pageNo from 1. Deleted tokens
 * are not listed (spec). Output carries the masked PAN only.
 */

const schema = z.object({
	merchantId: v.merchantId(),
	returnAll: v.optional(v.bool()),
	limit: v.optional(v.integer(1)),
	filters: v.group({
		...commonFilterShape,
		customerEmail: v.optional(v.email()),
		id: v.optional(v.identifier('a card token id')),
		merchantReference: v.optional(v.reference(100)),
		requestId: v.optional(v.identifier('ONUS-CTOKEN-1234567890123-31052024-101500')),
	}),
});

type Input = z.infer<typeof schema>;

export const searchTokensOperation: PayOnUsOperation<typeof schema> = {
	resource: 'cardTokenization',
	value: 'searchTokens',
	name: 'Search Card Tokens',
	action: 'Search card tokens',
	description: 'Search the stored card tokens of the merchant (one item per token; masked card number only)',
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
					displayName: 'Card Token ID',
					name: 'id',
					type: 'string',
					default: '',
				},
				{
					displayName: 'Customer Email',
					name: 'customerEmail',
					type: 'string',
					placeholder: 'name@email.com',
					default: '',
				},
				{
					displayName: 'Merchant Reference',
					name: 'merchantReference',
					type: 'string',
					default: '',
					description: 'Reference of the link that created the token',
				},
				{
					displayName: 'Request ID',
					name: 'requestId',
					type: 'string',
					default: '',
					description: 'Internal request ID of the token (CTOKEN reference)',
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
		for (const key of ['id', 'customerEmail', 'merchantReference', 'requestId'] as const) {
			if (f[key] !== undefined) qs[key] = f[key];
		}
		const returnAll = input.returnAll === true;
		try {
			const tokens = await ctx.client.paginate<IDataObject>({
				path: STORED_CARDS_PATH,
				qs,
				style: 'fromOne',
				returnAll,
				limit: returnAll ? undefined : (input.limit ?? 50),
			});
			return withoutCardData(tokens);
		} catch (error) {
			throw explain(error, {
				403: `Searching card tokens was refused for merchant ${input.merchantId}: the API client may not read them, or card tokenization is not enabled for a business searched`,
			});
		}
	},
};
