import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod/v3';
import { enquireName } from '../../../shared/api';
import { accountNumber, businessId, currency, text } from '../../../shared/validation';
import { itemByItem, type OperationContext, type PayOnUsOperation } from '../types';
import { businessIdField, currencyField } from '../fields';

/** Name enquiry: who owns a bank account, before paying it. */

const properties: INodeProperties[] = [
	businessIdField(),
	currencyField({ required: true }),
	{
		displayName: 'Bank Name or ID',
		name: 'institutionCode',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getBanks', loadOptionsDependsOn: ['currency'] },
		default: '',
		required: true,
		description:
			'Bank of the account, from the banks of the currency. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Account Number',
		name: 'accountNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: '9999991112',
	},
];

const schema = z.object({
	businessId: businessId(),
	currency: currency(),
	institutionCode: text(20),
	accountNumber: accountNumber(),
});

export const nameEnquiry: PayOnUsOperation<typeof schema> = {
	value: 'nameEnquiry',
	name: 'Look Up Account Name',
	action: 'Look up the name on a bank account',
	description:
		'Look up who owns a bank account before paying it (moves no money). Returns the account number, the account holder name, the bank code and the bank name.',
	properties,
	schema,
	// A POST that moves no money: run one item after the other.
	effect: 'write',
	paging: false,
	aggregatesItems: itemByItem,
	async execute(ctx: OperationContext, input) {
		return await enquireName(ctx.client, {
			institutionCode: input.institutionCode,
			accountNumber: input.accountNumber,
			businessId: input.businessId,
			currency: input.currency,
		});
	},
};
