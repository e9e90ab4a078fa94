import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';
import type { PayOnUsClient } from '../../shared/client';
import { parameterNames } from '../resources';
import { withCredentialDefaults } from '../resources/fields';
import type { OperationContext, PayOnUsOperation } from '../resources/types';
import { errorMessage, invalidInputError } from './failures';
import { ItemParameters } from './parameters';

/** The input of each item: its parameters read, the credential's defaults applied, the operation's schema checked. */

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
 * A reader of the raw input of items: every top-level parameter of the
 * operation, read by name (collections and fixed collections come as
 * objects), with the credential's defaults applied to empty merchant/business
 * ids. Parameters without an expression are read once, not per item
 * (./parameters.ts).
 */
export function inputReader(ctx: IExecuteFunctions, op: PayOnUsOperation, client: PayOnUsClient): (itemIndex: number) => IDataObject {
	const names = parameterNames(op);
	const params = new ItemParameters((name, i) => readParameter(ctx, name, i), ctx.getNode().parameters, names);
	return (itemIndex) => {
		const raw: IDataObject = {};
		for (const name of names) raw[name] = params.get(name, itemIndex) as IDataObject[keyof IDataObject];
		return withCredentialDefaults(raw, client.defaults);
	};
}

export type ItemInput = { ok: true; data: unknown } | { ok: false; error: NodeOperationError };

/**
 * Validates every item before anything is sent: a bad item stops the run
 * (thrown) before a single request when continueOnFail is off; with it on,
 * the bad items are returned as errors and the others run.
 */
export function validateItems(
	ctx: IExecuteFunctions,
	op: PayOnUsOperation,
	client: PayOnUsClient,
	count: number,
	continueOnFail: boolean,
): ItemInput[] {
	const read = inputReader(ctx, op, client);
	const inputs: ItemInput[] = [];
	for (let i = 0; i < count; i++) {
		let parsed: ItemInput;
		try {
			const result = op.schema.safeParse(read(i));
			parsed = result.success
				? { ok: true, data: result.data }
				: { ok: false, error: invalidInputError(ctx.getNode(), op, result.error, i) };
		} catch (error) {
			// An expression that cannot be resolved for this item.
			parsed = {
				ok: false,
				error: new NodeOperationError(ctx.getNode(), errorMessage(error), { itemIndex: i }),
			};
		}
		if (!parsed.ok && !continueOnFail) throw parsed.error;
		inputs.push(parsed);
	}
	return inputs;
}

/** What a handler gets for item `itemIndex`; `aggregate`: the JSON of every item too. */
export function operationContext(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	client: PayOnUsClient,
	itemIndex: number,
	aggregate = false,
): OperationContext {
	return {
		client,
		itemIndex,
		item: items[itemIndex].json,
		...(aggregate ? { items: items.map((it) => it.json) } : {}),
		getBinary: async (propertyName: string) => {
			const meta = ctx.helpers.assertBinaryData(itemIndex, propertyName);
			const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
			return { data, fileName: meta.fileName, mimeType: meta.mimeType };
		},
	};
}
