import { z } from 'zod/v3';
import * as api from '../../../shared/api';
import * as v from '../../../shared/validation';
import { businessIdField } from '../fields';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { explain } from '../../../shared/errors';
import { notEnabled, withoutCardData } from './shared';

/**
 * Get Link: one tokenization link with its current status, by its id or by
 * its merchant reference (one operation, a "Find By" choice).
 */

const schema = z
	.object({
		businessId: v.businessId(),
		by: v.oneOf(['id', 'merchantReference'] as const),
		linkId: v.optional(v.identifier('a link id')),
		merchantReference: v.optional(v.reference(100)),
	})
	.superRefine((x, ctx) => {
		if (x.by === 'id' && x.linkId === undefined) ctx.addIssue({ code: 'custom', path: ['linkId'], message: 'is required' });
		if (x.by === 'merchantReference' && x.merchantReference === undefined) {
			ctx.addIssue({ code: 'custom', path: ['merchantReference'], message: 'is required' });
		}
	});

type Input = z.infer<typeof schema>;

export const getLink: PayOnUsOperation<typeof schema> = {
	value: 'getLink',
	name: 'Get Link',
	action: 'Get a card tokenization link',
	description:
		'Get one card tokenization link by its ID or merchant reference. Returns the link with its status (PENDING, COMPLETED, EXPIRED or CANCELLED), URL and, once completed, the card token ID (read only).',
	properties: [
		businessIdField(),
		{
			displayName: 'Find By',
			name: 'by',
			type: 'options',
			options: [
				{ name: 'Link ID', value: 'id' },
				{ name: 'Merchant Reference', value: 'merchantReference' },
			],
			default: 'id',
		},
		{
			displayName: 'Link ID',
			name: 'linkId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { by: ['id'] } },
			description: 'The ID the service gave the link at creation',
		},
		{
			displayName: 'Merchant Reference',
			name: 'merchantReference',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { by: ['merchantReference'] } },
			description: 'Your reference of the link',
		},
	],
	schema,
	effect: 'read',
	paging: false,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input: Input) {
		const byId = input.by === 'id';
		const key = byId ? (input.linkId as string) : (input.merchantReference as string);
		try {
			const link = byId
				? await api.getLink(ctx.client, input.businessId, key)
				: await api.getLinkByReference(ctx.client, input.businessId, key);
			return withoutCardData(link);
		} catch (error) {
			throw explain(error, {
				403: notEnabled(input.businessId),
				404: {
					title: `No tokenization link with ${byId ? 'ID' : 'merchant reference'} "${key}" for business ${input.businessId}`,
					todo: "Check the link's ID or reference, the business and the credential's environment (sandbox or production).",
				},
			});
		}
	},
};
