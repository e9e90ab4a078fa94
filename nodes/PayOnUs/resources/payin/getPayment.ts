import { z } from 'zod/v3';
import * as payins from '../../../shared/payins';
import * as v from '../../../shared/validation';
import { businessIdField, onusReferenceField } from '../fields';
import { itemByItem, type PayOnUsOperation } from '../types';
import { retitle } from '../../../shared/errors';

/**
 * Get payment: the current record of one payin by its onusReference.
 * GET /api/v1/payment-requests/businesses/{businessId}?onusReference=...
 */

const schema = z.object({
	businessId: v.businessId(),
	onusReference: v.onusReference(),
});

type Input = z.infer<typeof schema>;

export const getPayment: PayOnUsOperation<typeof schema> = {
	value: 'getPayment',
	name: 'Get Payment',
	action: 'Get a payment',
	description:
		'Get one payin (card, virtual account, mobile money or EFT) by its onusReference. Returns the payment request with its current status (PROCESSING, PENDING, SUCCESSFUL or FAILED), amount and customer (read only).',
	properties: [
		businessIdField(),
		onusReferenceField({ description: 'The reference PayOnUs gave the payin' }),
	],
	schema,
	effect: 'read',
	outputRecord: 'payment',
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		try {
			return await payins.getPayin(client, input.businessId, input.onusReference);
		} catch (error) {
			throw retitle(
				error,
				404,
				`No payment "${input.onusReference}" in business ${input.businessId}`,
				'Check the PayOnUs Reference (the onusReference of the payment, e.g. ONUS-NUB-...) and the Business: the payment must belong to that business, in this environment (sandbox or production).',
			);
		}
	},
};
