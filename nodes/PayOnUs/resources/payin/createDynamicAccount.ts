import { z } from 'zod/v3';
import { PATHS } from '../../../shared/api';
import { type MoneyCall, PAYIN_RECORD } from '../../../shared/moneyMoving';
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

/** What makes it a money-moving call: the call, its proof, its lookup and its body (the Payment Page's bank transfer too). */
export const dynamicAccount = {
	path: PATHS.dynamicAccount,
	// Response data: accountName, accountNumber, bankName, amount, onusReference, merchantReference.
	proof: { kind: 'dynamic account', types: ['NUB'], answer: ['reference', 'amount'], record: PAYIN_RECORD },
	lookup: 'paymentRequests',
	body: z.object({
		amount: v.amount(),
		reference: v.reference(),
		businessId: v.businessId(),
		customer: payins.customerBody(payins.PAYIN_CUSTOMERS.dynamicAccount),
	}),
} satisfies MoneyCall;

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
	moneyCall: dynamicAccount,
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const data = await payins.postPayin(client, dynamicAccount, {
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
