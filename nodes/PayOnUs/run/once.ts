import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';
import type { z } from 'zod';
import type { PayOnUsClient } from '../../shared/clientInterface';
import { findOperation } from '../resources';
import { labeller } from '../resources/labels';
import type { OperationContext } from '../resources/types';
import { invalidInputError, itemError } from './failures';

/**
 * One operation run once, with one input, by code outside an n8n execution
 * (the PayOnUs Payment Page): the way into the action node for another node.
 * The operation is named as reports name it ('payin:getPayment'); its input
 * is checked with the operation's own schema before anything is sent; its
 * handler runs as item 0 (no binary data); it fails as the runner reports a
 * failed item (./failures.ts): an invalid input is invalidInputError's error
 * (every invalid field by its label) carrying the schema's `issues`, a
 * handler's PayOnUsInputError names its field by its label, a service error
 * passes as the transport threw it (status, existingRecord of a 409).
 * Money-moving handlers keep their own safety: a payin is never resent
 * blindly, a duplicate reference is a 409 carrying the record that holds it.
 */
export async function runOnce(
	caller: { node: INode; client: PayOnUsClient },
	name: string,
	input: IDataObject,
): Promise<IDataObject[]> {
	const { node, client } = caller;
	const [resource, operation] = name.split(':');
	const op = findOperation(resource, operation ?? '');
	if (!op) throw new NodeOperationError(node, `Unknown operation "${operation}" for resource "${resource}"`);
	const parsed = op.schema.safeParse(input);
	if (!parsed.success) {
		const issues: InvalidInput['issues'] = parsed.error.issues;
		throw Object.assign(invalidInputError(node, op, parsed.error, 0), { issues });
	}
	const context: OperationContext = {
		client,
		itemIndex: 0,
		item: {},
		getBinary: async () => {
			throw new NodeOperationError(node, `${name} was run without input items: it has no binary data`);
		},
	};
	try {
		const result = await op.execute(context, parsed.data);
		return Array.isArray(result) ? result : [result];
	} catch (error) {
		throw itemError(node, labeller(op), error, 0);
	}
}

/** runOnce's error for an input its operation's schema refused. */
export type InvalidInput = NodeOperationError & { issues: z.ZodIssue[] };

export function isInvalidInput(error: unknown): error is InvalidInput {
	return error instanceof NodeOperationError && Array.isArray((error as Partial<InvalidInput>).issues);
}

/**
 * The request every payin operation sends (../resources/payin/shared.ts:
 * never resent blindly; after a lost answer the reference is looked up),
 * for another node's payin that no operation can make as asked: the Payment
 * Page's EFT carries a return address (`redirectUrl`) the EFT operation has
 * no parameter for, and a new parameter would change the PayOnUs node.
 */
export { postPayin } from '../resources/payin/shared';
