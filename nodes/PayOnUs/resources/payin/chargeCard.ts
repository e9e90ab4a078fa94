import { z } from 'zod/v3';
import { PATHS } from '../../../shared/api';
import { type MoneyCall, PAYIN_RECORD } from '../../../shared/moneyMoving';
import * as payins from '../../../shared/payins';
import * as v from '../../../shared/validation';
import {
	additionalFields,
	amountField,
	businessIdField,
	currencyField,
	narrationField,
	referenceField,
} from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';
import { customerBlock } from './customer';
import { cardNextStep } from './nextStep';

/**
 * Charge card: POST /api/v1/card-payments. MOVES MONEY.
 *
 * Card details are never node fields (n8n stores parameters and execution
 * data): the node takes `cardData`, the card details already RSA-encrypted
 * with the environment's public key and Base64-encoded, as one password
 * field. The output's `nextStep` says what PIN, OTP or THREE_DS needs.
 */

const customer = customerBlock(payins.PAYIN_CUSTOMERS.cardCharge);

const schema = z.object({
	businessId: v.businessId(),
	cardData: v.encryptedCardData(),
	amount: v.amount(),
	currency: v.currency(),
	reference: v.reference(),
	...customer.shape,
	additionalFields: v.group({
		narration: v.optionalBankText(255),
		redirectUrl: v.optional(v.url()),
		...customer.optionalShape,
	}),
});

type Input = z.infer<typeof schema>;

/** What makes it move money: the call, its proof, its lookup and its body (the Payment Page's card charge too). */
export const cardCharge = {
	path: PATHS.cardPayments,
	// Response data: authTypeRequired, paymentStatus, onusReference, redirectUrl, message.
	proof: { kind: 'card payment', types: ['CARD'], answer: [], record: PAYIN_RECORD },
	lookup: 'paymentRequests',
	body: z.object({
		cardData: v.encryptedCardData(),
		amount: v.amount(),
		currency: v.currency(),
		reference: v.reference(),
		narration: payins.narrationOrEmpty(),
		businessId: v.businessId(),
		customer: payins.customerBody(payins.PAYIN_CUSTOMERS.cardCharge),
		/** Where the customer returns after 3-D Secure. */
		redirectUrl: v.optional(v.url()),
	}),
} satisfies MoneyCall;

export const chargeCard: PayOnUsOperation<typeof schema> = {
	value: 'chargeCard',
	name: 'Charge Card',
	action: 'Charge a card',
	description:
		'Charge a card: moves money from the customer to the business wallet. Takes the card details RSA-encrypted and Base64-encoded, never raw card numbers. Returns the payment (onusReference, status) and nextStep, saying what to do when the card needs a PIN, an OTP or 3-D Secure.',
	properties: [
		businessIdField(),
		{
			displayName: 'Encrypted Card Data',
			name: 'cardData',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The card details concatenated, RSA-encrypted with the PayOnUs public key of the environment, then Base64-encoded. Never raw card numbers: n8n stores node parameters and execution data.',
		},
		amountField(),
		currencyField({ required: true }),
		referenceField(),
		...customer.fields,
		additionalFields([
			narrationField(),
			{
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://shop.example.com/paid',
				description: 'Where the customer returns after 3-D Secure',
			},
			...customer.options,
		]),
	],
	schema,
	effect: 'movesMoney',
	money: { direction: 'in' },
	moneyCall: cardCharge,
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const extra = input.additionalFields;
		const data = await payins.postPayin(client, cardCharge, {
			cardData: input.cardData,
			amount: input.amount,
			currency: input.currency,
			reference: input.reference,
			narration: extra.narration,
			businessId: input.businessId,
			customer: customer.build(input),
			redirectUrl: extra.redirectUrl,
		});
		return { ...data, nextStep: cardNextStep(data) };
	},
};
