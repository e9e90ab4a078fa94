/**
 * What a spending limit is: the limits of one currency (CurrencyLimit), the
 * limits of the tool (ToolLimits, one CurrencyLimit per currency it may move
 * money in), their defaults and the names the parameters and messages use.
 */

/** The defaults of the tool's parameters: the limits' parameters take theirs from here (CURRENCY_LIMIT_DEFAULTS), the others' are the same literals (see docs/action-node.md#spending-limits-for-ai-agents for why). */
export const TOOL_DEFAULTS = {
	allowMoneyMovement: false,
	maxAmountPerCall: 1000,
	maxTotalPerExecution: 5000,
	/** 0: no window total (then calls without an execution are refused). */
	maxTotalPerWindow: 0,
	windowMinutes: 60,
	allowedBeneficiaries: '',
};

/** The limits of one currency, in that currency. */
export interface CurrencyLimit {
	maxAmountPerCall: number;
	maxTotalPerExecution: number;
	/** 0: none. */
	maxTotalPerWindow: number;
}

/** The defaults of a new row of Spending Limits (no row: every money-moving call refused); the row's parameters take theirs from here. */
export const CURRENCY_LIMIT_DEFAULTS: CurrencyLimit = {
	maxAmountPerCall: TOOL_DEFAULTS.maxAmountPerCall,
	maxTotalPerExecution: TOOL_DEFAULTS.maxTotalPerExecution,
	maxTotalPerWindow: TOOL_DEFAULTS.maxTotalPerWindow,
};

/** The limits' names: the parameters' display names (a Spending Limits row), and what messages call them. */
export const CURRENCY_LIMIT_NAMES: Record<keyof CurrencyLimit, string> = {
	maxAmountPerCall: 'Max Amount per Call',
	maxTotalPerExecution: 'Max Total per Execution',
	maxTotalPerWindow: 'Max Total per Window',
};

export interface ToolLimits {
	allowMoneyMovement: boolean;
	windowMinutes: number;
	/** The limits of each currency the tool may move money in (a row of Spending Limits each); a currency not here is refused. */
	currencies: Record<string, CurrencyLimit>;
	/** Empty: any beneficiary. */
	allowedBeneficiaries: string[];
}

/** The limits of `currency`; undefined when none are set for it. */
export function limitOf(limits: ToolLimits, currency: string | undefined): CurrencyLimit | undefined {
	if (!currency || !Object.prototype.hasOwnProperty.call(limits.currencies, currency)) return undefined;
	return limits.currencies[currency];
}

/** Whether the node runs as an AI agent's tool (its type is `<name>Tool`). */
export function isToolNode(type: string): boolean {
	return type.endsWith('Tool');
}

/** An account number or phone number as the allow-list compares it (a leading + ignored). */
export const normaliseBeneficiary = (s: string) => s.trim().replace(/^\+/, '');
