import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';
import type { PayOnUsClient } from '../../shared/client';

/**
 * What a handler may use: the client, the item it works on, and the item's
 * binary data (bulk transfers read a CSV). Nothing else of n8n leaks in, so
 * each handler is unit-tested with a fake context.
 */
export interface OperationContext {
	client: PayOnUsClient;
	itemIndex: number;
	/** Input item JSON (bulk transfers can build their CSV from items). */
	item: IDataObject;
	/** Reads a binary property of the current item. */
	getBinary(propertyName: string): Promise<{ data: Buffer; fileName?: string; mimeType?: string }>;
	/**
	 * Set only when the operation aggregates (see `aggregatesItems`): the JSON
	 * of every input item, in order. The parameters are those of item 0.
	 */
	items?: IDataObject[];
}

/**
 * One operation = one file: its description, its input schema and its handler.
 * `properties` carry no displayOptions for resource/operation: the resource
 * index adds them.
 */
export interface PayOnUsOperation<S extends z.ZodTypeAny = z.ZodTypeAny> {
	resource: string;
	/** Operation value, e.g. 'createDynamicAccount'. */
	value: string;
	name: string;
	action: string;
	description: string;
	properties: INodeProperties[];
	/**
	 * Validates the raw parameters (read by name from the node for the
	 * current item) before anything is sent.
	 */
	schema: S;
	/**
	 * Handler. Returns one record (one output item) or a list (one output
	 * item per record). Never returns secrets or card data.
	 */
	execute(ctx: OperationContext, input: z.infer<S>): Promise<IDataObject | IDataObject[]>;
	/**
	 * Optional. Given the validated input of item 0, returns true when this
	 * run handles ALL input items at once (e.g. a bulk transfer built from the
	 * items): the node then calls `execute` once, with `ctx.items` set and
	 * `itemIndex` 0, and pairs every output item with every input item.
	 */
	aggregatesItems?(input: z.infer<S>): boolean;
}

/** Thrown by a handler for a bad input that the schema alone cannot see. */
export class PayOnUsInputError extends Error {
	constructor(
		readonly field: string,
		message: string,
	) {
		super(message);
		this.name = 'PayOnUsInputError';
	}
}
