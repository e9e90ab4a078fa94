import type { IDataObject } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../../../shared/clientInterface';
import { operationId, type NodeOperation, type OperationContext } from '../../resources/types';
import { isMoneyRequest, moneyOf, readAsk, type MoneyAsk } from '../moneyRequest';
import { checkAsk, hasExecution, type Refusal, type Spent, type ToolScope } from './guard';
import { limitOf, type ToolLimits } from './limits';
import { EXECUTION_TOTALS, type ExecutionTotals, WINDOW_TOTALS, type WindowTotals } from './totals';

/** The operation as a limited tool: its client checks every money-moving request (./guard.ts) just before it is sent. */

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
