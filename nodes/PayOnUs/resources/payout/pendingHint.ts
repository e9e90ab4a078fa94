import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';

/**
 * Issue 38: a transfer is answered PENDING; that is not its outcome. The
 * form says so (the transfers' notice) and so does the output: a hint above
 * it when a transfer of the run (or a row of a batch) is PENDING, saying
 * where the final status comes from. A hint, not an output field: the
 * record keeps the one transfer shape (nodes/shared/records.ts) that Get
 * Transfer and the triggers give too.
 */
export const PENDING_IS_NOT_FINAL =
	'PENDING is not final: the bank settles the transfer later. Its final status (SUCCESSFUL or FAILED) comes as a PAYOUT notification ' +
	'(PayOnUs Trigger, event Payout, in the same or another workflow) or from Payout → Get Transfer with its onusReference (e.g. after a Wait node).';

function pending(record: IDataObject): boolean {
	if (record.paymentStatus === 'PENDING' || record.status === 'PENDING') return true;
	return Array.isArray(record.transfers) && (record.transfers as IDataObject[]).some((t) => t && t.paymentStatus === 'PENDING');
}

/** The hint for the output of a run of transfers, when one is PENDING. */
export function pendingTransferHint(records: IDataObject[]): NodeExecutionHint | undefined {
	const count = records.filter((r) => r && typeof r === 'object' && r.error === undefined && pending(r)).length;
	if (count === 0) return undefined;
	const which = records.length === 1 ? 'This transfer is' : `${count} of ${records.length} items are`;
	return { type: 'info', location: 'outputPane', message: `${which} PENDING. ${PENDING_IS_NOT_FINAL}` };
}
