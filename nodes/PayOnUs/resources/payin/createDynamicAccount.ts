import { z } from 'zod';
import * as payins from '../../../shared/payins';
import * as v from '../../../shared/validation';
import { additionalFields, amountField, businessIdField, referenceField } from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';
import { customerBlock } from './customer';

/**
 * Create dynamic account: a one-time NGN bank account for one exact amount.
 * POST /api/v1/virtual-accounts/dynamic. Sets up a collection (money moves
 * when the customer pays in), so it is sent with the money-moving safety.
 *
 * Output: the account to show the customer, plus `nextStep`.
 */

const customer = customerBlock(payins.PAYIN_CUSTOMERS.dynamicAccount);

const schema = z.object({
	businessId: v.businessId(),
	amount: v.amount(),
	reference: v.reference(),
	...customer.shape,
	additionalFields: v.group(customer.optionalShape),
});

type Input = z.infer<typeof schema>;

export const createDynamicAccount: PayOnUsOperation<typeof schema> = {
	value: 'createDynamicAccount',
	name: 'Create Dynamic Account',
	action: 'Create a dynamic account',
	description:
		'Create a one-time NGN bank account the customer pays an exact amount into (collects money: moves money into the business wallet when paid). Returns the account number, bank and account name to show the customer, and nextStep; a COLLECTION webhook follows when paid.',
	properties: [
		businessIdField(),
		amountField({ description: 'Exact amount in NGN the customer must transfer, greater than 0' }),
		referenceField(),
		...customer.fields,
		additionalFields(customer.options),
	],
	schema,
	// Sets up a collection: no money moves until the customer pays (no Dry Run).
	effect: 'write',
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const data = await payins.createDynamicAccount(client, {
			amount: input.amount,
			reference: input.reference,
			businessId: input.businessId,
			customer: customer.build(input),
		});
		return {
			...data,
			nextStep: `Ask the customer to transfer exactly ${String(data.amount ?? input.amount)} NGN to account ${String(
				data.accountNumber ?? '',
			)} (${String(data.accountName ?? '')}, ${String(data.bankName ?? '')}). The payment is confirmed by a COLLECTION webhook, or check it with Get Payment using the onusReference.`,
		};
	},
};
