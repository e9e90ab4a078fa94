import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { merchantIdField } from '../fields';
import type { PayOnUsOperation } from '../types';

/**
 * List wallets: GET /api/v1/merchants/{merchantId}/wallets, one item per
 * wallet (balance, lien, payout allowed). The optional business and currency
 * filters are applied here: the call has no query filters.
 */

const schema = z.object({
	merchantId: v.merchantId(),
	filters: v.group({
		businessId: v.optional(v.businessId()),
		currency: v.optional(v.currency()),
	}),
});

type Input = z.infer<typeof schema>;

export const listWallets: PayOnUsOperation<typeof schema> = {
	resource: 'wallet',
	value: 'listWallets',
	name: 'List Wallets',
	action: 'List wallets',
	description:
		"List the merchant's wallets, one per business and currency, with available balance, lien amount and whether payouts are allowed (read only). Optionally only one business or currency.",
	properties: [
		merchantIdField(),
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
					description: "Only this business's wallets",
				},
				{
					displayName: 'Currency',
					name: 'currency',
					type: 'string',
					default: '',
					placeholder: 'e.g. NGN',
					description: 'Only wallets in this currency (3-letter code)',
				},
			],
		},
	],
	schema,
	async execute({ client }, input: Input) {
		const data = await client.request<IDataObject[] | null>({
			method: 'GET',
			path: `/api/v1/merchants/${encodeURIComponent(input.merchantId)}/wallets`,
		});
		const wallets = Array.isArray(data) ? data : [];
		const { businessId, currency } = input.filters;
		return wallets.filter(
			(w) => (!businessId || w.entityId === businessId) && (!currency || w.currency === currency),
		);
	},
};
