import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import type { PayOnUsOperation } from '../types';

/** List EFT banks: GET /api/v1/eft-payment/banks, one item per bank ({ code, name }). */

const schema = z.object({});

export const listEftBanks: PayOnUsOperation<typeof schema> = {
	resource: 'payin',
	value: 'listEftBanks',
	name: 'List EFT Banks',
	action: 'List EFT banks',
	description:
		'List the South African banks EFT payins support. Returns one item per bank with its code (for EFT Payment) and name (read only).',
	properties: [],
	schema,
	async execute({ client }) {
		const data = await client.request<IDataObject[] | IDataObject | null>({
			method: 'GET',
			path: '/api/v1/eft-payment/banks',
		});
		if (Array.isArray(data)) return data;
		if (data && Array.isArray(data.content)) return data.content as IDataObject[];
		return [];
	},
};
