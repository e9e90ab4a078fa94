import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { businessIdField, referenceField } from '../fields';
import type { PayOnUsOperation } from '../types';
import { buildCustomer, customerProperty, customerShape, type CustomerKey } from './customer';
import { payinMoneyMoving } from './lookup';

/**
 * Create fixed account: a permanent bank account for one customer; every
 * transfer into it is a payin. POST /api/v1/virtual-accounts/fixed-account
 * (path from public-facts.md). The spec requires address line1, city,
 * countryCode, bvn and dob.
 */

const REQUIRED: CustomerKey[] = ['name', 'email', 'bvn', 'line1', 'city', 'countryCode'];
const OPTIONAL: CustomerKey[] = ['phone', 'externalId', 'state', 'postalCode'];

const schema = z.object({
	businessId: v.businessId(),
	reference: v.reference(),
	dob: v.date(),
	...customerShape(REQUIRED, true),
	additionalFields: v.group(customerShape(OPTIONAL, false)),
});

type Input = z.infer<typeof schema>;

export const createFixedAccount: PayOnUsOperation<typeof schema> = {
	resource: 'payin',
	value: 'createFixedAccount',
	name: 'Create Fixed Account',
	action: 'Create a fixed account',
	description:
		"Create a permanent bank account dedicated to one customer (collects money: every transfer into it is a payin). Needs the customer's BVN, date of birth and address.",
	properties: [
		businessIdField(),
		referenceField(),
		...REQUIRED.map((k) => customerProperty(k, true)),
		{
			displayName: 'Date of Birth',
			name: 'dob',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1990-04-21',
			description: 'Date of birth of the customer, written YYYY-MM-DD',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: OPTIONAL.map((k) => customerProperty(k, false)),
		},
	],
	schema,
	async execute({ client }, input: Input) {
		const body: IDataObject = {
			customer: buildCustomer({ ...input, ...input.additionalFields }, [...REQUIRED, ...OPTIONAL]),
			dob: input.dob,
			reference: input.reference,
			businessId: input.businessId,
		};
		const data = await client.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/virtual-accounts/fixed-account',
			body,
			moneyMoving: payinMoneyMoving(client, input.businessId, input.reference),
		});
		return data ?? {};
	},
};
