import { NodeApiError, NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import { PayOnUsInputError } from '../resources/types';

/** How a failed item is reported: as an n8n error tied to its item, or as an error item (continueOnFail). */

export function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}

/**
 * Any failure of a handler as an n8n error tied to its item. A
 * PayOnUsInputError names its field (`Item 2: "cardTokenId" ...`); one with
 * an empty field is a plain sentence (`Item 2: Simulate ... sandbox only`).
 * Transport errors (NodeApiError) keep their message, already cleaned of
 * secrets by the transport.
 */
export function toNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
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
export function errorJson(error: NodeApiError | NodeOperationError, itemIndex: number, errorOutput = false): IDataObject {
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
 * Adds to the error of item `failed` which later items had already been
 * sent (they ran alongside it) and finished: their records are not in the
 * output because the run stopped with this error.
 */
export function noteSentAlongside(error: unknown, results: unknown[], limit: number): unknown {
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
