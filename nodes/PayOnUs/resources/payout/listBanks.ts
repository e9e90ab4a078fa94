import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';
import { currency } from '../../../shared/validation';
import { currencyField } from '../fields';
import type { OperationContext, PayOnUsOperation } from '../types';

/** List Banks: the bank codes valid for payouts in a currency. */

export const BANKS_PATH = '/api/v1/banks';

const properties: INodeProperties[] = [
	currencyField({
		required: true,
		description:
			'Currency of the payouts. Choose from the list, or specify a code such as NGN, KES or ZAR using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
];

const schema = z.object({ currency: currency() });

export const listBanksOperation: PayOnUsOperation<typeof schema> = {
	resource: 'payout',
	value: 'listBanks',
	name: 'List Banks',
	action: 'List banks for a currency',
	description:
		'List the banks that can receive payouts in a currency. Returns one item per bank with its code (for Create Transfer and Name Enquiry) and name (read only).',
	properties,
	schema,
	async execute(ctx: OperationContext, input) {
		const data = await ctx.client.request<IDataObject[] | null>({
			method: 'GET',
			path: BANKS_PATH,
			qs: { key: input.currency },
		});
		return Array.isArray(data) ? data : [];
	},
};
