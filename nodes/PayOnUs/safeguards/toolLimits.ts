import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { booleanParameter, numberParameter, readNumber, readOption } from '../../shared/parameters';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../../shared/clientInterface';
import { CURRENCIES } from '../../shared/validation';
import { operationId, type NodeOperation, type OperationContext } from '../resources/types';
import { addMoney, isMoneyRequest, moneyOf, readAsk, type MoneyAsk } from './moneyRequest';

/**
 * Spending limits when the node runs as an AI agent's tool.
 *
 * n8n turns a `usableAsTool` node into a second node type named
 * `<name>Tool` (here `n8n-nodes-payonus.payOnUsTool`, see n8n's
 * tool-generation/ai-tools.js) and shows parameters whose displayOptions say
 * `'@tool': [true]` only on that type (n8n-workflow node-helpers: `@tool` is
 * `nodeTypeDescription.name.endsWith('Tool')`). At run time the node knows
 * by its type: `this.getNode().type.endsWith('Tool')`.
 *
 * As a tool, money-moving operations are refused unless the builder turns
 * them on; then every money-moving request is checked, just before it would
 * be sent, against the limits OF ITS CURRENCY (docs/reliability.md, rule 6:
 * a limit names its currency): the maximum amount per call, the maximum
 * total per execution, the optional maximum total per time window (for this
 * node in this workflow); a currency without limits is refused. Then the
 * optional beneficiary allow-list.
 *
 * How the limits are set depends on the node version (the meaning of a saved
 * workflow never changes): from version 4, Spending Limits, one row per
 * currency (toolSpendingLimits); versions 1 to 3, one set of numbers applied
 * in each of the Allowed Currencies (toolMaxAmountPerCall, ...). Both are
 * read into the same per-currency ToolLimits (readToolLimits), which is all
 * checkAsk knows.
 *
 * Totals are scoped to the workflow and the node (never one bucket for the
 * process). n8n runs a tool called through the MCP Server Trigger without an
 * execution id of its own: a total per execution cannot be counted for such
 * a call, so it is refused unless the builder sets a window total (fail
 * closed). Both totals are kept in this n8n process's memory: with several
 * processes (queue mode, multi-main) each counts the calls it runs, which
 * the parameters' descriptions say. Workflow static data is not used: n8n
 * saves it after an execution, whole, last write wins, so two processes (or
 * two concurrent calls) would lose each other's counts. A refusal is an output item the agent reads
 * (`refused: true`, what was asked, which limit, `nothingSent: true`), never
 * an error. Read-only operations are not affected.
 */

/** Defaults of versions 1 to 3: the limits' parameters take theirs from here (limitParameter), the others' are the same literals (see docs/action-node.md#spending-limits-for-ai-agents for why). */
export const TOOL_DEFAULTS = {
	allowMoneyMovement: false,
	maxAmountPerCall: 1000,
	maxTotalPerExecution: 5000,
	/** 0: no window total (then calls without an execution are refused). */
	maxTotalPerWindow: 0,
	windowMinutes: 60,
	allowedCurrencies: [] as string[],
	allowedBeneficiaries: '',
};

/** Version 4: the defaults of a new row of Spending Limits (no row: every money-moving call refused); the row's parameters take theirs from here. */
export const CURRENCY_LIMIT_DEFAULTS: CurrencyLimit = {
	maxAmountPerCall: TOOL_DEFAULTS.maxAmountPerCall,
	maxTotalPerExecution: TOOL_DEFAULTS.maxTotalPerExecution,
	maxTotalPerWindow: TOOL_DEFAULTS.maxTotalPerWindow,
};

/** The limits' names: the parameters' display names (a Spending Limits row, and versions 1 to 3), and what messages call them. */
export const CURRENCY_LIMIT_NAMES: Record<keyof CurrencyLimit, string> = {
	maxAmountPerCall: 'Max Amount per Call',
	maxTotalPerExecution: 'Max Total per Execution',
	maxTotalPerWindow: 'Max Total per Window',
};

/** The node version from which the limits are set per currency (Spending Limits). */
export const PER_CURRENCY_VERSION = 4;

/** An execution's totals are forgotten only after this long unused (never while it may still run). */
export const EXECUTION_IDLE_MS = 24 * 60 * 60 * 1000;
/** More calls than this in one window for one node: refused (cannot be counted in bounded memory). */
export const MAX_WINDOW_ENTRIES = 10_000;

/** Executions whose running totals are kept at most (oldest forgotten first). */
export const MAX_TRACKED_EXECUTIONS = 1000;

/** The limits of one currency, in that currency. */
export interface CurrencyLimit {
	maxAmountPerCall: number;
	maxTotalPerExecution: number;
	/** 0: none. */
	maxTotalPerWindow: number;
}

export interface ToolLimits {
	allowMoneyMovement: boolean;
	windowMinutes: number;
	/** The limits of each currency the tool may move money in; a currency not here is refused. */
	currencies: Record<string, CurrencyLimit>;
	/**
	 * How the builder set them, which names the refusal of a currency without
	 * limits: 'spendingLimits' (version 4: a row per currency) or
	 * 'allowedCurrencies' (versions 1 to 3: one set of numbers for the allowed currencies).
	 */
	setBy: 'spendingLimits' | 'allowedCurrencies';
	/** Empty: any beneficiary. */
	allowedBeneficiaries: string[];
}

/** Versions 1 to 3 as the builder set them: one set of numbers, applied in each allowed currency. */
export interface SingleLimit extends CurrencyLimit {
	allowMoneyMovement: boolean;
	windowMinutes: number;
	allowedCurrencies: string[];
	allowedBeneficiaries: string[];
}

/** Versions 1 to 3: their one set of numbers, in each allowed currency (what it always meant). */
export function singleLimit(s: SingleLimit): ToolLimits {
	const limit: CurrencyLimit = { maxAmountPerCall: s.maxAmountPerCall, maxTotalPerExecution: s.maxTotalPerExecution, maxTotalPerWindow: s.maxTotalPerWindow };
	const currencies: Record<string, CurrencyLimit> = {};
	for (const c of s.allowedCurrencies) currencies[c] = { ...limit };
	return { allowMoneyMovement: s.allowMoneyMovement, windowMinutes: s.windowMinutes, currencies, setBy: 'allowedCurrencies', allowedBeneficiaries: s.allowedBeneficiaries };
}

/** The limits of `currency`; undefined when none are set for it. */
export function limitOf(limits: ToolLimits, currency: string | undefined): CurrencyLimit | undefined {
	if (!currency || !Object.prototype.hasOwnProperty.call(limits.currencies, currency)) return undefined;
	return limits.currencies[currency];
}

const TOOL_ONLY = { '@tool': [true] };
const WHEN_ALLOWED = { '@tool': [true], toolAllowMoneyMovement: [true] };
/** Versions 1 to 3: one set of numbers for the allowed currencies. */
const SINGLE = { ...WHEN_ALLOWED, '@version': [{ _cnd: { lte: PER_CURRENCY_VERSION - 1 } }] };
/** From version 4: limits per currency. */
const PER_CURRENCY = { ...WHEN_ALLOWED, '@version': [{ _cnd: { gte: PER_CURRENCY_VERSION } }] };

/**
 * The parameter of one limit of a currency (versions 1 to 3: `tool<Limit>`,
 * shown by `show`; a Spending Limits row: `<limit>`): its name and default
 * are CURRENCY_LIMIT_NAMES' and CURRENCY_LIMIT_DEFAULTS'.
 */
function limitParameter(limit: keyof CurrencyLimit, name: string, description: string, show?: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties {
	const fallback = CURRENCY_LIMIT_DEFAULTS[limit];
	return {
		displayName: CURRENCY_LIMIT_NAMES[limit],
		name,
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: fallback,
		noDataExpression: true,
		...(show ? { displayOptions: { show } } : {}),
		description,
	};
}

export function toolLimitProperties(): INodeProperties[] {
	return [
		{
			displayName:
				'As an AI agent tool, operations that move money (transfers, bulk transfers, card and mobile money charges, EFT payments) are refused unless allowed below, and then only within these limits. A refused call sends nothing and tells the agent why.',
			name: 'toolMoneyNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: TOOL_ONLY },
		},
		{
			displayName: 'Allow Money-Moving Operations',
			name: 'toolAllowMoneyMovement',
			type: 'boolean',
			default: false,
			noDataExpression: true,
			displayOptions: { show: TOOL_ONLY },
			description: 'Whether the agent may run operations that move money, within the limits below. Off: every such call is refused and nothing is sent.',
		},
		limitParameter(
			'maxAmountPerCall',
			'toolMaxAmountPerCall',
			'Largest amount of one call, in its currency (a bulk batch: its total). Larger calls are refused.',
			SINGLE,
		),
		limitParameter(
			'maxTotalPerExecution',
			'toolMaxTotalPerExecution',
			'Largest total of all calls of one workflow execution, per currency (every call sent counts, whatever its outcome). A call that would go over it is refused. Calls from an MCP client (MCP Server Trigger) have no execution of their own: they need Max Total per Window.',
			SINGLE,
		),
		limitParameter(
			'maxTotalPerWindow',
			'toolMaxTotalPerWindow',
			'Largest total of this node\'s money-moving calls in this workflow over the last Window (Minutes), per currency, whichever execution, agent or MCP client they come from (every call sent counts). 0: no window limit, and calls from an MCP client (which have no execution of their own) are refused. Counted by each n8n process: with several (queue mode, multi-main), each can reach it.',
			SINGLE,
		),
		{
			displayName: 'Spending Limits',
			name: 'toolSpendingLimits',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Currency',
			default: {},
			displayOptions: { show: PER_CURRENCY },
			description:
				'The limits of each currency the agent may move money in, in that currency. A call in a currency without a row here is refused. None: every money-moving call is refused.',
			options: [
				{
					displayName: 'Currency',
					name: 'limit',
					values: [
						{
							displayName: 'Currency',
							name: 'currency',
							type: 'options',
							options: CURRENCIES.map((c) => ({ name: c, value: c })),
							default: 'NGN',
							noDataExpression: true,
							description: 'The currency these limits are in (each currency once)',
						},
						limitParameter(
							'maxAmountPerCall',
							'maxAmountPerCall',
							'Largest amount of one call in this currency (a bulk batch: its total). Larger calls are refused.',
						),
						limitParameter(
							'maxTotalPerExecution',
							'maxTotalPerExecution',
							'Largest total in this currency of all calls of one workflow execution (every call sent counts, whatever its outcome). Calls from an MCP client (MCP Server Trigger) have no execution of their own: they need Max Total per Window.',
						),
						limitParameter(
							'maxTotalPerWindow',
							'maxTotalPerWindow',
							"Largest total in this currency of this node's calls in this workflow over the last Window (Minutes), whichever execution, agent or MCP client they come from. 0: no window limit, and calls from an MCP client are refused. Counted by each n8n process.",
						),
					],
				},
			],
		},
		{
			displayName: 'Window (Minutes)',
			name: 'toolWindowMinutes',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 60,
			noDataExpression: true,
			displayOptions: { show: WHEN_ALLOWED },
			description: 'The time window of Max Total per Window (of every currency), in minutes (a sliding window: calls older than this stop counting)',
		},
		{
			displayName: 'Allowed Currencies',
			name: 'toolAllowedCurrencies',
			type: 'multiOptions',
			options: CURRENCIES.map((c) => ({ name: c, value: c })),
			default: [],
			noDataExpression: true,
			displayOptions: { show: SINGLE },
			description: 'Currencies the agent may move money in. None chosen: every money-moving call is refused.',
		},
		{
			displayName: 'Allowed Beneficiaries',
			name: 'toolAllowedBeneficiaries',
			type: 'string',
			default: '',
			noDataExpression: true,
			placeholder: '9999991112, 254700000000',
			displayOptions: { show: WHEN_ALLOWED },
			description:
				'Account numbers or phone numbers transfers may pay (every row of a bulk batch), separated by commas, spaces or new lines; a leading + is ignored. Empty: any beneficiary. Charges and collections have no beneficiary and are not checked against it.',
		},
	];
}

export function isToolNode(type: string): boolean {
	return type.endsWith('Tool');
}

const normalisePhone = (s: string) => s.trim().replace(/^\+/, '');

export function parseBeneficiaries(text: unknown): string[] {
	if (typeof text !== 'string') return [];
	return text
		.split(/[\s,;]+/)
		.map(normalisePhone)
		.filter((s) => s !== '');
}

/**
 * The limits as read from the node's parameters (defaults for missing
 * ones), by the node version: from version 4 the Spending Limits rows,
 * before it the one set of numbers in each allowed currency.
 */
export function readToolLimits(get: (name: string, fallback: unknown) => unknown, typeVersion = 1): ToolLimits {
	// Strict (../../shared/parameters): a limit set by an expression that gives no clear
	// number or yes/no is an error naming it, never the default limit in its place.
	const num = (name: string, fallback: number) => numberParameter(get, name, fallback);
	const allowMoneyMovement = booleanParameter(get, 'toolAllowMoneyMovement', TOOL_DEFAULTS.allowMoneyMovement);
	const windowMinutes = num('toolWindowMinutes', TOOL_DEFAULTS.windowMinutes);
	const allowedBeneficiaries = parseBeneficiaries(get('toolAllowedBeneficiaries', TOOL_DEFAULTS.allowedBeneficiaries));
	if (typeVersion >= PER_CURRENCY_VERSION) {
		return { allowMoneyMovement, windowMinutes, currencies: readSpendingLimits(get('toolSpendingLimits', {})), setBy: 'spendingLimits', allowedBeneficiaries };
	}
	const currencies = get('toolAllowedCurrencies', TOOL_DEFAULTS.allowedCurrencies);
	return singleLimit({
		allowMoneyMovement,
		maxAmountPerCall: num('toolMaxAmountPerCall', TOOL_DEFAULTS.maxAmountPerCall),
		maxTotalPerExecution: num('toolMaxTotalPerExecution', TOOL_DEFAULTS.maxTotalPerExecution),
		maxTotalPerWindow: num('toolMaxTotalPerWindow', TOOL_DEFAULTS.maxTotalPerWindow),
		windowMinutes,
		allowedCurrencies: Array.isArray(currencies) ? currencies.map(String) : [],
		allowedBeneficiaries,
	});
}

/** Spending Limits (version 4): `{ limit: [{ currency, maxAmountPerCall, ... }] }`; a currency given twice, or none, is an error. */
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
			row[name] === undefined ? CURRENCY_LIMIT_DEFAULTS[name] : readNumber(row[name], `${at}.${name}`, `${CURRENCY_LIMIT_NAMES[name]} of ${currency}`);
		out[currency] = {
			maxAmountPerCall: field('maxAmountPerCall'),
			maxTotalPerExecution: field('maxTotalPerExecution'),
			maxTotalPerWindow: field('maxTotalPerWindow'),
		};
	});
	return out;
}

/**
 * Running totals per execution (scoped to workflow and node) and currency,
 * in memory (one n8n process). An execution's totals are forgotten only once
 * unused for EXECUTION_IDLE_MS, never because other executions came: beyond
 * `softMax` executions the oldest idle ones are dropped, and the map grows
 * rather than forget one that may still be running (fail closed).
 */
export class ExecutionTotals {
	private readonly totals = new Map<string, { used: number; byCurrency: Map<string, number> }>();

	constructor(
		private readonly softMax = MAX_TRACKED_EXECUTIONS,
		private readonly now: () => number = () => Date.now(),
	) {}

	get(executionId: string, currency: string): number {
		return this.totals.get(executionId)?.byCurrency.get(currency) ?? 0;
	}

	add(executionId: string, currency: string, amount: number): void {
		const entry = this.totals.get(executionId) ?? { used: 0, byCurrency: new Map<string, number>() };
		this.totals.delete(executionId);
		entry.used = this.now();
		entry.byCurrency.set(currency, addMoney(entry.byCurrency.get(currency) ?? 0, amount));
		this.totals.set(executionId, entry);
		while (this.totals.size > this.softMax) {
			const [oldestId, oldest] = this.totals.entries().next().value as [string, { used: number }];
			if (this.now() - oldest.used < EXECUTION_IDLE_MS) break;
			this.totals.delete(oldestId);
		}
	}

	get size(): number {
		return this.totals.size;
	}
}

/**
 * Money-moving calls of one node in one workflow over a sliding window, per
 * currency, in memory (one n8n process).
 */
export class WindowTotals {
	private readonly calls = new Map<string, Array<{ at: number; currency: string; amount: number }>>();

	constructor(readonly now: () => number = () => Date.now()) {}

	private live(scope: string, windowMs: number) {
		const since = this.now() - windowMs;
		const list = (this.calls.get(scope) ?? []).filter((c) => c.at > since);
		if (list.length === 0) this.calls.delete(scope);
		else this.calls.set(scope, list);
		return list;
	}

	/** The total in the window, or undefined when too many calls to count. */
	get(scope: string, currency: string, windowMs: number): number | undefined {
		const list = this.live(scope, windowMs);
		if (list.length >= MAX_WINDOW_ENTRIES) return undefined;
		return list.filter((c) => c.currency === currency).reduce((sum, c) => addMoney(sum, c.amount), 0);
	}

	add(scope: string, currency: string, amount: number): void {
		const list = this.calls.get(scope) ?? [];
		list.push({ at: this.now(), currency, amount });
		this.calls.set(scope, list);
	}
}

/** The totals of this n8n process. */
export const EXECUTION_TOTALS = new ExecutionTotals();
/** The window totals of this n8n process. */
export const WINDOW_TOTALS = new WindowTotals();

/** Where a tool call runs: its execution (absent for MCP calls), workflow and node. */
export interface ToolScope {
	executionId?: string;
	workflowId: string;
	nodeName: string;
}

/** An execution id n8n gave the call ('' / undefined: none, as for MCP tool calls). */
function hasExecution(scope: ToolScope): scope is ToolScope & { executionId: string } {
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

/** The refusal of a currency without limits, in the words of how the builder sets them. */
function noLimitFor(cur: string, limits: ToolLimits): Refusal {
	// Versions 1 to 3: the allowed currencies in the order chosen, as their message always said.
	const set = limits.setBy === 'allowedCurrencies' ? Object.keys(limits.currencies) : Object.keys(limits.currencies).sort();
	if (limits.setBy === 'allowedCurrencies') {
		return { limit: 'allowedCurrencies', reason: `${cur} is not an allowed currency (allowed: ${set.length > 0 ? set.join(', ') : 'none'})` };
	}
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
				`this call comes without a workflow execution of its own (as calls from an MCP client through the MCP Server Trigger do), so no total per execution can be counted for it; the workflow builder can allow such calls by setting Max Total per Window${limits.setBy === 'spendingLimits' ? ` for ${cur}` : ''}`,
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
		const outside = ask.beneficiaries.map(normalisePhone).filter((b) => !allowed.has(b));
		if (outside.length > 0 || ask.beneficiaries.length === 0) {
			return { limit: 'allowedBeneficiaries', reason: `${outside.join(', ') || 'the beneficiary'} is not on the list of allowed beneficiaries` };
		}
	}
	return undefined;
}

/** Thrown by the guarding client in place of a refused request. */
export class ToolRefusal extends Error {
	constructor(readonly output: IDataObject) {
		super(String(output.reason));
		this.name = 'ToolRefusal';
	}
}

function refusalOutput(operation: string, refusal: Refusal, asked: IDataObject): IDataObject {
	return {
		refused: true,
		nothingSent: true,
		operation,
		limit: refusal.limit,
		reason: `Refused, nothing was sent: ${refusal.reason}.`,
		asked,
	};
}

function askedOf(ask: MoneyAsk): IDataObject {
	return {
		amount: ask.amount,
		currency: ask.currency ?? null,
		...(ask.beneficiaries.length > 0 ? { beneficiaries: ask.beneficiaries } : {}),
		...(ask.reference ? { reference: ask.reference } : {}),
		...(ask.businessId ? { businessId: ask.businessId } : {}),
	};
}

/**
 * The operation as a limited tool: the same operation, whose money-moving
 * requests are checked against `limits` (and counted in `totals` under the
 * execution, and in `windows` under the workflow and node) just before they
 * are sent. `where` as a string: an execution id alone (tests). A refusal is returned as the
 * operation's output.
 */
export function limitedOperation(
	op: NodeOperation,
	limits: ToolLimits,
	where: string | ToolScope,
	totals: ExecutionTotals = EXECUTION_TOTALS,
	windows: WindowTotals = WINDOW_TOTALS,
): NodeOperation {
	const scope: ToolScope = typeof where === 'string' ? { executionId: where, workflowId: '', nodeName: '' } : where;
	const nodeKey = `${scope.workflowId}\n${scope.nodeName}`;
	const executionKey = !hasExecution(scope) ? undefined : typeof where === 'string' ? where : `${nodeKey}\n${scope.executionId}`;
	const windowMs = Math.max(1, limits.windowMinutes) * 60 * 1000;
	const operation = operationId(op);
	const money = moneyOf(op);
	return {
		...op,
		execute: async (ctx: OperationContext, input: unknown) => {
			if (!limits.allowMoneyMovement) {
				const data = (input ?? {}) as IDataObject;
				const asked: IDataObject = {};
				for (const key of ['amount', 'currency', 'reference', 'businessId']) if (data[key] !== undefined) asked[key] = data[key];
				return refusalOutput(
					operation,
					{ limit: 'allowMoneyMovement', reason: 'money-moving operations are not allowed for this tool (the workflow builder can allow them, within limits)' },
					asked,
				);
			}
			const inner = ctx.client;
			const guarded: PayOnUsClient = {
				environment: inner.environment,
				defaults: inner.defaults,
				request: async <T = IDataObject>(opts: RequestOptions): Promise<T> => {
					if (!isMoneyRequest(opts)) return await inner.request<T>(opts);
					const ask = await readAsk(opts, inner, money);
					const currency = ask.currency ?? '';
					const windowed = (limitOf(limits, ask.currency)?.maxTotalPerWindow ?? 0) > 0;
					const spent: Spent = {
						execution: executionKey === undefined ? undefined : totals.get(executionKey, currency),
						window: windowed ? (windows.get(nodeKey, currency, windowMs) ?? null) : undefined,
					};
					const refusal = checkAsk(ask, limits, spent);
					if (refusal) throw new ToolRefusal(refusalOutput(operation, refusal, askedOf(ask)));
					// Counted before it is sent: a call whose outcome is unknown still counts.
					if (executionKey !== undefined) totals.add(executionKey, currency, ask.amount);
					if (windowed) windows.add(nodeKey, currency, ask.amount);
					return await inner.request<T>(opts);
				},
				paginate: async <T = IDataObject>(opts: PaginateOptions): Promise<T[]> => await inner.paginate<T>(opts),
			};
			// A refusal thrown inside the operation comes back as its output.
			return await op
				.execute({ ...ctx, client: guarded }, input)
				.catch(async (error: unknown) => (error instanceof ToolRefusal ? error.output : await Promise.reject(error)));
		},
	};
}
