import { z } from 'zod/v3';
import * as api from '../../../shared/api';
import { itemByItem, type PayOnUsOperation } from '../types';

/** List EFT banks: GET /api/v1/eft-payment/banks, one item per bank ({ code, name }). */

const schema = z.object({});

export const listEftBanks: PayOnUsOperation<typeof schema> = {
	value: 'listEftBanks',
	name: 'Get Many EFT Banks',
	action: 'Get many EFT banks',
	description:
		'List the South African banks EFT payins support. Returns one item per bank with its code (for EFT Payment) and name (read only).',
	properties: [],
	schema,
	effect: 'read',
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }) {
		return await api.listEftBanks(client);
	},
};
