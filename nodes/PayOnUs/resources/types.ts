import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod/v3';
import type { PayOnUsClient } from '../../shared/clientInterface';
import type { MoneyCall } from '../../shared/moneyMoving/call';
import type { RecordKind } from '../../shared/simplify';

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
 * What running an operation does to the service. The node runs it by this
 * declaration (../run/):
 * - 'read': every call is a GET and none moves money. Items run
 *   concurrently (up to Options > Max Requests in Flight, halved while the
 *   service pushes back) through a
 *   client that refuses anything but a GET.
 * - 'write': anything else that moves no money (creates, deletes, a name
 *   enquiry's POST). Items run Options > Money-Moving Concurrency at once
 *   (32 by default),
 *   with one back-off for the run.
 * - 'movesMoney': a call that moves money (or starts moving it: charges,
 *   collections, payouts). Run as 'write', plus Dry Run and the AI-tool
 *   spending limits (../safeguards/), which read `money`.
 */
export type Effect = 'read' | 'write' | 'movesMoney';

/** What the safeguards (Dry Run, AI-tool limits) need of a money-moving operation. */
export interface MoneyMovement<I = unknown> {
	/** 'out' pays from a wallet (wallet balance checked, beneficiaries listed); 'in' collects from a customer. */
	direction: 'in' | 'out';
	/**
	 * The currency its call moves when the body names none: a code (a
	 * tokenized card: NGN, the card gateway; EFT: ZAR), or 'network': the
	 * currency of the mobile money network the body names. Read by the dry
	 * run and the AI tool's spending limits (../safeguards/moneyRequest.ts).
	 */
	impliedCurrency?: string;
	/**
	 * The input a dry run runs the handler with, when it differs (e.g. Create
	 * Transfer: without its own name check, which the dry run reports as a
	 * check of its own instead of stopping).
	 */
	dryRunInput?(input: I): I;
}

/**
 * One operation = one file: its description, its input schema, its handler
 * and its traits. Nothing about an operation is listed anywhere else: its
 * resource's index.ts puts it in the resource's list (and gives it its
 * resource), and the node reads the rest from here.
 * `properties` carry no displayOptions for resource/operation: the resource
 * index adds them. test/unit/operations/declarations.test.ts checks that the
 * schema's keys and the properties agree, and that the traits are declared.
 */
export interface PayOnUsOperation<S extends z.ZodTypeAny = z.ZodTypeAny> {
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
	/** Trait: what its calls do (see Effect). */
	effect: Effect;
	/** Trait, money-moving operations only (required for them): what the safeguards need. */
	money?: MoneyMovement<z.infer<S>>;
	/**
	 * Trait, required of every operation whose call is sent with the
	 * money-moving safety (all 'movesMoney' ones, and the 'write' ones that
	 * set up a collection): what makes that call move money, declared here
	 * once: its path, what proves its success, how it is looked up by
	 * reference and its body's fields (../../shared/moneyMoving/call.ts). The
	 * handler sends it from this declaration; the proofs, the drill's money
	 * operations and the payin bodies are read from here.
	 */
	moneyCall?: MoneyCall;
	/**
	 * Trait, for operations whose record has more than 10 fields: the kind of
	 * record it outputs. The node then offers Simplify
	 * (and the tool's Output choice) with that kind's shape (./output.ts).
	 */
	outputRecord?: RecordKind;
	/**
	 * Trait: the fields this operation fills itself when they are empty, and
	 * with what, in words (e.g. Create Transfer: `{ countryCode: 'the country
	 * of the currency' }`). The credential's merchant and business need no
	 * entry. An expression that gives nothing for such a field is an error,
	 * never the default (../../shared/credential/defaults.ts, rule 5).
	 */
	defaultsWhenEmpty?: Readonly<Record<string, string>>;
	/** Trait: true when it has Return All + Limit (a list walked page by page). */
	paging: boolean;
	/**
	 * Trait: given the validated input of item 0, true when this
	 * run handles ALL input items at once (e.g. a bulk transfer built from the
	 * items): the node then calls `execute` once, with `ctx.items` set and
	 * `itemIndex` 0, and pairs every output item with every input item.
	 */
	aggregatesItems(input: z.infer<S>): boolean;
}

/** `aggregatesItems` of an operation that runs item by item (most). */
export const itemByItem = (): boolean => false;

/** `aggregatesItems` of an operation that always runs once with every item. */
export const allItemsAtOnce = (): boolean => true;

/** An operation as the node runs it: with the resource whose list holds it. */
export type NodeOperation = PayOnUsOperation & { resource: string };

/** 'payout:createTransfer': how reports and refusals name an operation. */
export function operationId(op: NodeOperation): string {
	return `${op.resource}:${op.value}`;
}

/** Whether the node offers Dry Run and applies the AI-tool limits (money-moving operations). */
export function movesMoney(op: Pick<PayOnUsOperation, 'effect'>): boolean {
	return op.effect === 'movesMoney';
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
