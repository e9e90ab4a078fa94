import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { SIMPLIFIERS } from '../../shared/simplify';
import type { NodeOperation } from './types';

/**
 * Output shape of the operations whose record has more than 10 fields
 * (n8n's node guidelines):
 * - the node: Simplify (on by default): the fields a builder maps first
 *   (../../shared/simplify.ts); off: the raw record;
 * - the AI-agent tool (every field costs tokens): Output = Simplified
 *   (default), Raw, or Selected Fields (a list of field names).
 */

export function outputProperties(resource: string, operations: string[]): INodeProperties[] {
	if (operations.length === 0) return [];
	const where = { resource: [resource], operation: operations };
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: { show: { ...where, '@tool': [false] } },
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'simplified',
			options: [
				{ name: 'Simplified', value: 'simplified', description: 'Status, amount, currency, references, customer and dates (at most 10 fields)' },
				{ name: 'Raw', value: 'raw', description: 'Every field PayOnUs returns' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields named below' },
			],
			displayOptions: { show: { ...where, '@tool': [true] } },
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'string',
			default: '',
			placeholder: 'e.g. paymentStatus, amount, currency',
			description: 'Field names to return, separated by commas',
			displayOptions: { show: { ...where, '@tool': [true], output: ['selected'] } },
		},
	];
}

/** The parameters outputChoice reads. */
export const OUTPUT_PARAMETERS: readonly string[] = ['simplify', 'output', 'fields'];

export type OutputChoice = { kind: 'raw' } | { kind: 'simplified' } | { kind: 'selected'; fields: string[] };

/**
 * What the user chose for item `itemIndex`. `read` is getNodeParameter with
 * a fallback (a parameter not shown, e.g. Output on the node, gives it).
 */
export function outputChoice(read: (name: string, itemIndex: number, fallback: unknown) => unknown, itemIndex: number, tool: boolean): OutputChoice {
	if (!tool) return read('simplify', itemIndex, false) === true ? { kind: 'simplified' } : { kind: 'raw' };
	const output = read('output', itemIndex, 'raw');
	if (output === 'simplified') return { kind: 'simplified' };
	if (output === 'selected') {
		const text = read('fields', itemIndex, '');
		const fields = (typeof text === 'string' ? text : Array.isArray(text) ? text.join(',') : '')
			.split(/[\s,]+/)
			.map((f) => f.trim())
			.filter(Boolean);
		return fields.length > 0 ? { kind: 'selected', fields } : { kind: 'simplified' };
	}
	return { kind: 'raw' };
}

/** The operation with its records in the chosen shape (unchanged when it declares no record kind). */
export function shapedOperation(
	op: NodeOperation,
	read: (name: string, itemIndex: number, fallback: unknown) => unknown,
	tool: boolean,
): NodeOperation {
	const kind = op.outputRecord;
	if (!kind) return op;
	const simplify = SIMPLIFIERS[kind];
	return {
		...op,
		async execute(ctx, input) {
			const result = await op.execute(ctx, input);
			const choice = outputChoice(read, ctx.itemIndex, tool);
			if (choice.kind === 'raw') return result;
			const shape = (record: IDataObject): IDataObject => {
				if (choice.kind === 'simplified') return simplify(record);
				const out: IDataObject = {};
				for (const f of choice.fields) if (record[f] !== undefined) out[f] = record[f];
				return out;
			};
			return Array.isArray(result) ? result.map(shape) : shape(result);
		},
	};
}
