import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';
import type { PayOnUsClient } from '../../../shared/client';
import { accountNumber, businessId, currency, text } from '../../../shared/validation';
import type { OperationContext, PayOnUsOperation } from '../types';
import { businessIdField, currencyField } from '../fields';

/** Name enquiry: who owns a bank account, before paying it. */

export const NAME_ENQUIRY_PATH = '/api/v1/transfer-requests/name-enquiry';

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

export interface NameEnquiryResult extends IDataObject {
	accountNumber?: string;
	accountName?: string;
	bankCode?: string;
	bankName?: string;
}

/** Sends the name enquiry (also used by Create Transfer's name check). */
export async function nameEnquiry(
	client: PayOnUsClient,
	body: { institutionCode: string; accountNumber: string; businessId: string; currency: string },
): Promise<NameEnquiryResult> {
	return await client.request<NameEnquiryResult>({ method: 'POST', path: NAME_ENQUIRY_PATH, body });
}

export const nameEnquiryOperation: PayOnUsOperation<typeof schema> = {
	resource: 'payout',
	value: 'nameEnquiry',
	name: 'Name Enquiry',
	action: 'Look up the name on a bank account',
	description:
		'Look up who owns a bank account before paying it (moves no money). Returns the account number, the account holder name, the bank code and the bank name.',
	properties,
	schema,
	async execute(ctx: OperationContext, input) {
		return await nameEnquiry(ctx.client, {
			institutionCode: input.institutionCode,
			accountNumber: input.accountNumber,
			businessId: input.businessId,
			currency: input.currency,
		});
	},
};
