import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';
import type { PayOnUsClient } from '../../shared/clientInterface';
import { parameterNames } from '../resources';
import { withDefaults } from '../../shared/credential/defaults';
import { fieldLabel } from '../resources/labels';
import type { OperationContext, PayOnUsOperation } from '../resources/types';
import { isExpression, ParameterValueError, parseBoolean } from '../../shared/parameters';
import { errorMessage, invalidInputError } from './failures';
import { containsExpression, itemField, itemFieldPath, ItemParameters, locatorValue } from './parameters';

/** The input of each item: its parameters read, the credential's defaults applied, the operation's schema checked. */

/** Reads a parameter without n8n's "Could not get parameter" for hidden ones. */
function readParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): unknown {
	const value = ctx.getNodeParameter(name, itemIndex, null) as unknown;
	return value === null ? undefined : locatorValue(value);
}

type Described = Pick<INodeProperties, 'name' | 'displayName' | 'type'>;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * A yes/no parameter the way n8n handed it, read strictly
 * (../../shared/parameters.ts): true/false, or the text "true"/"false"
 * (trimmed, any case) that an expression or an n8n Variable gives; anything
 * else is an error naming the parameter and the value. `fromExpression`:
 * the stored value is an expression, so nothing (undefined, '') is an error
 * too, never the default, unless `blankIsNotGiven` (an optional filter inside
 * a collection, where an empty value has always meant "no filter").
 *
 * Numbers and options are left to the operation's schema, which reads
 * numeric text exactly and refuses anything else naming item and field;
 * there an empty value from an expression means "not given" (the package's
 * convention, shared/validation/), so required fields say "is required".
 */
function strictValue(props: Described[], label: string, value: unknown, fromExpression: boolean, blankIsNotGiven = false): unknown {
	if (props.length === 0 || props[0].type !== 'boolean') return value;
	if (value === undefined && !fromExpression) return value;
	if (blankIsNotGiven && blank(value)) return undefined;
	const b = parseBoolean(value);
	if (b === undefined) throw new ParameterValueError(label, value, 'true or false', props[0].displayName);
	return b;
}

/** The properties of an operation by name. */
function describedByName(props: readonly INodeProperties[]): Map<string, INodeProperties[]> {
	const out = new Map<string, INodeProperties[]>();
	for (const p of props) out.set(p.name, [...(out.get(p.name) ?? []), p]);
	return out;
}

/** Strict reading of one top-level yes/no parameter, and of those inside a collection. */
function strictParameter(props: INodeProperties[], value: unknown, stored: unknown): unknown {
	const p = props[0];
	if (!p) return value;
	const label = `${p.name}`;
	if (p.type === 'collection' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
		const storedFields = stored !== null && typeof stored === 'object' ? (stored as IDataObject) : {};
		const fields = describedByName((p.options ?? []) as INodeProperties[]);
		const out: IDataObject = { ...(value as IDataObject) };
		for (const [key, sub] of fields) {
			if (!Object.prototype.hasOwnProperty.call(out, key)) continue;
			out[key] = strictValue(sub, `${label}.${key}`, out[key], isExpression(storedFields[key]), true) as IDataObject[string];
		}
		return out;
	}
	return strictValue(props, label, value, containsExpression(stored));
}

/**
 * A reader of the raw input of items: every top-level parameter of the
 * operation, read by name (collections and fixed collections come as
 * objects), with the defaults applied to the fields left empty in the
 * editor (the credential's merchant/business, the operation's own), and an
 * error for a field whose expression gave nothing where a default would
 * apply (../../shared/credential/defaults.ts withDefaults). Parameters
 * without an expression are read once, not per item (./parameters.ts).
 */
export function inputReader(ctx: IExecuteFunctions, op: PayOnUsOperation, client: PayOnUsClient): (itemIndex: number) => IDataObject {
	const names = parameterNames(op);
	const node = ctx.getNode();
	const stored = node.parameters ?? {};
	const label = (field: string) => fieldLabel(op, field);
	const described = describedByName(op.properties);
	const items = ctx.getInputData();
	const fieldPaths = new Map(names.map((name) => [name, itemFieldPath(stored[name])]));
	const value = (name: string, i: number): unknown => {
		const path = fieldPaths.get(name);
		const field = path ? itemField(items[i]?.json, path) : undefined;
		return field !== undefined ? field : readParameter(ctx, name, i);
	};
	const read = (name: string, i: number) => strictParameter(described.get(name) ?? [], value(name, i), stored[name]);
	const params = new ItemParameters(read, stored, names);
	return (itemIndex) => {
		const raw: IDataObject = {};
		for (const name of names) raw[name] = params.get(name, itemIndex) as IDataObject[keyof IDataObject];
		return withDefaults(raw, stored, { credential: client.defaults, own: op.defaultsWhenEmpty, label });
	};
}

export type ItemInput = { ok: true; data: unknown } | { ok: false; error: NodeOperationError };

/**
 * Validates one item, never throwing: its input, or its error naming the
 * item and the field. The runner (./index.ts) decides when: every item
 * before anything is sent, except in a read run, where each item is
 * validated as it is started.
 */
export function itemValidator(ctx: IExecuteFunctions, op: PayOnUsOperation, client: PayOnUsClient): (itemIndex: number) => ItemInput {
	const read = inputReader(ctx, op, client);
	return (i) => {
		try {
			const result = op.schema.safeParse(read(i));
			return result.success ? { ok: true, data: result.data } : { ok: false, error: invalidInputError(ctx.getNode(), op, result.error, i) };
		} catch (error) {
			// An expression that cannot be resolved for this item, or one that came out empty where a default would apply.
			const description = (error as { description?: unknown }).description;
			return {
				ok: false,
				error: new NodeOperationError(ctx.getNode(), errorMessage(error), {
					itemIndex: i,
					...(typeof description === 'string' ? { description } : {}),
				}),
			};
		}
	};
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
