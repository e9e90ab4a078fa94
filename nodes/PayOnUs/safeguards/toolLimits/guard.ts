import type { MoneyAsk } from '../moneyRequest';
import { addMoney } from '../moneyRequest';
import { limitOf, normaliseBeneficiary, type ToolLimits } from './limits';
import { MAX_WINDOW_ENTRIES } from './totals';

/** The check of one money-moving request against the limits of its currency and the totals spent so far. */

/** Where a tool call runs: its execution (absent for MCP calls), workflow and node. */
export interface ToolScope {
	executionId?: string;
	workflowId: string;
	nodeName: string;
}

/** An execution id n8n gave the call ('' / undefined: none, as for MCP tool calls). */
export function hasExecution(scope: ToolScope): scope is ToolScope & { executionId: string } {
	return typeof scope.executionId === 'string' && scope.executionId !== '' && scope.executionId !== 'undefined';
}

export interface Spent {
	/** This execution's total so far (undefined: the call has no execution). */
	execution?: number;
	/** The window's total so far (undefined: no window limit set). null: too many calls to count. */
	window?: number | null;
}

export interface Refusal {
	limit: string;
	reason: string;
}

/** The refusal of a currency without limits, naming the Spending Limits row to add. */
function noLimitFor(cur: string, limits: ToolLimits): Refusal {
	const set = Object.keys(limits.currencies).sort();
	return {
		limit: 'spendingLimits',
		reason: `no spending limit is set for ${cur} on this tool (limits are set for: ${set.length > 0 ? set.join(', ') : 'no currency'}); the workflow builder can add ${cur} under Spending Limits`,
	};
}

/** The first limit `ask` breaks (undefined: within every limit), by the limits of its currency. */
export function checkAsk(ask: MoneyAsk, limits: ToolLimits, spentBefore: number | Spent): Refusal | undefined {
	const cur = ask.currency ?? 'an unknown currency';
	if (!limits.allowMoneyMovement) {
		return { limit: 'allowMoneyMovement', reason: 'money-moving operations are not allowed for this tool' };
	}
	const limit = limitOf(limits, ask.currency);
	if (!limit) return noLimitFor(cur, limits);
	if (!Number.isFinite(ask.amount) || ask.amount > limit.maxAmountPerCall) {
		return { limit: 'maxAmountPerCall', reason: `${cur} ${ask.amount} is over the maximum of ${limit.maxAmountPerCall} per call` };
	}
	const spent: Spent = typeof spentBefore === 'number' ? { execution: spentBefore } : spentBefore;
	if (spent.execution === undefined && !(limit.maxTotalPerWindow > 0)) {
		return {
			limit: 'maxTotalPerWindow',
			reason:
				`this call comes without a workflow execution of its own (as calls from an MCP client through the MCP Server Trigger do), so no total per execution can be counted for it; the workflow builder can allow such calls by setting Max Total per Window for ${cur}`,
		};
	}
	if (spent.execution !== undefined) {
		const after = addMoney(spent.execution, ask.amount);
		if (after > limit.maxTotalPerExecution) {
			return {
				limit: 'maxTotalPerExecution',
				reason: `${cur} ${ask.amount} would bring this execution's total to ${after}, over the maximum of ${limit.maxTotalPerExecution} (${spent.execution} already sent)`,
			};
		}
	}
	if (limit.maxTotalPerWindow > 0) {
		if (spent.window === null || spent.window === undefined) {
			return {
				limit: 'maxTotalPerWindow',
				reason: `too many calls of this tool in the last ${limits.windowMinutes} minutes to keep count of (${MAX_WINDOW_ENTRIES})`,
			};
		}
		const after = addMoney(spent.window, ask.amount);
		if (after > limit.maxTotalPerWindow) {
			return {
				limit: 'maxTotalPerWindow',
				reason: `${cur} ${ask.amount} would bring this tool's total in this workflow over the last ${limits.windowMinutes} minutes to ${after}, over the maximum of ${limit.maxTotalPerWindow} (${spent.window} already sent in that window through this n8n process)`,
			};
		}
	}
	if (limits.allowedBeneficiaries.length > 0 && ask.direction === 'out') {
		const allowed = new Set(limits.allowedBeneficiaries);
		const outside = ask.beneficiaries.map(normaliseBeneficiary).filter((b) => !allowed.has(b));
		if (outside.length > 0 || ask.beneficiaries.length === 0) {
			return { limit: 'allowedBeneficiaries', reason: `${outside.join(', ') || 'the beneficiary'} is not on the list of allowed beneficiaries` };
		}
	}
	return undefined;
}
