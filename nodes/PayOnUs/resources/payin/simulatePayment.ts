import type { z } from 'zod/v3';
import * as payins from '../../../shared/payins';
import { amountField, onusReferenceField } from '../fields';
import { itemByItem, PayOnUsInputError, type PayOnUsOperation } from '../types';

/**
 * Simulate dynamic account payment (sandbox only): pretends the customer paid
 * a dynamic NGN account. POST /api/v1/fund-ngn-account
 *
 * Refused before sending when the credential points at production. A custom
 * base URL (e.g. the local sandbox) is allowed: the service itself refuses
 * there if it is not a sandbox (nodes/shared/payins/calls.ts). Its fields are
 * the call's body, checked with the call's own schema.
 */

const schema = payins.simulateBody;

/** The refusal with a production credential, as this node's input error (said before anything is sent). */
function inNodeWords(error: unknown): unknown {
	return error instanceof payins.SandboxOnlyError ? new PayOnUsInputError('', error.message) : error;
}

type Input = z.infer<typeof schema>;

export const simulatePayment: PayOnUsOperation<typeof schema> = {
	value: 'simulatePayment',
	name: 'Simulate Payment (Sandbox Only)',
	action: 'Simulate a dynamic account payment (sandbox only)',
	description:
		'Sandbox only: pretend the customer paid a dynamic NGN account, to test a workflow end to end (moves no real money; a COLLECTION webhook follows). Returns what was simulated. Refused with a production credential.',
	properties: [
		onusReferenceField({ description: 'The onusReference returned when the dynamic account was created' }),
		{
			displayName: 'Account Number',
			name: 'accountNumber',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 9912345678',
			description: 'The account number returned when the dynamic account was created',
		},
		amountField({ description: 'Amount the simulated customer pays, in NGN (the exact amount settles the payin)' }),
		{
			displayName: 'Payment Status',
			name: 'paymentStatus',
			type: 'options',
			options: [
				{ name: 'Successful', value: 'SUCCESSFUL' },
				{ name: 'Failed', value: 'FAILED' },
			],
			default: 'SUCCESSFUL',
			description: 'Outcome to simulate',
		},
		{
			displayName: 'For Dynamic Account',
			name: 'forDynamicAccount',
			type: 'boolean',
			default: true,
			description: 'Whether the account is a dynamic account (true) rather than a fixed account',
		},
	],
	schema,
	effect: 'write',
	paging: false,
	aggregatesItems: itemByItem,
	async execute({ client }, input: Input) {
		try {
			const { sent, answer } = await payins.simulatePayment(client, input);
			// The spec does not show the response body: echo what was simulated.
			return { ...sent, simulated: true, ...(answer && typeof answer === 'object' ? answer : {}) };
		} catch (error) {
			throw inNodeWords(error);
		}
	},
};
