import type { IDataObject } from 'n8n-workflow';
import { type CredentialDefaults, EmptyFromExpressionError, withDefaults } from '../../shared/credential/defaults';
import { limitsOf, type DoorLimits } from './bounds';
import { PageSetupError, type RawPageParameters } from './config';
import { parseAmount } from '../../shared/values/amount';
import { PAGE_METHODS } from '../methods';

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
 * The Business the page takes payments for. Left empty in the editor: the
 * credential's Default Business ID; an expression that gives nothing stops the
 * page (rule 5 of docs/reliability.md, enforced by withDefaults in
 * nodes/shared/credential/defaults.ts): the money would land in another
 * business.
 */
function businessOf(param: ParameterReader, defaults: CredentialDefaults, stored: IDataObject | undefined): string {
	const given = String(param('businessId', '', { extractValue: true }) ?? '').trim();
	let failure: unknown;
	try {
		const filled = withDefaults({ businessId: given }, stored, { credential: defaults, label: () => 'Business' });
		return String(filled.businessId ?? '');
	} catch (error) {
		failure = error;
	}
	if (!(failure instanceof EmptyFromExpressionError)) throw failure;
	throw new PageSetupError(
		`${failure.message}. The credential's Default Business ID applies only when Business is left empty in the editor: fix the expression, or empty the field`,
	);
}

/**
 * A price the merchant set (Amount, Minimum Amount, Maximum Amount), read by
 * the shared amount reader (rule 7): "1.500" or "1,500" from an expression is
 * refused naming the form to write, never read as 1.5 or 1500.
 */
function priceOf(param: ParameterReader, name: string, label: string): number {
	const given = param(name, 0);
	const r = parseAmount(given);
	if (r.ok) return r.value;
	// a number, or nothing: config.ts's checkParameters says what is wrong with it
	if (typeof given === 'number' || given === undefined || given === null || String(given).trim() === '') return Number(given ?? 0);
	throw new PageSetupError(`${label} ${r.message}`);
}

/**
 * The page's parameters (`stored`: the node's parameters as saved, to tell a
 * Business left empty in the editor from an expression that gave nothing).
 * Hidden ones are not read.
 */
export function readSettings(param: ParameterReader, defaults: CredentialDefaults, stored?: IDataObject): PageSettings {
	const options = param('options', {}) as IDataObject;
	const title = String(param('title', ''));
	const amountMode = String(param('amountMode', 'fixed'));
	const onSuccess = String(param('onSuccess', 'message'));
	const methods = param('methods', []) as string[];
	const parameters: RawPageParameters = {
		title,
		description: String(param('description', '')),
		businessId: businessOf(param, defaults, stored),
		currency: String(param('currency', 'NGN')),
		amountMode,
		amount: amountMode === 'fixed' ? priceOf(param, 'amount', 'Amount') : 0,
		minAmount: amountMode === 'customer' ? priceOf(param, 'minAmount', 'Minimum Amount') : 0,
		maxAmount: amountMode === 'customer' ? priceOf(param, 'maxAmount', 'Maximum Amount') : 0,
		methods,
		askName: String(param('askName', 'optional')),
		askPhone: String(param('askPhone', 'no')),
		onSuccess,
		successMessage: onSuccess === 'message' ? String(param('successMessage', '')) : '',
		redirectUrl: onSuccess === 'redirect' ? String(param('redirectUrl', '')) : '',
		expiryMinutes: Number(options.expiryMinutes ?? 30),
		narration: String(options.narration ?? '') || title,
	};
	// Each method's own parameters (card: its key), read only when it is chosen.
	for (const m of PAGE_METHODS)
		for (const property of m.properties) parameters[property.name] = methods.includes(m.id) ? String(param(property.name, '')) : '';
	return { parameters, notPaidOutput: Boolean(options.notPaidOutput), limits: limitsOf(options) };
}
