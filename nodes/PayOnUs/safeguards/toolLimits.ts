import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../../shared/client';
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
 * be sent, against: the maximum amount per call, the maximum total per
 * execution (per currency), the allowed currencies and the optional
 * beneficiary allow-list. A refusal is an output item the agent reads
 * (`refused: true`, what was asked, which limit, `nothingSent: true`), never
 * an error. Read-only operations are not affected.
 */

/** Defaults, the same literals as the parameters' (see README, "Spending limits for AI agents", for why). */
export const TOOL_DEFAULTS = {
	allowMoneyMovement: false,
	maxAmountPerCall: 1000,
	maxTotalPerExecution: 5000,
	allowedCurrencies: [] as string[],
	allowedBeneficiaries: '',
};

/** Executions whose running totals are kept at most (oldest forgotten first). */
export const MAX_TRACKED_EXECUTIONS = 1000;

export interface ToolLimits {
	allowMoneyMovement: boolean;
	maxAmountPerCall: number;
	maxTotalPerExecution: number;
	allowedCurrencies: string[];
	/** Empty: any beneficiary. */
	allowedBeneficiaries: string[];
}

const TOOL_ONLY = { '@tool': [true] };
const WHEN_ALLOWED = { '@tool': [true], toolAllowMoneyMovement: [true] };

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
		{
			displayName: 'Max Amount per Call',
			name: 'toolMaxAmountPerCall',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 1000,
			noDataExpression: true,
			displayOptions: { show: WHEN_ALLOWED },
			description: 'Largest amount of one call, in its currency (a bulk batch: its total). Larger calls are refused.',
		},
		{
			displayName: 'Max Total per Execution',
			name: 'toolMaxTotalPerExecution',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 5000,
			noDataExpression: true,
			displayOptions: { show: WHEN_ALLOWED },
			description:
				'Largest total of all calls of one workflow execution, per currency (every call sent counts, whatever its outcome). A call that would go over it is refused.',
		},
		{
			displayName: 'Allowed Currencies',
			name: 'toolAllowedCurrencies',
			type: 'multiOptions',
			options: CURRENCIES.map((c) => ({ name: c, value: c })),
			default: [],
			noDataExpression: true,
			displayOptions: { show: WHEN_ALLOWED },
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

/** The limits as read from the node's parameters (defaults for missing ones). */
export function readToolLimits(get: (name: string, fallback: unknown) => unknown): ToolLimits {
	const num = (name: string, fallback: number) => {
		const v = Number(get(name, fallback));
		return Number.isFinite(v) ? v : fallback;
	};
	const currencies = get('toolAllowedCurrencies', TOOL_DEFAULTS.allowedCurrencies);
	return {
		allowMoneyMovement: get('toolAllowMoneyMovement', TOOL_DEFAULTS.allowMoneyMovement) === true,
		maxAmountPerCall: num('toolMaxAmountPerCall', TOOL_DEFAULTS.maxAmountPerCall),
		maxTotalPerExecution: num('toolMaxTotalPerExecution', TOOL_DEFAULTS.maxTotalPerExecution),
		allowedCurrencies: Array.isArray(currencies) ? currencies.map(String) : [],
		allowedBeneficiaries: parseBeneficiaries(get('toolAllowedBeneficiaries', TOOL_DEFAULTS.allowedBeneficiaries)),
	};
}

/**
 * Running totals per execution and currency, in memory (one n8n process),
 * bounded: at most MAX_TRACKED_EXECUTIONS executions, the least recently
 * used forgotten first.
 */
export class ExecutionTotals {
	private readonly totals = new Map<string, Map<string, number>>();

	constructor(private readonly max = MAX_TRACKED_EXECUTIONS) {}

	get(executionId: string, currency: string): number {
		return this.totals.get(executionId)?.get(currency) ?? 0;
	}

	add(executionId: string, currency: string, amount: number): void {
		const entry = this.totals.get(executionId) ?? new Map<string, number>();
		this.totals.delete(executionId);
		entry.set(currency, addMoney(entry.get(currency) ?? 0, amount));
		this.totals.set(executionId, entry);
		while (this.totals.size > this.max) this.totals.delete(this.totals.keys().next().value as string);
	}

	get size(): number {
		return this.totals.size;
	}
}

/** The totals of this n8n process. */
export const EXECUTION_TOTALS = new ExecutionTotals();

export interface Refusal {
	limit: string;
	reason: string;
}

/** The first limit `ask` breaks (undefined: within every limit). */
export function checkAsk(ask: MoneyAsk, limits: ToolLimits, spentBefore: number): Refusal | undefined {
	const cur = ask.currency ?? 'an unknown currency';
	if (!limits.allowMoneyMovement) {
		return { limit: 'allowMoneyMovement', reason: 'money-moving operations are not allowed for this tool' };
	}
	if (!ask.currency || !limits.allowedCurrencies.includes(ask.currency)) {
		const allowed = limits.allowedCurrencies.length > 0 ? limits.allowedCurrencies.join(', ') : 'none';
		return { limit: 'allowedCurrencies', reason: `${cur} is not an allowed currency (allowed: ${allowed})` };
	}
	if (!Number.isFinite(ask.amount) || ask.amount > limits.maxAmountPerCall) {
		return { limit: 'maxAmountPerCall', reason: `${cur} ${ask.amount} is over the maximum of ${limits.maxAmountPerCall} per call` };
	}
	const after = addMoney(spentBefore, ask.amount);
	if (after > limits.maxTotalPerExecution) {
		return {
			limit: 'maxTotalPerExecution',
			reason: `${cur} ${ask.amount} would bring this execution's total to ${after}, over the maximum of ${limits.maxTotalPerExecution} (${spentBefore} already sent)`,
		};
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
 * requests are checked against `limits` (and counted in `totals` under
 * `executionId`) just before they are sent. A refusal is returned as the
 * operation's output.
 */
export function limitedOperation(
	op: NodeOperation,
	limits: ToolLimits,
	executionId: string,
	totals: ExecutionTotals = EXECUTION_TOTALS,
): NodeOperation {
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
					const refusal = checkAsk(ask, limits, totals.get(executionId, currency));
					if (refusal) throw new ToolRefusal(refusalOutput(operation, refusal, askedOf(ask)));
					// Counted before it is sent: a call whose outcome is unknown still counts.
					totals.add(executionId, currency, ask.amount);
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
