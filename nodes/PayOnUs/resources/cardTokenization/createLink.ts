import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v3';
import { getLinkByReference, PATHS } from '../../../shared/api';
import * as v from '../../../shared/validation';
import { additionalFields, businessIdField } from '../fields';
import { buildCustomer, customerProperty } from '../payin/customer';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { explain, statusOf } from '../../../shared/errors';
import { notEnabled, withoutCardData } from './shared';

/**
 * Create Link: a hosted consent page where the customer stores a card.
 * POST /api/v1/card-tokenization-links
 *
 * expiryMinutes: the service caps values above 1440 silently; this node
 * refuses them before sending, so a link never lives shorter than asked.
 */

export const MAX_EXPIRY_MINUTES = 1440;

const expiryMinutes = () =>
	v.optional(
		z.preprocess(
			(x) => (typeof x === 'string' && /^\d+$/.test(x.trim()) ? Number(x) : x),
			z
				.number({ invalid_type_error: 'must be a number of minutes' })
				.int('must be a whole number of minutes')
				.gte(1, 'must be at least 1 minute')
				.lte(
					MAX_EXPIRY_MINUTES,
					`must be at most ${MAX_EXPIRY_MINUTES} minutes (24 hours): the service would silently cut a longer validity to 24 hours`,
				),
		),
	);

const schema = z.object({
	businessId: v.businessId(),
	merchantReference: v.reference(100),
	customerName: v.bankText(200),
	customerEmail: v.email(),
	additionalFields: v.group({
		customerPhone: v.optional(v.phone()),
		customerExternalId: v.optional(v.text(100)),
		expiryMinutes: expiryMinutes(),
	}),
});

type Input = z.infer<typeof schema>;

export const createLink: PayOnUsOperation<typeof schema> = {
	value: 'createLink',
	name: 'Create Link',
	action: 'Create a card tokenization link',
	description:
		'Create a consent link where the customer stores a card for later charges (moves no money). Returns the link: its ID, URL to send to the customer, expiry and status.',
	properties: [
		businessIdField(),
		{
			displayName: 'Merchant Reference',
			name: 'merchantReference',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. card-cust-0042',
			description:
				'Your reference of this link, at most 100 characters, no spaces. It can never be used again for the business, whatever becomes of the link.',
		},
		{ ...customerProperty('name', true), description: 'Full name of the card holder' },
		{ ...customerProperty('email', true), description: 'E-mail address of the customer' },
		additionalFields([
			customerProperty('externalId', false),
			customerProperty('phone', false),
			{
				displayName: 'Expiry Minutes',
				name: 'expiryMinutes',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_EXPIRY_MINUTES },
				default: 30,
				description: 'How long the link stays usable, 1 to 1440 minutes (the service default is 30)',
			},
		]),
	],
	schema,
	effect: 'write',
	paging: false,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input: Input) {
		const { client } = ctx;
		const extra = input.additionalFields;
		const body: IDataObject = {
			businessId: input.businessId,
			customer: buildCustomer({ ...input, ...extra }, ['name', 'email', 'phone', 'externalId']),
			merchantReference: input.merchantReference,
		};
		if (extra.expiryMinutes !== undefined) body.expiryMinutes = extra.expiryMinutes;
		try {
			const link = await client.request<IDataObject>({ method: 'POST', path: PATHS.links, body });
			return withoutCardData(link);
		} catch (error) {
			if (statusOf(error) === 409) {
				// Show which link holds the reference (any status), when it can be read.
				let holder = '';
				try {
					const existing = await getLinkByReference(client, input.businessId, input.merchantReference);
					if (existing?.id) holder = ` by link ${String(existing.id)} (status ${String(existing.status)})`;
				} catch {
					// The explanation stays without the holder.
				}
				throw explain(error, {
					409: {
						title: `Merchant reference "${input.merchantReference}" already used${holder}`,
						todo: `Use a new reference: a tokenization reference of business ${input.businessId} can never be reused, even after the link expired or was cancelled.`,
					},
				});
			}
			throw explain(error, {
				403: notEnabled(input.businessId),
				404: {
					title: `Business "${input.businessId}" not found`,
					todo: "Check the Business ID and the credential's environment (sandbox or production).",
				},
			});
		}
	},
};
