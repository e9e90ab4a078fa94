import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { amountField, businessIdField, referenceField } from '../fields';
import type { PayOnUsOperation } from '../types';
import { buildCustomer, customerProperty, customerShape, type CustomerKey } from './customer';
import { payinMoneyMoving } from './lookup';

/**
 * Create dynamic account: a one-time NGN bank account for one exact amount.
 * POST /api/v1/virtual-accounts/dynamic
 *
 * Output: the account to show the customer, plus `nextStep`.
 */

const REQUIRED: CustomerKey[] = ['name', 'email'];
const OPTIONAL: CustomerKey[] = ['phone', 'externalId', 'bvn'];

const schema = z.object({
	businessId: v.businessId(),
	amount: v.amount(),
	reference: v.reference(),
	...customerShape(REQUIRED, true),
	additionalFields: v.group(customerShape(OPTIONAL, false)),
});

type Input = z.infer<typeof schema>;

export const createDynamicAccount: PayOnUsOperation<typeof schema> = {
	resource: 'payin',
	value: 'createDynamicAccount',
	name: 'Create Dynamic Account',
	action: 'Create a dynamic account',
	description:
		'Create a one-time NGN bank account the customer pays an exact amount into (collects money). Returns the account number, bank and name to show the customer; a COLLECTION webhook follows when paid.',
	properties: [
		businessIdField(),
		amountField({ description: 'Exact amount in NGN the customer must transfer, greater than 0' }),
		referenceField(),
		...REQUIRED.map((k) => customerProperty(k, true)),
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
			amount: input.amount,
			reference: input.reference,
			businessId: input.businessId,
			customer: buildCustomer({ ...input, ...input.additionalFields }, [...REQUIRED, ...OPTIONAL]),
		};
		const data = await client.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/virtual-accounts/dynamic',
			body,
			moneyMoving: payinMoneyMoving(client, input.businessId, input.reference),
		});
		return {
			...data,
			nextStep: `Ask the customer to transfer exactly ${String(data.amount ?? input.amount)} NGN to account ${String(
				data.accountNumber ?? '',
			)} (${String(data.accountName ?? '')}, ${String(data.bankName ?? '')}). The payment is confirmed by a COLLECTION webhook, or check it with Get Payment using the onusReference.`,
		};
	},
};
