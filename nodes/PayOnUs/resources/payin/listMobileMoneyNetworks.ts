import { z } from 'zod/v3';
import * as api from '../../../shared/api';
import * as v from '../../../shared/validation';
import { filtersField } from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';

/**
 * List Mobile Money Networks: GET /api/v1/mobile-money/networks, optionally
 * filtered by currency and country (sandbox/README.md), one item per network
 * ({ code, name, currency, countryCode, otpRequired, initiatingCodeRequired }).
 * The spec names this list but does not show its path: the path is the
 * provider's public API, the one this node's network dropdowns already call
 * (shared/api/paths.ts).
 */

/** Documented currencies, alphabetical (n8n lists options that way). */
const CURRENCY_OPTIONS = [...v.CURRENCIES].sort().map((c) => ({ name: c, value: c }));

const schema = z.object({
	filters: v.group({
		countryCode: v.optional(v.countryCode()),
		currency: v.optional(v.currency()),
	}),
});

type Input = z.infer<typeof schema>;

export const listMobileMoneyNetworks: PayOnUsOperation<typeof schema> = {
	value: 'listMobileMoneyNetworks',
	name: 'Get Many Mobile Money Networks',
	action: 'Get many mobile money networks',
	description:
		"Get the mobile money networks (M-Pesa, MTN, Airtel...), optionally of one currency or country. Returns one item per network with its code (for Collect Mobile Money and mobile money transfers), name, currency, country and whether it needs an OTP or an initiating code (read only).",
	properties: [
		filtersField([
			{
				displayName: 'Country Code',
				name: 'countryCode',
				type: 'string',
				default: '',
				placeholder: 'e.g. GH',
				description: 'Only networks of this country (two-letter code such as GH, KE or ZA)',
			},
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'options',
				options: CURRENCY_OPTIONS,
				default: 'GHS',
				description: 'Only networks that collect in this currency',
			},
		]),
	],
	schema,
	effect: 'read',
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		return await api.listMobileMoneyNetworks(client, input.filters);
	},
};
