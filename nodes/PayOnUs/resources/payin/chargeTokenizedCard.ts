import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v3';
import { PATHS } from '../../../shared/api';
import * as v from '../../../shared/validation';
import { statusOf } from '../../../shared/errors';
import { additionalFields, amountField, businessIdField, narrationField, referenceField } from '../fields';
import { itemByItem, PayOnUsInputError, type PayOnUsOperation } from '../types';
import { postPayin } from '../../../shared/payins';
import { type MoneyCall, PAYIN_RECORD } from '../../../shared/moneyMoving';

/**
 * Charge tokenized card: POST /api/v1/card-payments/with-token. MOVES MONEY.
 * No customer step: the answer carries the final status. Every error the
 * spec lists for this call is turned into a sentence naming the field to fix.
 */

const schema = z.object({
	businessId: v.businessId(),
	cardTokenId: v.identifier('a card token id'),
	amount: v.tokenizedAmount(),
	reference: v.reference(),
	additionalFields: v.group({
		narration: v.optionalBankText(255),
		notificationUrl: v.optional(v.url()),
	}),
});

type Input = z.infer<typeof schema>;

/** What makes it move money: the call, its proof, its lookup and its body. */
export const storedCardCharge = {
	path: PATHS.storedCardCharge,
	// Response data: authTypeRequired, paymentStatus, onusReference (TKPY), redirectUrl, message, descriptor.
	proof: { kind: 'stored-card charge', types: ['TKPY'], answer: [], record: PAYIN_RECORD },
	lookup: 'paymentRequests',
	body: z.object({
		businessId: v.businessId(),
		cardTokenId: v.identifier('a card token id'),
		amount: v.tokenizedAmount(),
		reference: v.reference(),
		narration: v.optionalBankText(255),
		notificationUrl: v.optional(v.url()),
	}),
} satisfies MoneyCall;

/** The service's own words (the transport puts them in the description). */
function serviceText(error: unknown): string {
	if (!error || typeof error !== 'object') return '';
	const e = error as { description?: unknown; context?: IDataObject };
	return `${String(e.description ?? '')} ${JSON.stringify(e.context?.serviceResponse ?? '')}`;
}

/** The spec's errors of this call as messages a user acts on (or undefined). */
export function explainTokenChargeError(error: unknown, input: Input): PayOnUsInputError | undefined {
	// Outcome errors of the transport (unknown outcome, a reference held by a
	// different payment) already say what happened: passed on unchanged.
	if ((error as { context?: IDataObject } | undefined)?.context?.outcome !== undefined) return undefined;
	switch (statusOf(error)) {
		case 404:
			return new PayOnUsInputError(
				'cardTokenId',
				`"${input.cardTokenId}" was not found: no card token has this id. Check the id (Get Many Card Tokens lists them). Nothing was charged.`,
			);
		case 403:
			return new PayOnUsInputError(
				'cardTokenId',
				`belongs to another business than ${input.businessId}: charge it with the business that stored the card. Nothing was charged.`,
			);
		case 409: {
			const existing = (error as { context?: IDataObject }).context?.existingRecord as IDataObject | undefined;
			const earlier = existing?.onusReference
				? ` The earlier payment is ${String(existing.onusReference)} (status ${String(existing.paymentStatus ?? 'unknown')}).`
				: ' Look up the earlier payment with Get Many Payments (Reference filter).';
			return new PayOnUsInputError(
				'reference',
				`"${input.reference}" was already used for this business (duplicate reference): this charge was NOT made again.${earlier} Check the outcome of that earlier payment before charging this customer again.`,
			);
		}
		case 410:
			return new PayOnUsInputError(
				'cardTokenId',
				'was deleted and can no longer be charged: ask the customer to store the card again (Create Tokenization Link). Nothing was charged.',
			);
		case 422:
			// Two meanings: an expired token, or (production) a business not
			// profiled on the NGN card gateway; the service's words tell which.
			if (/profil/i.test(serviceText(error)) && !/expired/i.test(serviceText(error))) {
				return new PayOnUsInputError(
					'businessId',
					`${input.businessId} is not set up (profiled) on the NGN card gateway, so it cannot charge cards yet: ask PayOnUs to profile the business. Nothing was charged.`,
				);
			}
			return new PayOnUsInputError(
				'cardTokenId',
				'has expired (past its tokenExpiry) and can no longer be charged: ask the customer to store the card again (Create Tokenization Link). Nothing was charged.',
			);
		default:
			return undefined;
	}
}

export const chargeTokenizedCard: PayOnUsOperation<typeof schema> = {
	value: 'chargeTokenizedCard',
	name: 'Charge Stored Card',
	action: 'Charge a stored card',
	description:
		"Charge a card the customer stored earlier (moves money from the customer to the business wallet), with no customer step. Needs the card token's ID and a reference unique for the business; the amount is at least 1. Returns the payment with its final status (onusReference, paymentStatus).",
	properties: [
		businessIdField({ description: "The business that owns the card token. Leave empty to use the credential's Default Business ID." }),
		{
			displayName: 'Card Token ID',
			name: 'cardTokenId',
			type: 'string',
			// Masked in the editor: with the API credential, a token ID is enough to charge the card.
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'ID of the card token to charge (from the tokenization link or Get Many Card Tokens)',
		},
		amountField({ typeOptions: { minValue: 1, numberPrecision: 2 }, default: 1, description: 'Amount to charge, at least 1 (up to 2 decimal places)' }),
		referenceField(),
		additionalFields([
			narrationField(),
			{
				displayName: 'Notification URL',
				name: 'notificationUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://example.com/webhook',
				description: "Webhook address for this charge only (instead of the dashboard's Webhook URL)",
			},
		]),
	],
	schema,
	effect: 'movesMoney',
	money: { direction: 'in', impliedCurrency: 'NGN' },
	moneyCall: storedCardCharge,
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		const extra = input.additionalFields;
		try {
			return await postPayin(client, storedCardCharge, {
				businessId: input.businessId,
				cardTokenId: input.cardTokenId,
				amount: input.amount,
				reference: input.reference,
				narration: extra.narration,
				notificationUrl: extra.notificationUrl,
			});
		} catch (error) {
			throw explainTokenChargeError(error, input) ?? error;
		}
	},
};
