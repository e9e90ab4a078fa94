import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v3';
import type { Envelope } from '../../../shared/clientInterface';
import { PATHS } from '../../../shared/api';
import * as v from '../../../shared/validation';
import { businessIdField } from '../fields';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { explain } from '../../../shared/errors';

/**
 * Delete Card Token: DELETE /api/v1/card-tokens/{id}?businessId=...
 * Deleting a token already deleted succeeds with the message "Card token
 * already deleted" (spec): it is reported as `alreadyDeleted: true`, not as
 * an error.
 */

const ALREADY = /already\s+deleted/i;

const schema = z.object({
	businessId: v.businessId(),
	cardTokenId: v.identifier('a card token id'),
});

type Input = z.infer<typeof schema>;

export const deleteToken: PayOnUsOperation<typeof schema> = {
	value: 'deleteToken',
	name: 'Delete Card Token',
	action: 'Delete a card token',
	description:
		'Delete a stored card token so the card can no longer be charged (moves no money). Returns the token ID, deleted: true and alreadyDeleted, true when it was deleted before.',
	properties: [
		businessIdField({ description: "The business owning the token. Leave empty to use the credential's Default Business ID." }),
		{
			displayName: 'Card Token ID',
			name: 'cardTokenId',
			type: 'string',
			// Masked in the editor, as in Charge Tokenized Card: with the API
			// credential, a token ID is enough to charge or delete the card.
			typeOptions: { password: true },
			default: '',
			required: true,
		},
	],
	schema,
	effect: 'write',
	paging: false,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input: Input) {
		let answer: Envelope<unknown>;
		try {
			answer = await ctx.client.request<Envelope<unknown>>({
				method: 'DELETE',
				path: PATHS.storedCard(input.cardTokenId),
				qs: { businessId: input.businessId },
				envelope: true,
			});
		} catch (error) {
			throw explain(error, {
				403: {
					title: `Card token ${input.cardTokenId} belongs to another business than ${input.businessId}`,
					todo: 'Nothing was deleted. Check the token and the business (or whether card tokenization is enabled for it on the PayOnUs dashboard).',
				},
				404: {
					title: `No card token "${input.cardTokenId}" exists for business ${input.businessId}`,
					todo: 'Nothing was deleted. Check the token ID and the credential\'s environment (sandbox or production).',
				},
			});
		}
		const message = typeof answer?.message === 'string' ? answer.message : '';
		const data = answer?.data && typeof answer.data === 'object' ? (answer.data as IDataObject) : {};
		const alreadyDeleted = ALREADY.test(message) || ALREADY.test(String(data.message ?? ''));
		return {
			id: input.cardTokenId,
			businessId: input.businessId,
			deleted: true,
			alreadyDeleted,
			message: message || (alreadyDeleted ? 'Card token already deleted' : 'Card token deleted'),
		};
	},
};
