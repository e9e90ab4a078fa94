import { NodeApiError, NodeOperationError, type IDataObject, type IExecuteFunctions, type INode } from 'n8n-workflow';
import type { z } from 'zod/v3';
import { describeIssues } from '../../shared/validation';
import { findOperation } from '../resources';
import { fieldLabel, labeller } from '../resources/labels';
import { PayOnUsInputError, type PayOnUsOperation } from '../resources/types';

/** How a failed item is reported: as an n8n error tied to its item, or as an error item (continueOnFail). */

export function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}

/**
 * Item numbering: n8n's own. A message carries no item number: the error
 * keeps its item in `context.itemIndex`, which the editor shows as
 * "[item 0]" (zero-based, as in $itemIndex); an error item (continueOnFail)
 * gets the same " [item N]" at the end of its message.
 */
export function itemSuffix(itemIndex: number): string {
	return ` [item ${itemIndex}]`;
}

/** The error of an item whose fields are invalid: every invalid field at once, by its label. */
export function invalidInputError(node: INode, op: Pick<PayOnUsOperation, 'properties'>, error: z.ZodError, itemIndex: number): NodeOperationError {
	const problems = describeIssues(error, labeller(op));
	return new NodeOperationError(node, problems.title, {
		itemIndex,
		description: problems.description ?? 'Fix this field of the item; nothing was sent.',
	});
}

/**
 * Any failure of a handler as an n8n error tied to its item. A
 * PayOnUsInputError names its field by the label the node shows
 * (`"Card Token ID" ...`); one with an empty field is a plain sentence.
 * Transport errors (NodeApiError) keep their message, already cleaned of
 * secrets by the transport.
 */
export function toNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	return itemError(ctx.getNode(), (field) => labelOf(ctx, field), error, itemIndex);
}

/** toNodeError's work, for a node and how to label a field. */
function itemError(node: INode, label: (field: string) => string, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof PayOnUsInputError) {
		const text = error.field ? `"${label(error.field)}" ${error.message}` : error.message;
		return new NodeOperationError(node, text, { itemIndex });
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, errorMessage(error), { itemIndex });
}

/** The label of a field of the node's current operation (humanized when unknown). */
function labelOf(ctx: IExecuteFunctions, path: string): string {
	let op: PayOnUsOperation | undefined;
	try {
		op = findOperation(ctx.getNodeParameter('resource', 0) as string, ctx.getNodeParameter('operation', 0) as string);
	} catch {
		op = undefined;
	}
	return fieldLabel(op ?? { properties: [] }, path);
}

/**
 * The JSON of an error item (continueOnFail): the message with n8n's item
 * number at the end (" [item 0]"), what to do when known, and for
 * money-moving calls `outcome` ('alreadyDone': the reference is held by a
 * record matching this request, i.e. it was done before; 'unknown';
 * 'differentOwner') with the record found (`existingRecord`).
 *
 * With "Continue (using error output)" n8n routes an item to the error
 * output only when its json holds nothing but error/message/details, so
 * there everything but `error` goes under `details`; otherwise (Continue,
 * regular output) the fields stay at the top level.
 */
export function errorJson(error: NodeApiError | NodeOperationError, itemIndex: number, errorOutput = false): IDataObject {
	const suffix = itemSuffix(itemIndex);
	const message = error.message.endsWith(suffix) ? error.message : error.message + suffix;
	const extra: IDataObject = {};
	if (error.description) extra.description = error.description;
	const context = error.context as IDataObject;
	if (typeof context.outcome === 'string') extra.outcome = context.outcome;
	if (context.existingRecord && typeof context.existingRecord === 'object') extra.existingRecord = context.existingRecord;
	if (errorOutput) return Object.keys(extra).length > 0 ? { error: message, details: extra } : { error: message };
	return { error: message, ...extra };
}

/**
 * Adds to the error of item `failed` which later items had already been
 * sent (they ran alongside it) and finished: their records are not in the
 * output because the run stopped with this error.
 */
export function noteSentAlongside(error: unknown, results: unknown[], limit: number): unknown {
	if (limit <= 1 || !(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const failed = error.context.itemIndex;
	if (typeof failed !== 'number') return error;
	const sent: number[] = [];
	for (let k = failed + 1; k < results.length; k++) if (results[k] !== undefined) sent.push(k);
	if (sent.length === 0) return error;
	const note = `${sent.length > 1 ? 'Items' : 'Item'} ${sent.join(', ')} (numbered from 0, as n8n does) ran at the same time (Money-Moving Concurrency ${limit}) and were sent and finished before the run stopped; their results are not in the output. Check them by their references before running them again.`;
	error.description = error.description ? `${error.description} ${note}` : note;
	return error;
}
