import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { amountField, businessIdField, narrationField, referenceField } from '../fields';
import type { PayOnUsOperation } from '../types';
import { buildCustomer, customerProperty, customerShape, type CustomerKey } from './customer';
import { payinMoneyMoving } from './lookup';

/**
 * EFT payin (ZAR): POST /api/v1/eft-payment. MOVES MONEY. The customer is
 * sent to their bank's page (`redirectUrl`) to authorize the payment.
 */

const REQUIRED: CustomerKey[] = ['name', 'email'];
const OPTIONAL: CustomerKey[] = ['phone', 'line1', 'city', 'state', 'postalCode', 'countryCode'];

const schema = z.object({
	businessId: v.businessId(),
	bank: v.identifier('a bank code'),
	amount: v.amount(),
	reference: v.reference(),
	...customerShape(REQUIRED, true),
	additionalFields: v.group({
		narration: v.optionalText(255),
		...customerShape(OPTIONAL, false),
	}),
});

type Input = z.infer<typeof schema>;

export const eftPayment: PayOnUsOperation<typeof schema> = {
	resource: 'payin',
	value: 'eftPayment',
	name: 'EFT Payment',
	action: 'Collect an EFT payment',
	description:
		"Collect money in ZAR by EFT (moves money): returns the bank page (redirectUrl) to send the customer to, where they authorize the payment. A COLLECTION webhook follows when confirmed.",
	properties: [
		businessIdField(),
		{
			displayName: 'Bank Name or ID',
			name: 'bank',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getEftBanks' },
			default: '',
			required: true,
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
		amountField({ description: 'Amount in ZAR, greater than 0' }),
		referenceField(),
		...REQUIRED.map((k) => customerProperty(k, true)),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [narrationField(), ...OPTIONAL.map((k) => customerProperty(k, false))],
		},
	],
	schema,
	async execute({ client }, input: Input) {
		const extra = input.additionalFields;
		const body: IDataObject = {
			amount: input.amount,
			reference: input.reference,
			narration: extra.narration ?? '',
			businessId: input.businessId,
			bank: input.bank,
			customer: buildCustomer({ ...input, ...extra }, [...REQUIRED, ...OPTIONAL]),
		};
		const data = await client.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/eft-payment',
			body,
			moneyMoving: payinMoneyMoving(client, input.businessId, input.reference),
		});
		return {
			...data,
			nextStep: `Send the customer to ${String(
				data?.redirectUrl ?? '(no redirect URL returned)',
			)} to authorize the payment at their bank. A COLLECTION webhook arrives when it is confirmed; or check it with Get Payment using onusReference ${String(
				data?.onusReference ?? '',
			)}.`,
		};
	},
};
