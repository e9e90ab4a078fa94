import type { IDataObject } from 'n8n-workflow';
import { orCredentialDefault, type CredentialDefaults } from '../../shared/credential/defaults';
import { limitsOf, type DoorLimits } from './bounds';
import type { RawPageParameters } from './config';

/** The node's parameters, as the page reads them for one request (the values config.ts checks). */

/** Reads one node parameter (IWebhookFunctions.getNodeParameter). */
export type ParameterReader = (name: string, fallback: unknown, options?: { extractValue: boolean }) => unknown;

export interface PageSettings {
	parameters: RawPageParameters;
	/** Options > Not Paid Output. */
	notPaidOutput: boolean;
	/** Options > Limit: ... (rule 4, ./bounds.ts), or what is wrong with one. */
	limits: DoorLimits | string;
}

/**
 * The page's parameters; an empty Business takes the credential's Default
 * Business ID (the one rule: nodes/shared/credential/defaults.ts). Hidden ones
 * are not read.
 */
export function readSettings(param: ParameterReader, defaults: CredentialDefaults): PageSettings {
	const options = param('options', {}) as IDataObject;
	const title = String(param('title', ''));
	const amountMode = String(param('amountMode', 'fixed'));
	const onSuccess = String(param('onSuccess', 'message'));
	const methods = param('methods', []) as string[];
	const parameters: RawPageParameters = {
		title,
		description: String(param('description', '')),
		businessId: orCredentialDefault(String(param('businessId', '', { extractValue: true }) ?? '').trim(), defaults, 'businessId') ?? '',
		currency: String(param('currency', 'NGN')),
		amountMode,
		amount: amountMode === 'fixed' ? Number(param('amount', 0)) : 0,
		minAmount: amountMode === 'customer' ? Number(param('minAmount', 0)) : 0,
		maxAmount: amountMode === 'customer' ? Number(param('maxAmount', 0)) : 0,
		methods,
		askName: String(param('askName', 'optional')),
		askPhone: String(param('askPhone', 'no')),
		onSuccess,
		successMessage: onSuccess === 'message' ? String(param('successMessage', '')) : '',
		redirectUrl: onSuccess === 'redirect' ? String(param('redirectUrl', '')) : '',
		expiryMinutes: Number(options.expiryMinutes ?? 30),
		cardPublicKey: methods.includes('card') ? String(param('cardPublicKey', '')) : '',
		narration: String(options.narration ?? '') || title,
	};
	return { parameters, notPaidOutput: Boolean(options.notPaidOutput), limits: limitsOf(options) };
}
