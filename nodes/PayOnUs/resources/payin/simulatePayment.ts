import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import { PATHS } from '../../../shared/api';
import * as v from '../../../shared/validation';
import { amountField, onusReferenceField } from '../fields';
import { itemByItem, PayOnUsInputError, type PayOnUsOperation } from '../types';

/**
 * Simulate dynamic account payment (sandbox only): pretends the customer paid
 * a dynamic NGN account. POST /api/v1/fund-ngn-account
 *
 * Refused before sending when the credential points at production. A custom
 * base URL (e.g. the local sandbox) is allowed: the service itself refuses
 * there if it is not a sandbox.
 */

const STATUSES = ['SUCCESSFUL', 'FAILED'] as const;

const schema = z.object({
	onusReference: v.onusReference(),
	accountNumber: v.accountNumber(),
	amount: v.amount(),
	paymentStatus: v.oneOf(STATUSES),
	forDynamicAccount: v.bool(),
});

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
		if (client.environment === 'production') {
			throw new PayOnUsInputError(
				'',
				'Simulate Dynamic Account Payment only works in the sandbox, and this PayOnUs credential points at production. Use a sandbox credential; nothing was sent.',
			);
		}
		const body: IDataObject = {
			onusReference: input.onusReference,
			accountNumber: input.accountNumber,
			amount: input.amount,
			paymentStatus: input.paymentStatus,
			forDynamicAccount: input.forDynamicAccount,
		};
		const data = await client.request<IDataObject | null>({ method: 'POST', path: PATHS.fundNgnAccount, body });
		// The spec does not show the response body: echo what was simulated.
		return { ...body, simulated: true, ...(data && typeof data === 'object' ? data : {}) };
	},
};
