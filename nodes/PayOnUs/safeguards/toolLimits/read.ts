import type { IDataObject } from 'n8n-workflow';
import { booleanParameter, numberParameter, ParameterValueError, readNumber, readOption } from '../../../shared/parameters';
import { parseAmount } from '../../../shared/values/amount';
import { CURRENCIES } from '../../../shared/validation';
import { CURRENCY_LIMIT_DEFAULTS, CURRENCY_LIMIT_NAMES, type CurrencyLimit, normaliseBeneficiary, TOOL_DEFAULTS, type ToolLimits } from './limits';

/** Reading the limits from the node's parameters (./properties.ts). */

/** The allow-list as written: account numbers or phone numbers separated by commas, semicolons, spaces or new lines. */
export function parseBeneficiaries(text: unknown): string[] {
	if (typeof text !== 'string') return [];
	return text
		.split(/[\s,;]+/)
		.map(normaliseBeneficiary)
		.filter((s) => s !== '');
}

/**
 * A limit amount, as readNumber, but a text with a decimal comma or
 * thousands separators ("1.500", "1,500") is refused naming the form to
 * write (rule 7, ../../../shared/values/amount.ts), never read as 1.5.
 */
function readLimitAmount(value: unknown, parameter: string, displayName?: string): number {
	if (typeof value === 'string') {
		const read = parseAmount(value, { min: 0, minInclusive: true });
		if (!read.ok && read.write) throw new ParameterValueError(parameter, value, read.message.replace(/^must be /, ''), displayName);
	}
	return readNumber(value, parameter, displayName);
}

/** The limits as read from the node's parameters (defaults for missing ones): the Spending Limits rows. */
export function readToolLimits(get: (name: string, fallback: unknown) => unknown): ToolLimits {
	// Strict (../../../shared/parameters): a limit set by an expression that gives no clear
	// number or yes/no is an error naming it, never the default limit in its place.
	const allowMoneyMovement = booleanParameter(get, 'toolAllowMoneyMovement', TOOL_DEFAULTS.allowMoneyMovement);
	const windowMinutes = numberParameter(get, 'toolWindowMinutes', TOOL_DEFAULTS.windowMinutes);
	const allowedBeneficiaries = parseBeneficiaries(get('toolAllowedBeneficiaries', TOOL_DEFAULTS.allowedBeneficiaries));
	return { allowMoneyMovement, windowMinutes, currencies: readSpendingLimits(get('toolSpendingLimits', {})), allowedBeneficiaries };
}

/** Spending Limits: `{ limit: [{ currency, maxAmountPerCall, ... }] }`; a currency given twice, or none, is an error. */
export function readSpendingLimits(value: unknown): Record<string, CurrencyLimit> {
	const rows = value !== null && typeof value === 'object' ? (value as IDataObject).limit : undefined;
	const out: Record<string, CurrencyLimit> = {};
	if (rows === undefined) return out;
	if (!Array.isArray(rows)) throw new Error('"toolSpendingLimits" (Spending Limits) must be a list of currencies with their limits');
	rows.forEach((row: IDataObject, n) => {
		const at = `toolSpendingLimits.limit[${n}]`;
		const currency = readOption(row?.currency, CURRENCIES, `${at}.currency`, 'Currency');
		if (Object.prototype.hasOwnProperty.call(out, currency)) {
			throw new Error(`"Spending Limits" names ${currency} twice: give each currency one row`);
		}
		const field = (name: keyof CurrencyLimit) =>
			row[name] === undefined ? CURRENCY_LIMIT_DEFAULTS[name] : readLimitAmount(row[name], `${at}.${name}`, `${CURRENCY_LIMIT_NAMES[name]} of ${currency}`);
		out[currency] = {
			maxAmountPerCall: field('maxAmountPerCall'),
			maxTotalPerExecution: field('maxTotalPerExecution'),
			maxTotalPerWindow: field('maxTotalPerWindow'),
		};
	});
	return out;
}
