import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import { identifier, onusReference, optional } from '../../../shared/validation';
import { merchantIdField, onusReferenceField } from '../fields';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { PayOnUsInputError } from '../types';
import { findTransfer } from '../../../shared/api';
import { resolveMerchantId } from './shared';
import { toTransfer } from '../../../shared/records';

/** Get Transfer: one transfer by its service reference (onusReference). */

const properties: INodeProperties[] = [
	onusReferenceField({
		placeholder: 'e.g. ONUS-TRNF-1234567890123-31052024-101500',
		description: 'The reference PayOnUs gave the transfer (onusReference)',
	}),
	merchantIdField(),
];

const schema = z.object({
	onusReference: onusReference(),
	merchantId: optional(identifier('MER-1001')),
});

export const getTransfer: PayOnUsOperation<typeof schema> = {
	value: 'getTransfer',
	name: 'Get Transfer',
	action: 'Get a transfer',
	description:
		'Get one transfer (payout) by its onusReference. Returns the transfer with its status (PENDING, SUCCESSFUL or FAILED), amount, currency, fee and merchant reference (read only).',
	properties,
	schema,
	effect: 'read',
	outputRecord: 'transfer',
	paging: false,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input) {
		const merchantId = resolveMerchantId(ctx.client, input.merchantId, 'to query transfers');
		// The filter is checked, not trusted (shared/api/reads.ts).
		const record = await findTransfer(ctx.client, merchantId, input.onusReference);
		if (!record) {
			throw new PayOnUsInputError('', `No transfer "${input.onusReference}" for merchant ${merchantId}: check the PayOnUs Reference (the onusReference of the transfer)`);
		}
		return toTransfer(record);
	},
};
