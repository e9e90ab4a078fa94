import { z } from 'zod/v3';
import { PATHS } from '../../../shared/api';
import * as v from '../../../shared/validation';
import { additionalFields, businessIdField, referenceField } from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';
import { customerBlock } from './customer';
import { customerBody, PAYIN_CUSTOMERS, postPayin } from '../../../shared/payins';
import type { MoneyCall } from '../../../shared/moneyMoving';

/**
 * Create fixed account: a permanent bank account for one customer; every
 * transfer into it is a payin. POST /api/v1/virtual-accounts/fixed-account
 * (path from public-facts.md). The spec requires address line1, city,
 * countryCode, bvn and dob.
 */

const customer = customerBlock(PAYIN_CUSTOMERS.fixedAccount);

const schema = z.object({
	businessId: v.businessId(),
	reference: v.reference(),
	dob: v.date(),
	...customer.shape,
	additionalFields: v.group(customer.optionalShape),
});

type Input = z.infer<typeof schema>;

/** What makes it a money-moving call: the call, its proof, its lookup and its body. */
export const fixedAccount = {
	path: PATHS.fixedAccount,
	// Not in the spec (public API): its answer is not shown; any service reference, and the request's reference.
	proof: { kind: 'fixed account', answer: ['reference'], record: ['reference', 'businessId'] },
	lookup: 'paymentRequests',
	body: z.object({
		customer: customerBody(PAYIN_CUSTOMERS.fixedAccount),
		dob: v.date(),
		reference: v.reference(),
		businessId: v.businessId(),
	}),
} satisfies MoneyCall;

export const createFixedAccount: PayOnUsOperation<typeof schema> = {
	value: 'createFixedAccount',
	name: 'Create Fixed Account',
	action: 'Create a fixed account',
	description:
		"Create a permanent bank account dedicated to one customer (collects money: every transfer into it moves money into the business wallet). Needs the customer's BVN, date of birth and address. Returns the account number and bank to give the customer.",
	properties: [
		businessIdField(),
		referenceField(),
		...customer.fields,
		{
			displayName: 'Date of Birth',
			name: 'dob',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1990-04-21',
			description: 'Date of birth of the customer, written YYYY-MM-DD',
		},
		additionalFields(customer.options),
	],
	schema,
	effect: 'write',
	moneyCall: fixedAccount,
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		return await postPayin(client, fixedAccount, {
			customer: customer.build(input),
			dob: input.dob,
			reference: input.reference,
			businessId: input.businessId,
		});
	},
};
