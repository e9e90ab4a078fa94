import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { createClient } from '../shared/transport';
import type { PayOnUsClient } from '../shared/client';
import { describeIssue } from '../shared/validation';
import { buildProperties, findOperation, parameterNames } from './resources';
import { PayOnUsInputError, type OperationContext, type PayOnUsOperation } from './resources/types';
import { listSearch, loadOptions } from './methods';

/**
 * Top-level parameters with these names are filled from the credential's
 * defaults (Default Merchant ID / Default Business ID) when left empty.
 * Filters inside a collection (e.g. `filters.businessId`) are not.
 */
const CREDENTIAL_DEFAULTS = ['merchantId', 'businessId'] as const;

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
	ctx: IExecuteFunctions,
	op: PayOnUsOperation,
	itemIndex: number,
	client: PayOnUsClient,
): IDataObject {
	const raw: IDataObject = {};
	for (const name of parameterNames(op)) {
		raw[name] = readParameter(ctx, name, itemIndex) as IDataObject[keyof IDataObject];
	}
	for (const name of CREDENTIAL_DEFAULTS) {
		if (!(name in raw)) continue;
		const value = raw[name];
		if ((value === undefined || value === '') && client.defaults[name]) {
			raw[name] = client.defaults[name];
		}
	}
	return raw;
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
 * with the item number, and what to do when known.
 */
function errorJson(error: NodeApiError | NodeOperationError, itemIndex: number): IDataObject {
	const prefix = `Item ${itemIndex + 1}: `;
	const json: IDataObject = { error: error.message.startsWith(prefix) ? error.message : prefix + error.message };
	if (error.description) json.description = error.description;
	return json;
}

export class PayOnUs implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'PayOnUs',
		name: 'payOnUs',
		icon: { light: 'file:payonus.svg', dark: 'file:payonus.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
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
		properties: buildProperties(),
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const op = findOperation(resource, operation);
		if (!op) {
			throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" for resource "${resource}"`);
		}
		const client = await createClient(this);
		const continueOnFail = this.continueOnFail();

		// 1. Validate every item before anything is sent: a bad item stops the
		//    run before a single request when continueOnFail is off; with it on,
		//    the bad items become error items and the others run.
		const inputs: Array<{ ok: true; data: unknown } | { ok: false; error: NodeOperationError }> = [];
		for (let i = 0; i < items.length; i++) {
			let parsed: { ok: true; data: unknown } | { ok: false; error: NodeOperationError };
			try {
				const result = op.schema.safeParse(readInput(this, op, i, client));
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
				return [[{ json: errorJson(failure, 0), pairedItem }]];
			}
		}

		// 2b. Run the operation item by item, one output item per record.
		for (let i = 0; i < items.length; i++) {
			const pairedItem = { item: i };
			const input = inputs[i];
			if (!input.ok) {
				output.push({ json: errorJson(input.error, i), pairedItem });
				continue;
			}
			const ctx: OperationContext = {
				client,
				itemIndex: i,
				item: items[i].json,
				getBinary: async (propertyName: string) => await readBinary(this, i, propertyName),
			};
			try {
				const result = await op.execute(ctx, input.data);
				const records = Array.isArray(result) ? result : [result];
				for (const json of records) output.push({ json, pairedItem });
			} catch (error) {
				const failure = toNodeError(this, error, i);
				if (!continueOnFail) throw failure;
				output.push({ json: errorJson(failure, i), pairedItem });
			}
		}
		return [output];
	}
}
