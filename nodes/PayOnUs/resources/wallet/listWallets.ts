import { z } from 'zod/v3';
import * as api from '../../../shared/api';
import * as v from '../../../shared/validation';
import { businessIdFilter, currencyField, filtersField, merchantIdField } from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';

/**
 * List wallets: GET /api/v1/merchants/{merchantId}/wallets, one item per
 * wallet (balance, lien, payout allowed). The optional business and currency
 * filters are applied here: the call has no query filters (and no paging).
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
	value: 'listWallets',
	name: 'Get Many Wallets',
	action: 'Get many wallets',
	description:
		"List the merchant's wallets, optionally of one business or currency. Returns one item per wallet (business and currency) with its available balance, lien amount and whether payouts are allowed (read only).",
	properties: [
		merchantIdField(),
		filtersField([
			businessIdFilter("Only this business's wallets"),
			currencyField({
				typeOptions: {
					loadOptionsMethod: 'getFilterCurrencies',
					loadOptionsDependsOn: ['merchantId', 'filters.businessId'],
				},
				description:
					'Only wallets in this currency. Choose from the list, or specify a code such as NGN using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			}),
		]),
	],
	schema,
	effect: 'read',
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const wallets = await api.listWallets(client, input.merchantId);
		const { businessId, currency } = input.filters;
		return wallets.filter(
			(w) => (!businessId || w.entityId === businessId) && (!currency || w.currency === currency),
		);
	},
};
