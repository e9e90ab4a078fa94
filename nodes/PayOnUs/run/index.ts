import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';
import { createClient } from '../../shared/transport';
import { AdaptiveLimiter } from '../../shared/transport/limiter';
import type { PayOnUsClient } from '../../shared/clientInterface';
import { describeIssues } from '../../shared/validation';
import { labeller } from '../resources/labels';
import { findOperation } from '../resources';
import { OUTPUT_PARAMETERS, shapedOperation } from '../resources/output';
import { movesMoney, type NodeOperation } from '../resources/types';
import { dryRunItems } from '../safeguards/dryRun';
import { dryRunHint } from '../safeguards/dryRunHint';
import { pendingTransferHint } from '../resources/payout/pendingHint';
import { isToolNode, limitedOperation, readToolLimits } from '../safeguards/toolLimits';
import { readOnlyClient, runBounded } from './bounded';
import { moneyMovingConcurrency, orderKeys, readCeiling, recordIdentity } from './concurrency';
import { errorJson, errorMessage, noteSentAlongside, toNodeError } from './failures';
import { inputReader, itemValidator, operationContext, type ItemInput } from './input';
import { readBoolean } from '../../shared/parameters';
import { containsExpression, ItemParameters } from './parameters';

/**
 * The node's execute(): runs the chosen operation over the input items.
 * 1. Dry Run (money-moving operations): every item checked and reported, nothing sent.
 * 2. As an AI agent's tool, money-moving operations within the tool limits.
 * 3. Every item validated before anything is sent; in a read run, each
 *    item as it is started instead (a read has nothing to hold back).
 * 4. An aggregating run: once, with every item.
 * 5. Item by item: reads concurrently, the others by Money-Moving
 *    Concurrency; continueOnFail, paired items and error items throughout.
 */
export async function runOperation(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const found = findOperation(resource, operation);
	if (!found) {
		throw new NodeOperationError(ctx.getNode(), `Unknown operation "${operation}" for resource "${resource}"`);
	}
	// Simplify / the tool's Output choice (../resources/output.ts).
	// Read once for all items unless an expression makes them differ (./parameters.ts).
	const shape = new ItemParameters((name, i) => ctx.getNodeParameter(name, i, null) as unknown, ctx.getNode().parameters, OUTPUT_PARAMETERS);
	const readShape = (name: string, i: number, fallback: unknown) => shape.get(name, i) ?? fallback;
	let op: NodeOperation = shapedOperation(found, readShape, isToolNode(ctx.getNode().type));
	const reads = op.effect === 'read';
	// Calls in flight: the ceiling (reads: Max Requests in Flight; the others:
	// Money-Moving Concurrency) from the first call, halved at once when the
	// service pushes back (429/503) and grown back while it answers fine.
	const options = (ctx.getNodeParameter('options', 0, {}) ?? {}) as IDataObject;
	const ceiling = reads ? readCeiling(options.maxRequestsInFlight) : moneyMovingConcurrency(options.moneyMovingConcurrency);
	const limiter = new AdaptiveLimiter({ initial: ceiling, ceiling });
	// One way of backing off, the limiter's hold: a push-back (429/503) holds
	// every call of any run; in a run that is not read only, every other pause
	// of the transport (a 5xx, a resend, a lookup's retry) holds them too.
	const client = await createClient(ctx, reads ? { limiter } : { limiter, sleep: limiter.pause });

	// Dry Run (../safeguards/dryRun.ts): every item checked and reported,
	// nothing that moves money sent; invalid items are reported, not thrown.
	if (movesMoney(op) && readDryRun(ctx, items.length)) {
		return [await dryRun(ctx, op, client, items)];
	}

	// As an AI agent's tool, money-moving calls obey the node's limits
	// (../safeguards/toolLimits/): refused by default, a refusal is output.
	if (movesMoney(op) && isToolNode(ctx.getNode().type)) {
		let limits;
		try {
			limits = readToolLimits((name, fallback) => ctx.getNodeParameter(name, 0, fallback as boolean) as unknown);
		} catch (error) {
			throw new NodeOperationError(ctx.getNode(), `A spending limit could not be read: ${errorMessage(error)}`, {
				itemIndex: 0,
				description: 'Nothing was sent. Each limit must be a number (and Allow Money Movement true or false; Spending Limits: each currency once); an expression must give one.',
			});
		}
		op = limitedOperation(op, limits, { executionId: ctx.getExecutionId(), workflowId: String(ctx.getWorkflow().id ?? ''), nodeName: ctx.getNode().name });
	}

	const continueOnFail = ctx.continueOnFail();
	const errorOutput = (ctx.getNode() as { onError?: string }).onError === 'continueErrorOutput';
	// Each item validated once; without continueOnFail a bad item throws its
	// error (naming the item and the field) when its input is asked for.
	const validate = itemValidator(ctx, op, client);
	const inputs: ItemInput[] = new Array(items.length);
	const inputOf = (i: number): ItemInput => {
		const input = (inputs[i] ??= validate(i));
		if (!input.ok && !continueOnFail) throw input.error;
		return input;
	};
	const validateAll = () => {
		for (let i = 0; i < items.length; i++) inputOf(i);
	};
	// Anything that writes (money-moving above all): every item validated
	// before anything is sent, a bad item stops the run with nothing sent. A
	// read run validates each item as it is started (runReads).
	if (!reads) validateAll();

	// An aggregating operation (e.g. a bulk transfer built from all the items)
	// runs once with every item; each output item is paired with every input item.
	const first = items.length > 0 ? inputOf(0) : undefined;
	if (first?.ok && op.aggregatesItems(first.data)) {
		validateAll();
		refuseVaryingSwitches(ctx, op, inputs);
		const pairedItem = items.map((_, item) => ({ item }));
		try {
			const result = await op.execute(operationContext(ctx, items, client, 0, true), first.data);
			const records = Array.isArray(result) ? result : [result];
			return [withPendingHint(ctx, op, records.map((json) => ({ json, pairedItem })))];
		} catch (error) {
			const failure = toNodeError(ctx, error, 0);
			if (!continueOnFail) throw failure;
			return [[{ json: errorJson(failure, 0, errorOutput), pairedItem }]];
		}
	}

	// Item by item, one output item per record.
	const runItem = async (i: number, itemClient: PayOnUsClient): Promise<INodeExecutionData[]> => {
		const pairedItem = { item: i };
		const input = inputOf(i);
		if (!input.ok) return [{ json: errorJson(input.error, i, errorOutput), pairedItem }];
		try {
			const result = await op.execute(operationContext(ctx, items, itemClient, i), input.data);
			const records = Array.isArray(result) ? result : [result];
			return records.map((json) => ({ json, pairedItem }));
		} catch (error) {
			const failure = toNodeError(ctx, error, i);
			if (!continueOnFail) throw failure;
			return [{ json: errorJson(failure, i, errorOutput), pairedItem }];
		}
	};
	const results: INodeExecutionData[][] = new Array(items.length);
	if (reads) await runReads(items.length, inputOf, results, client, runItem, ceiling);
	else {
		// Only one item of the run may report a given money movement as its own (./concurrency.ts recordIdentity).
		const claims = new Map<string, number>();
		const claimed = (i: number, out: INodeExecutionData[]): INodeExecutionData[] => {
			if (!movesMoney(op)) return out;
			for (const { json } of out) {
				const id = recordIdentity(json);
				if (id === undefined) continue;
				const owner = claims.get(id);
				if (owner !== undefined && owner !== i) {
					const failure = new NodeOperationError(
						ctx.getNode(),
						`Duplicate of item ${owner}: the ${id.split(':')[0]} "${id.slice(id.indexOf(':') + 1)}" is already reported there`,
						{
							itemIndex: i,
							description: `Items ${owner} and ${i} ended on the same record (they share a reference, or the service answered the existing record). It is reported once, as item ${owner}'s; nothing more was made for this item, and it made no payment of its own.`,
						},
					);
					(failure.context as IDataObject).outcome = 'alreadyDone';
					(failure.context as IDataObject).existingRecord = json;
					if (!continueOnFail) throw failure;
					return [{ json: errorJson(failure, i, errorOutput), pairedItem: { item: i } }];
				}
				claims.set(id, i);
			}
			return out;
		};
		await runWrites(inputs, results, client, async (i, c) => claimed(i, await runItem(i, c)), ceiling);
	}
	return [withPendingHint(ctx, op, results.flat())];
}

/** A payout's output with a PENDING transfer: the hint that PENDING is not final (../resources/payout/pendingHint.ts). */
function withPendingHint(ctx: IExecuteFunctions, op: NodeOperation, out: INodeExecutionData[]): INodeExecutionData[] {
	if (op.resource !== 'payout' || !movesMoney(op) || typeof ctx.addExecutionHints !== 'function') return out;
	const hint = pendingTransferHint(out.map((o) => o.json));
	if (hint) ctx.addExecutionHints(hint);
	return out;
}

type RunItem = (i: number, client: PayOnUsClient) => Promise<INodeExecutionData[]>;

/**
 * An aggregating run (one request for all the items) cannot honour a yes/no
 * switch per item (e.g. Allow Duplicate Rows from an expression): a switch
 * that differs from the first item's stops the run, naming the item; nothing is sent.
 */
function refuseVaryingSwitches(ctx: IExecuteFunctions, op: NodeOperation, inputs: ItemInput[]): void {
	const first = inputs[0];
	if (!first?.ok) return;
	const switches = [...new Set(op.properties.filter((p) => p.type === 'boolean').map((p) => p.name))];
	const base = first.data as IDataObject;
	inputs.forEach((input, i) => {
		if (i === 0 || !input.ok) return;
		const data = input.data as IDataObject;
		for (const name of switches) {
			if (data[name] === base[name]) continue;
			throw new NodeOperationError(
				ctx.getNode(),
				`"${name}" differs between items: ${String(data[name])} here, ${String(base[name])} on item 0`,
				{
					itemIndex: i,
					description:
						'This operation sends one request for all the items, so a yes/no parameter must be the same for every item. Nothing was sent.',
				},
			);
		}
	});
}

/**
 * Reads: up to `ceiling` items started at once from the first one, each
 * validated just before it is started, so the first call does not wait for
 * the last item's expressions; through a GET-only client; the calls in
 * flight are the limiter's (the ceiling, halved on a 429/503, growing back
 * while the service answers fine). A bad item (without continueOnFail) stops
 * new items from starting: the run throws the lowest failing item's error, as
 * a one-by-one run would. A token missing at the start is minted once for
 * all the calls in flight (the token cache's single flight,
 * ../../shared/accessToken/cache.ts), as in a money-moving run.
 */
async function runReads(
	count: number,
	validate: (i: number) => void,
	results: INodeExecutionData[][],
	client: PayOnUsClient,
	runItem: RunItem,
	ceiling: number,
): Promise<void> {
	// A single item of a read-only operation: the client itself.
	const reader = count <= 1 ? client : readOnlyClient(client);
	// Validated before the item's promise exists: a bad item throws at once,
	// so runBounded starts no item after it (./bounded.ts).
	const start = (k: number): Promise<INodeExecutionData[]> => {
		validate(k);
		return runItem(k, reader);
	};
	await runBounded(0, count, ceiling, results, start);
}

/**
 * Everything else (money-moving calls above all): Money-Moving Concurrency
 * items at once (1 = strictly one after the other),
 * items sharing a reference or a card token one after the other in input
 * order, output in input order, each item's reference looked up before any
 * resend, the run's calls backing off together (the limiter's hold).
 */
async function runWrites(
	inputs: ItemInput[],
	results: INodeExecutionData[][],
	client: PayOnUsClient,
	runItem: RunItem,
	limit: number,
): Promise<void> {
	const keys = (k: number) => {
		const input = inputs[k];
		return input.ok ? orderKeys(input.data as IDataObject) : [];
	};
	try {
		await runBounded(0, inputs.length, limit, results, async (k) => await runItem(k, client), keys);
	} catch (error) {
		throw noteSentAlongside(error, results, limit);
	}
}

/**
 * Dry Run, read strictly for every item (../../shared/parameters.ts): a
 * fixed switch once; an expression (an item's field, an n8n Variable, both
 * text) for each item, where the text "true"/"false" counts and anything
 * else stops the run naming the item and the value. Items that differ
 * (a dry run for some, not for others) stop the run too: nothing is sent.
 */
export function readDryRun(ctx: IExecuteFunctions, itemCount: number): boolean {
	const stored = ctx.getNode().parameters?.dryRun;
	const read = (i: number): boolean => {
		let value: unknown;
		try {
			value = ctx.getNodeParameter('dryRun', i, false) as unknown;
		} catch (error) {
			throw new NodeOperationError(ctx.getNode(), `"dryRun" (Dry Run) could not be read: ${errorMessage(error)}`, {
				itemIndex: i,
				description: 'Nothing was sent. Set Dry Run to true or false; an expression must give true or false.',
			});
		}
		try {
			return readBoolean(value, 'dryRun', 'Dry Run');
		} catch (error) {
			throw new NodeOperationError(ctx.getNode(), errorMessage(error), {
				itemIndex: i,
				description: 'Nothing was sent. Set Dry Run to true or false; an expression must give true or false.',
			});
		}
	};
	if (!containsExpression(stored) || itemCount <= 1) return read(0);
	const values = Array.from({ length: itemCount }, (_, i) => read(i));
	const differs = values.findIndex((v) => v !== values[0]);
	if (differs > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"dryRun" (Dry Run) differs between items: ${String(values[differs])} here, ${String(values[0])} on item 0`,
			{
				itemIndex: differs,
				description:
					'A run is either a dry run or not, for every item: nothing was sent. Split the items (e.g. with an If node) into two PayOnUs nodes.',
			},
		);
	}
	return values[0];
}

/** The Dry Run of a money-moving operation: one report per item (one for an aggregating run). */
async function dryRun(
	ctx: IExecuteFunctions,
	op: NodeOperation,
	client: PayOnUsClient,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const read = inputReader(ctx, op, client);
	const parsed = items.map((_, i) => {
		try {
			const r = op.schema.safeParse(read(i));
			return r.success
				? { ok: true as const, data: r.data as IDataObject }
				: { ok: false as const, message: describeIssues(r.error, labeller(op)).problems.join('; ') };
		} catch (error) {
			return { ok: false as const, message: errorMessage(error) };
		}
	});
	const first = parsed[0];
	const aggregate = first?.ok === true && op.aggregatesItems(first.data) === true;
	const reports = await dryRunItems(op, client, parsed, (i) => operationContext(ctx, items, client, i, aggregate), aggregate);
	// A failed Dry Run shown as failed above the output (n8n's execution hints; ../safeguards/dryRunHint.ts).
	if (typeof ctx.addExecutionHints === 'function') ctx.addExecutionHints(dryRunHint(reports, aggregate));
	return reports.map((json, i) => ({
		json,
		pairedItem: aggregate ? items.map((_, item) => ({ item })) : { item: i },
	}));
}
