import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	UnexpectedError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { createClient } from '../shared/transport';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../shared/client';
import { describeIssue } from '../shared/validation';
import { buildProperties, buildSubtitle, findOperation, parameterNames, resources } from './resources';
import { withCredentialDefaults } from './resources/fields';
import { PayOnUsInputError, type OperationContext, type PayOnUsOperation } from './resources/types';
import { listSearch, loadOptions } from './methods';
import { ItemParameters } from './parameters';
import {
	concurrencyOptions,
	gatedClient,
	MONEY_MOVING_CONCURRENCY_DEFAULT,
	moneyMovingConcurrency,
	SharedBackoff,
} from './concurrency';

export { MONEY_MOVING_CONCURRENCY_DEFAULT, MONEY_MOVING_CONCURRENCY_MAX } from './concurrency';
import { dryRunItems } from './safeguards/dryRun';
import { movesMoney } from './safeguards/moneyRequest';
import { isToolNode, limitedOperation, readToolLimits } from './safeguards/toolLimits';

/** Reads a parameter without n8n's "Could not get parameter" for hidden ones. */
function readParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): unknown {
	const value = ctx.getNodeParameter(name, itemIndex, null) as unknown;
	if (value === null) return undefined;
	// Resource locators ({ __rl, mode, value }) give their value.
	if (typeof value === 'object' && value !== null && (value as IDataObject).__rl === true) {
		return (value as IDataObject).value;
	}
	return value;
}

/**
 * The raw input of one item: every top-level parameter of the operation, read
 * by name (collections and fixed collections come as objects), with the
 * credential's defaults applied to empty merchant/business ids.
 */
function readInput(
	params: ItemParameters,
	names: readonly string[],
	itemIndex: number,
	client: PayOnUsClient,
): IDataObject {
	const raw: IDataObject = {};
	for (const name of names) {
		raw[name] = params.get(name, itemIndex) as IDataObject[keyof IDataObject];
	}
	return withCredentialDefaults(raw, client.defaults);
}

function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}

async function readBinary(ctx: IExecuteFunctions, itemIndex: number, propertyName: string) {
	const meta = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return { data, fileName: meta.fileName, mimeType: meta.mimeType };
}

/**
 * Any failure of a handler as an n8n error tied to its item. A
 * PayOnUsInputError names its field (`Item 2: "cardTokenId" ...`); one with
 * an empty field is a plain sentence (`Item 2: Simulate ... sandbox only`).
 * Transport errors (NodeApiError) keep their message, already cleaned of
 * secrets by the transport.
 */
function toNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	const prefix = `Item ${itemIndex + 1}: `;
	if (error instanceof PayOnUsInputError) {
		const text = error.field ? `"${error.field}" ${error.message}` : error.message;
		return new NodeOperationError(ctx.getNode(), prefix + text, { itemIndex });
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), prefix + errorMessage(error), { itemIndex });
}

/**
 * The JSON of an error item (continueOnFail): the message, always starting
 * with the item number, what to do when known, and for money-moving calls
 * `outcome` ('alreadyDone': the reference is held by a record matching this
 * request, i.e. it was done before; 'unknown'; 'differentOwner') with the
 * record found (`existingRecord`).
 *
 * With "Continue (using error output)" n8n routes an item to the error
 * output only when its json holds nothing but error/message/details, so
 * there everything but `error` goes under `details`; otherwise (Continue,
 * regular output) the fields stay at the top level.
 */
function errorJson(error: NodeApiError | NodeOperationError, itemIndex: number, errorOutput = false): IDataObject {
	const prefix = `Item ${itemIndex + 1}: `;
	const message = error.message.startsWith(prefix) ? error.message : prefix + error.message;
	const extra: IDataObject = {};
	if (error.description) extra.description = error.description;
	const context = error.context as IDataObject;
	if (typeof context.outcome === 'string') extra.outcome = context.outcome;
	if (context.existingRecord && typeof context.existingRecord === 'object') extra.existingRecord = context.existingRecord;
	if (errorOutput) return Object.keys(extra).length > 0 ? { error: message, details: extra } : { error: message };
	return { error: message, ...extra };
}

/**
 * Operations that only read: every call they make is a GET and none moves
 * money. Their items run concurrently (READ_CONCURRENCY calls in flight, see
 * runBounded); all others run strictly one item after the other. An
 * operation listed here that ever sends something else is refused by
 * readOnlyClient before anything is sent.
 */
const READ_ONLY_OPERATIONS = new Set([
	'payin:getPayment',
	'payin:listPayments',
	'payin:listEftBanks',
	'payout:getTransfer',
	'payout:searchTransfers',
	'payout:listBanks',
	'wallet:listWallets',
	'cardTokenization:getLink',
	'cardTokenization:searchLinks',
	'cardTokenization:searchTokens',
]);

/** Calls in flight at most when a read-only operation runs its items (fixed). */
export const READ_CONCURRENCY = 8;

export function isReadOnly(op: PayOnUsOperation): boolean {
	return READ_ONLY_OPERATIONS.has(`${op.resource}:${op.value}`);
}

/** The client handed to a read-only operation: GET only, nothing money-moving. */
function readOnlyClient(client: PayOnUsClient): PayOnUsClient {
	return {
		environment: client.environment,
		defaults: client.defaults,
		request: async <T = IDataObject>(opts: RequestOptions): Promise<T> => {
			if (opts.method !== 'GET' || opts.moneyMoving) {
				throw new UnexpectedError(`${opts.method} ${opts.path} refused: this operation is run as read only (GET)`);
			}
			return await client.request<T>(opts);
		},
		paginate: async <T = IDataObject>(opts: PaginateOptions): Promise<T[]> => await client.paginate<T>(opts),
	};
}

/**
 * Runs items [from, to) with at most `limit` in flight, storing each result at
 * its index (so the output keeps the input order). A failure (thrown only
 * without continueOnFail) stops new items from starting; the items already
 * started finish, then the failure of the LOWEST failing item is thrown: the
 * same error a one-by-one run would have stopped at.
 */
export async function runBounded<R>(
	from: number,
	to: number,
	limit: number,
	results: R[],
	run: (index: number) => Promise<R>,
): Promise<void> {
	let next = from;
	let failedAt = -1;
	let failure: unknown;
	const worker = async () => {
		while (next < to && failedAt < 0) {
			const index = next++;
			try {
				results[index] = await run(index);
			} catch (error) {
				if (failedAt < 0 || index < failedAt) {
					failedAt = index;
					failure = error;
				}
			}
		}
	};
	const workers = Math.max(1, Math.min(limit, to - from));
	await Promise.all(Array.from({ length: workers }, async () => await worker()));
	if (failedAt >= 0) throw failure;
}

/** The Options collection (Money-Moving Concurrency) of every operation that is not read only. */
function moneyMovingOptions() {
	return resources
		.map((r) => ({ resource: r.value, ops: r.operations.filter((o) => !isReadOnly(o)).map((o) => o.value) }))
		.filter((r) => r.ops.length > 0)
		.map((r) => concurrencyOptions(r.resource, r.ops));
}

/** The back-off shared by one execution's calls (a function so tests can inject time). */
export function createSharedBackoff(): SharedBackoff {
	return new SharedBackoff();
}

/**
 * Adds to the error of item `failed` which later items had already been
 * sent (they ran alongside it) and finished: their records are not in the
 * output because the run stopped with this error.
 */
function noteSentAlongside(error: unknown, results: unknown[], limit: number): unknown {
	if (limit <= 1 || !(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const failed = error.context.itemIndex;
	if (typeof failed !== 'number') return error;
	const sent: number[] = [];
	for (let k = failed + 1; k < results.length; k++) if (results[k] !== undefined) sent.push(k + 1);
	if (sent.length === 0) return error;
	const note = `Item(s) ${sent.join(', ')} ran at the same time (Money-Moving Concurrency ${limit}) and were sent and finished before the run stopped; their results are not in the output. Check them by their references before running them again.`;
	error.description = error.description ? `${error.description} ${note}` : note;
	return error;
}

export class PayOnUs implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs',
		name: 'payOnUs',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['transform'],
		// 2: Create Transfer verifies the beneficiary name by default (1: off).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: buildSubtitle(),
		description:
			'Collect payments (virtual accounts, cards, mobile money, EFT), pay out from wallets and charge stored cards with PayOnUs',
		defaults: {
			name: 'PayOnUs',
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [
			{
				name: 'payOnUsApi',
				required: true,
			},
		],
		properties: [...buildProperties(), ...moneyMovingOptions()],
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const found = findOperation(resource, operation);
		if (!found) {
			throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" for resource "${resource}"`);
		}
		let op: PayOnUsOperation = found;
		// State-changing operations: one back-off for the whole execution (concurrency.ts).
		const backoff = isReadOnly(op) ? undefined : createSharedBackoff();
		const client = await createClient(this, backoff ? { sleep: backoff.pause } : {});
		const continueOnFail = this.continueOnFail();
		const errorOutput = (this.getNode() as { onError?: string }).onError === 'continueErrorOutput';

		// Dry Run (./safeguards/dryRun.ts): every item checked and reported,
		// nothing that moves money sent; invalid items are reported, not thrown.
		if (movesMoney(op) && this.getNodeParameter('dryRun', 0, false) === true) {
			const dryNames = parameterNames(op);
			const dryParams = new ItemParameters((name, i) => readParameter(this, name, i), this.getNode().parameters, dryNames);
			const parsed = items.map((_, i) => {
				try {
					const r = op.schema.safeParse(readInput(dryParams, dryNames, i, client));
					return r.success
						? { ok: true as const, data: r.data as IDataObject }
						: { ok: false as const, message: describeIssue(r.error).message };
				} catch (error) {
					return { ok: false as const, message: errorMessage(error) };
				}
			});
			const first = parsed[0];
			const aggregate = first?.ok === true && op.aggregatesItems?.(first.data) === true;
			const reports = await dryRunItems(op, client, parsed, (i) => ({
				client,
				itemIndex: i,
				item: items[i].json,
				...(aggregate ? { items: items.map((it) => it.json) } : {}),
				getBinary: async (propertyName: string) => await readBinary(this, i, propertyName),
			}), aggregate);
			return [
				reports.map((json, i) => ({
					json,
					pairedItem: aggregate ? items.map((_, item) => ({ item })) : { item: i },
				})),
			];
		}

		// As an AI agent's tool, money-moving calls obey the node's limits
		// (./safeguards/toolLimits.ts): refused by default, a refusal is output.
		if (movesMoney(op) && isToolNode(this.getNode().type)) {
			const limits = readToolLimits((name, fallback) => this.getNodeParameter(name, 0, fallback as boolean) as unknown);
			op = limitedOperation(op, limits, this.getExecutionId());
		}

		// 1. Validate every item before anything is sent: a bad item stops the
		//    run before a single request when continueOnFail is off; with it on,
		//    the bad items become error items and the others run.
		const inputs: Array<{ ok: true; data: unknown } | { ok: false; error: NodeOperationError }> = [];
		// Parameters without an expression are read once, not per item (parameters.ts).
		const names = parameterNames(op);
		const params = new ItemParameters((name, i) => readParameter(this, name, i), this.getNode().parameters, names);
		for (let i = 0; i < items.length; i++) {
			let parsed: { ok: true; data: unknown } | { ok: false; error: NodeOperationError };
			try {
				const result = op.schema.safeParse(readInput(params, names, i, client));
				parsed = result.success
					? { ok: true, data: result.data }
					: {
							ok: false,
							error: new NodeOperationError(this.getNode(), `Item ${i + 1}: ${describeIssue(result.error).message}`, {
								itemIndex: i,
							}),
						};
			} catch (error) {
				// An expression that cannot be resolved for this item.
				parsed = {
					ok: false,
					error: new NodeOperationError(this.getNode(), `Item ${i + 1}: ${errorMessage(error)}`, { itemIndex: i }),
				};
			}
			if (!parsed.ok && !continueOnFail) throw parsed.error;
			inputs.push(parsed);
		}

		const output: INodeExecutionData[] = [];

		// 2a. An aggregating operation (e.g. a bulk transfer built from all the
		//     items) runs once with every item; each output item is paired with
		//     every input item.
		const first = inputs[0];
		if (first?.ok && op.aggregatesItems?.(first.data)) {
			const pairedItem = items.map((_, item) => ({ item }));
			try {
				const result = await op.execute(
					{
						client,
						itemIndex: 0,
						item: items[0].json,
						items: items.map((it) => it.json),
						getBinary: async (propertyName: string) => await readBinary(this, 0, propertyName),
					},
					first.data,
				);
				const records = Array.isArray(result) ? result : [result];
				return [records.map((json) => ({ json, pairedItem }))];
			} catch (error) {
				const failure = toNodeError(this, error, 0);
				if (!continueOnFail) throw failure;
				return [[{ json: errorJson(failure, 0, errorOutput), pairedItem }]];
			}
		}

		// 2b. Run the operation item by item, one output item per record.
		const runItem = async (i: number, itemClient: PayOnUsClient): Promise<INodeExecutionData[]> => {
			const pairedItem = { item: i };
			const input = inputs[i];
			if (!input.ok) return [{ json: errorJson(input.error, i, errorOutput), pairedItem }];
			const ctx: OperationContext = {
				client: itemClient,
				itemIndex: i,
				item: items[i].json,
				getBinary: async (propertyName: string) => await readBinary(this, i, propertyName),
			};
			try {
				const result = await op.execute(ctx, input.data);
				const records = Array.isArray(result) ? result : [result];
				return records.map((json) => ({ json, pairedItem }));
			} catch (error) {
				const failure = toNodeError(this, error, i);
				if (!continueOnFail) throw failure;
				return [{ json: errorJson(failure, i, errorOutput), pairedItem }];
			}
		};

		const results: INodeExecutionData[][] = new Array(items.length);
		if (isReadOnly(op) && items.length > 1) {
			// Reads: the items before and including the first valid one run
			// alone (a missing token is minted once, a wrong credential fails
			// once), then the rest with up to READ_CONCURRENCY calls in flight.
			const reader = readOnlyClient(client);
			let i = 0;
			for (let warm = false; i < items.length && !warm; i++) {
				warm = inputs[i].ok;
				results[i] = await runItem(i, reader);
			}
			await runBounded(i, items.length, READ_CONCURRENCY, results, async (k) => await runItem(k, reader));
		} else if (!backoff) {
			// A single item of a read-only operation.
			for (let i = 0; i < items.length; i++) results[i] = await runItem(i, client);
		} else {
			// Everything else (money-moving calls above all): Money-Moving
			// Concurrency items at once (default 1 = strictly one after the
			// other), output in input order, each item's reference looked up
			// before any resend, one back-off for the run (concurrency.ts).
			const options = (this.getNodeParameter('options', 0, {}) ?? {}) as IDataObject;
			const limit = moneyMovingConcurrency(options.moneyMovingConcurrency ?? MONEY_MOVING_CONCURRENCY_DEFAULT);
			const gated = gatedClient(client, backoff);
			try {
				await runBounded(0, items.length, limit, results, async (k) => await runItem(k, gated));
			} catch (error) {
				throw noteSentAlongside(error, results, limit);
			}
		}
		for (const records of results) for (const record of records) output.push(record);
		return [output];
	}
}
