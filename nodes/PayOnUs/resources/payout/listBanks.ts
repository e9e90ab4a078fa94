import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import * as api from '../../../shared/api';
import { currency } from '../../../shared/validation';
import { currencyField } from '../fields';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';

/** List Banks: the bank codes valid for payouts in a currency. */

const properties: INodeProperties[] = [
	currencyField({
		required: true,
		description:
			'Currency of the payouts. Choose from the list, or specify a code such as NGN, KES or ZAR using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
];

const schema = z.object({ currency: currency() });

export const listBanks: PayOnUsOperation<typeof schema> = {
	value: 'listBanks',
	name: 'Get Many Banks',
	action: 'Get many banks of a currency',
	description:
		'List the banks that can receive payouts in a currency. Returns one item per bank with its code (for Create Transfer and Look Up Account Name) and name (read only).',
	properties,
	schema,
	effect: 'read',
	paging: false,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input) {
		return await api.listBanks(ctx.client, input.currency);
	},
};
