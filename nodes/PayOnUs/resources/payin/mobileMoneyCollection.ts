import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v3';
import { PATHS } from '../../../shared/api';
import { type MoneyCall, PAYIN_RECORD } from '../../../shared/moneyMoving';
import * as payins from '../../../shared/payins';
import * as v from '../../../shared/validation';
import { additionalFields, amountField, businessIdField, narrationField, referenceField } from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';
import { customerBlock } from './customer';

/**
 * Mobile money collection: POST /api/v1/mobile-money/collection. MOVES MONEY.
 * The customer approves a push on their phone; `otpRequired` is surfaced with
 * what to do next.
 */

const customer = customerBlock(payins.PAYIN_CUSTOMERS.mobileMoney);

const schema = z.object({
	businessId: v.businessId(),
	momoNetwork: v.identifier('MTN-GH'),
	amount: v.amount(),
	reference: v.reference(),
	...customer.shape,
	additionalFields: v.group({
		narration: v.optionalBankText(255),
		initiatingCode: v.optionalText(50),
		...customer.optionalShape,
	}),
});

type Input = z.infer<typeof schema>;

/** What makes it move money: the call, its proof, its lookup and its body (the Payment Page's mobile money too). */
export const mobileMoneyPayin = {
	path: PATHS.mobileMoneyCollection,
	// Response data: accountName, mobileNumber, paymentStatus, network, amount, onusReference, merchantReference, otpRequired.
	proof: { kind: 'mobile money payment', types: ['MMO'], answer: ['reference', 'amount', 'customerPhone'], record: PAYIN_RECORD },
	lookup: 'paymentRequests',
	body: z.object({
		amount: v.amount(),
		reference: v.reference(),
		businessId: v.businessId(),
		narration: payins.narrationOrEmpty(),
		momoNetwork: v.identifier('MTN-GH'),
		customer: payins.customerBody(payins.PAYIN_CUSTOMERS.mobileMoney),
		/** The pre-OTP code some networks need. */
		initiatingCode: v.optionalText(50),
	}),
	// The record must also show the phone the customer approves on (a payin's proof).
	customerPhone: true,
} satisfies MoneyCall;

export function mobileMoneyNextStep(data: IDataObject): string {
	const ref = String(data.onusReference ?? '');
	if (data.otpRequired === true) {
		return `The customer received an OTP: it must be submitted with onusReference ${ref} in the PayOnUs dashboard or API (this node cannot send it yet). Then the payment settles and a COLLECTION webhook arrives; check it with Get Payment.`;
	}
	return `The customer must approve the payment request sent to their phone (${String(
		data.mobileNumber ?? '',
	)}). A COLLECTION webhook arrives when it succeeds; or check it with Get Payment using onusReference ${ref}.`;
}

export const mobileMoneyCollection: PayOnUsOperation<typeof schema> = {
	value: 'mobileMoneyCollection',
	name: 'Collect Mobile Money',
	action: 'Collect a mobile money payment',
	description:
		"Collect money from a customer's mobile money account (moves money to the business wallet): a payment prompt goes to the customer's phone. Returns the payment (onusReference, status), otpRequired and nextStep, saying what to do next.",
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
				'Mobile money network of the customer; it sets the currency of the payment. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		amountField({ description: "Amount in the network's currency, greater than 0" }),
		referenceField(),
		...customer.fields.map((f) =>
			f.name === 'customerPhone'
				? {
						...f,
						placeholder: 'e.g. +254712345678',
						description: 'Mobile money number of the customer, international format (+ and digits)',
					}
				: f,
		),
		additionalFields([
			{
				displayName: 'Initiating Code',
				name: 'initiatingCode',
				type: 'string',
				default: '',
				description: 'Pre-OTP code some networks need on this call (the network list says which)',
			},
			narrationField(),
			...customer.options,
		]),
	],
	schema,
	effect: 'movesMoney',
	money: { direction: 'in', impliedCurrency: 'network' },
	moneyCall: mobileMoneyPayin,
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const extra = input.additionalFields;
		const data = await payins.postPayin(client, mobileMoneyPayin, {
			amount: input.amount,
			reference: input.reference,
			businessId: input.businessId,
			narration: extra.narration,
			momoNetwork: input.momoNetwork,
			customer: customer.build(input),
			initiatingCode: extra.initiatingCode,
		});
		return { ...data, nextStep: mobileMoneyNextStep(data) };
	},
};
