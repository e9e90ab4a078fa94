import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { amountField, businessIdField, narrationField, referenceField } from '../fields';
import type { PayOnUsOperation } from '../types';
import { buildCustomer, customerProperty, customerShape, type CustomerKey } from './customer';
import { payinMoneyMoving } from './lookup';

/**
 * Mobile money collection: POST /api/v1/mobile-money/collection. MOVES MONEY.
 * The customer approves a push on their phone; `otpRequired` is surfaced with
 * what to do next.
 */

const REQUIRED: CustomerKey[] = ['name', 'email', 'phone'];
const OPTIONAL: CustomerKey[] = ['city', 'postalCode', 'countryCode'];

const schema = z.object({
	businessId: v.businessId(),
	momoNetwork: v.identifier('MTN-GH'),
	amount: v.amount(),
	reference: v.reference(),
	...customerShape(REQUIRED, true),
	additionalFields: v.group({
		narration: v.optionalText(255),
		initiatingCode: v.optionalText(50),
		...customerShape(OPTIONAL, false),
	}),
});

type Input = z.infer<typeof schema>;

export function mobileMoneyNextStep(data: IDataObject): string {
	const ref = String(data.onusReference ?? '');
	if (data.otpRequired === true) {
		return `The customer received an OTP: it must be submitted with onusReference ${ref} to the service's Verify OTP operation (the spec does not document that call, so this node cannot send it). Then the payment settles and a COLLECTION webhook arrives; check it with Get Payment.`;
	}
	return `The customer must approve the payment request sent to their phone (${String(
		data.mobileNumber ?? '',
	)}). A COLLECTION webhook arrives when it succeeds; or check it with Get Payment using onusReference ${ref}.`;
}

export const mobileMoneyCollection: PayOnUsOperation<typeof schema> = {
	resource: 'payin',
	value: 'mobileMoneyCollection',
	name: 'Mobile Money Collection',
	action: 'Collect a mobile money payment',
	description:
		"Collect money from a customer's mobile money account (moves money): a payment prompt goes to the customer's phone. The output says whether an OTP is needed and what to do next.",
	properties: [
		businessIdField(),
		{
			displayName: 'Network Name or ID',
			name: 'momoNetwork',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getMobileMoneyNetworks' },
			default: '',
			required: true,
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
		amountField({ description: "Amount in the network's currency, greater than 0" }),
		referenceField(),
		...REQUIRED.map((k) =>
			k === 'phone'
				? { ...customerProperty(k, true), description: 'Mobile money number of the customer, international format (+ and digits)' }
				: customerProperty(k, true),
		),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Initiating Code',
					name: 'initiatingCode',
					type: 'string',
					default: '',
					description: 'Pre-OTP code some networks need on this call (the network list says which)',
				},
				narrationField(),
				...OPTIONAL.map((k) => customerProperty(k, false)),
			],
		},
	],
	schema,
	async execute({ client }, input: Input) {
		const extra = input.additionalFields;
		const body: IDataObject = {
			amount: input.amount,
			reference: input.reference,
			businessId: input.businessId,
			narration: extra.narration ?? '',
			momoNetwork: input.momoNetwork,
			customer: buildCustomer({ ...input, ...extra }, [...REQUIRED, ...OPTIONAL]),
		};
		if (extra.initiatingCode) body.initiatingCode = extra.initiatingCode;
		const data = await client.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/mobile-money/collection',
			body,
			moneyMoving: payinMoneyMoving(client, input.businessId, input.reference),
		});
		return { ...data, nextStep: mobileMoneyNextStep(data ?? {}) };
	},
};
