import { z } from 'zod/v3';
import { PATHS } from '../../../shared/api';
import { type MoneyCall, PAYIN_RECORD } from '../../../shared/moneyMoving';
import * as payins from '../../../shared/payins';
import * as v from '../../../shared/validation';
import { additionalFields, amountField, businessIdField, narrationField, referenceField } from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';
import { customerBlock } from './customer';

/**
 * EFT payin (ZAR): POST /api/v1/eft-payment. MOVES MONEY. The customer is
 * sent to their bank's page (`redirectUrl`) to authorize the payment.
 */

const customer = customerBlock(payins.PAYIN_CUSTOMERS.eft);

const schema = z.object({
	businessId: v.businessId(),
	bank: v.identifier('a bank code'),
	amount: v.amount(),
	reference: v.reference(),
	...customer.shape,
	additionalFields: v.group({
		narration: v.optionalBankText(255),
		...customer.optionalShape,
	}),
});

type Input = z.infer<typeof schema>;

/** What makes it move money: the call, its proof, its lookup and its body (the Payment Page's EFT too). */
export const eftPayin = {
	path: PATHS.eftPayment,
	// Response data: onusReference, reference, amount, redirectUrl, bankName, paymentStatus.
	proof: { kind: 'EFT payment', types: ['EFT'], answer: ['reference', 'amount'], record: PAYIN_RECORD },
	lookup: 'paymentRequests',
	body: z.object({
		amount: v.amount(),
		reference: v.reference(),
		narration: payins.narrationOrEmpty(),
		businessId: v.businessId(),
		/** The bank's code (GET /api/v1/eft-payment/banks). */
		bank: v.identifier('a bank code'),
		customer: payins.customerBody(payins.PAYIN_CUSTOMERS.eft),
		/** Where the customer returns from their bank's page. */
		redirectUrl: v.optional(v.url()),
	}),
} satisfies MoneyCall;

export const eftPayment: PayOnUsOperation<typeof schema> = {
	value: 'eftPayment',
	name: 'Collect EFT Payment',
	action: 'Collect an EFT payment',
	description:
		'Collect money in ZAR by EFT (moves money from the customer to the business wallet). Returns the payment (onusReference, status), the bank page (redirectUrl) to send the customer to, where they authorize it, and nextStep. A COLLECTION webhook follows when confirmed.',
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
				'South African bank of the customer, where they authorize the payment. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		amountField({ description: 'Amount in ZAR, greater than 0' }),
		referenceField(),
		...customer.fields,
		additionalFields([narrationField(), ...customer.options]),
	],
	schema,
	effect: 'movesMoney',
	money: { direction: 'in', impliedCurrency: 'ZAR' },
	moneyCall: eftPayin,
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const data = await payins.postPayin(client, eftPayin, {
			amount: input.amount,
			reference: input.reference,
			narration: input.additionalFields.narration,
			businessId: input.businessId,
			bank: input.bank,
			customer: customer.build(input),
		});
		return {
			...data,
			nextStep: `Send the customer to ${String(
				data.redirectUrl ?? '(no redirect URL returned)',
			)} to authorize the payment at their bank. A COLLECTION webhook arrives when it is confirmed; or check it with Get Payment using onusReference ${String(
				data.onusReference ?? '',
			)}.`,
		};
	},
};
