import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import * as v from '../../../shared/validation';
import { amountField, businessIdField, currencyField, narrationField, referenceField } from '../fields';
import type { PayOnUsOperation } from '../types';
import { buildCustomer, customerProperty, customerShape, type CustomerKey } from './customer';
import { payinMoneyMoving } from './lookup';
import { cardNextStep } from './nextStep';

/**
 * Charge card: POST /api/v1/card-payments. MOVES MONEY.
 *
 * Card details are never node fields (n8n stores parameters and execution
 * data): the node takes `cardData`, the card details already RSA-encrypted
 * with the environment's public key and Base64-encoded, as one password
 * field. The output's `nextStep` says what PIN, OTP or THREE_DS needs.
 */

const REQUIRED: CustomerKey[] = ['name', 'email'];
const OPTIONAL: CustomerKey[] = ['phone', 'line1', 'city', 'state', 'countryCode'];

const schema = z.object({
	businessId: v.businessId(),
	cardData: v.encryptedCardData(),
	amount: v.amount(),
	currency: v.currency(),
	reference: v.reference(),
	...customerShape(REQUIRED, true),
	additionalFields: v.group({
		narration: v.optionalText(255),
		redirectUrl: v.optional(v.url()),
		...customerShape(OPTIONAL, false),
	}),
});

type Input = z.infer<typeof schema>;

export const chargeCard: PayOnUsOperation<typeof schema> = {
	resource: 'payin',
	value: 'chargeCard',
	name: 'Charge Card',
	action: 'Charge a card',
	description:
		'Charge a card (moves money). Takes the card details RSA-encrypted and Base64-encoded, never raw card numbers. The output says what comes next when the card needs a PIN, an OTP or 3-D Secure.',
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
		...REQUIRED.map((k) => customerProperty(k, true)),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				narrationField(),
				{
					displayName: 'Redirect URL',
					name: 'redirectUrl',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://shop.example.com/paid',
					description: 'Where the customer returns after 3-D Secure',
				},
				...OPTIONAL.map((k) => customerProperty(k, false)),
			],
		},
	],
	schema,
	async execute({ client }, input: Input) {
		const extra = input.additionalFields;
		const body: IDataObject = {
			cardData: input.cardData,
			amount: input.amount,
			currency: input.currency,
			reference: input.reference,
			narration: extra.narration ?? '',
			businessId: input.businessId,
			customer: buildCustomer({ ...input, ...extra }, [...REQUIRED, ...OPTIONAL]),
		};
		if (extra.redirectUrl) body.redirectUrl = extra.redirectUrl;
		const data = await client.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/card-payments',
			body,
			moneyMoving: payinMoneyMoving(client, input.businessId, input.reference),
		});
		return { ...data, nextStep: cardNextStep(data ?? {}) };
	},
};
