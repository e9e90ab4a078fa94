import { z } from 'zod/v3';
import * as v from '../../../shared/validation';
import { merchantIdField } from '../fields';
import { limitWhenNotAll, pagingShape, searchProperties } from '../search';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { LISTS } from '../../../shared/api';
import { commonFilterOptions, commonFilterShape, searchMerchantRecords } from './shared';

/**
 * Search Card Tokens: GET /api/v1/card-tokens, pageNo from 1. Deleted tokens
 * are not listed (spec). Output carries the masked PAN only.
 */

const schema = z
	.object({
		merchantId: v.merchantId(),
		...pagingShape,
		filters: v.group({
			...commonFilterShape,
			customerEmail: v.optional(v.email()),
			id: v.optional(v.identifier('a card token id')),
			merchantReference: v.optional(v.reference(100)),
			requestId: v.optional(v.identifier('ONUS-CTOKEN-1234567890123-31052024-101500')),
		}),
	})
	.superRefine(limitWhenNotAll);

type Input = z.infer<typeof schema>;

export const searchTokens: PayOnUsOperation<typeof schema> = {
	value: 'searchTokens',
	name: 'Get Many Card Tokens',
	action: 'Get many card tokens',
	description:
		'Search the stored card tokens of the merchant, filtered by business, customer e-mail, reference or creation date. Returns one item per token with its ID, expiry and masked card number only (read only).',
	properties: [
		merchantIdField(),
		...searchProperties([
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
		]),
	],
	schema,
	effect: 'read',
	outputRecord: 'cardToken',
	paging: true,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input: Input) {
		return await searchMerchantRecords(ctx.client, LISTS.storedCards, 'card tokens', input);
	},
};
