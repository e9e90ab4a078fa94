import type { IDataObject, INode } from 'n8n-workflow';
import { type FailedCall, PayOnUsApiError } from '../errors';
import { recordInBrief } from '../format';
import { redactText, sanitizeBody } from '../redact';
import { describeRecord } from './match';
import type { MoneyMovingOptions } from './options';

/**
 * 5. The errors this contract raises, in a workflow builder's words. Each
 * function below returns the text of one; ./send.ts raises it through the
 * transport, which adds the call and cleans it (PayOnUsApiError of
 * ../errors/, outcomeError below). Every message tells to keep the
 * reference and check the earlier use; none tells to change it.
 *
 * - outcome unknown: the call may or may not have been made (`outcome: 'unknown'`);
 * - different owner: the reference belongs to an earlier, different record;
 *   nothing was sent for this item (`outcome: 'differentOwner'`);
 * - duplicate reference (a 409 on a first attempt): already done by this
 *   same request (`outcome: 'alreadyDone'`), used by a different record, or
 *   used by a record the lookup could not find.
 */

/** The text of an error about the outcome of a money-moving call. */
export interface OutcomeText {
	message: string;
	description: string;
	record?: IDataObject;
	httpCode?: string;
}

function what(mm: MoneyMovingOptions): string {
	return mm.describe ? ` (${mm.describe})` : '';
}

/** "Unknown outcome": names the reference, what was checked and what to check before retrying. */
export function unknownOutcome(mm: MoneyMovingOptions, checked: string, httpCode?: string): OutcomeText {
	return {
		httpCode,
		message: `Outcome unknown for reference "${mm.reference}": the ${mm.noun ?? 'transaction'} may or may not have been made`,
		description:
			`The outcome is UNKNOWN for reference "${mm.reference}"${what(mm)}: ${checked}. Nothing more was sent. ` +
			`Before retrying, check reference "${mm.reference}" in PayOnUs (Get Transfer, Get Many Transfers or Get Many Payments by that reference, ` +
			`the wallet ledger, or the PayOnUs dashboard). If it is not there and you retry, keep the SAME reference "${mm.reference}" so the service refuses a second payment.`,
	};
}

/** A record holding the reference that is not this request: nothing was sent for this item. */
export function differentOwner(mm: MoneyMovingOptions, record: IDataObject, diff: string[], httpCode?: string): OutcomeText {
	const noun = mm.noun ?? 'transaction';
	const other = describeRecord(record);
	return {
		httpCode,
		record,
		message: `Reference "${mm.reference}" belongs to an earlier, different ${noun} (${other}); nothing was sent for this item`,
		description:
			`An earlier, different ${noun} owns reference "${mm.reference}": ${other} (shown under existingRecord). ` +
			`This item${what(mm)} was NOT made: the service keeps one ${noun} per reference. Differences: ${diff.join('; ')}. ` +
			`Check that earlier ${noun} before doing anything else with this reference.`,
	};
}

/** A 409 on a first attempt, the reference held by a record that differs from this request. */
export function usedByDifferent(
	mm: MoneyMovingOptions,
	record: IDataObject,
	diff: string[],
): { message: string; description: string; record: IDataObject } {
	const noun = mm.noun ?? 'transaction';
	return {
		message: `Reference "${mm.reference}" is already used by a different ${noun}: ${recordInBrief(record)}`,
		description:
			`Nothing was sent for this item${what(mm)}. The ${noun} holding this reference is ${describeRecord(record)}; it differs: ${diff.join('; ')}. ` +
			`Check that earlier ${noun} before doing anything else with this reference.`,
		record,
	};
}

/** A 409 on a first attempt, the reference held by a record matching this request: it is done. */
export function alreadyDone(
	mm: MoneyMovingOptions,
	record: IDataObject,
): { message: string; description: string; record: IDataObject; outcome: 'alreadyDone' } {
	const noun = mm.noun ?? 'transaction';
	return {
		message: `${alreadyWord(noun)}: reference "${mm.reference}" is ${noun} ${recordInBrief(record)}`,
		description:
			`This reference was used before by this same ${noun} (${describeRecord(record)}), so nothing was sent again. ` +
			`It is done: use that ${noun} (its record is in existingRecord) rather than sending it again.`,
		record,
		outcome: 'alreadyDone',
	};
}

/** "Already paid" for a payout, "Already done" for anything else. */
function alreadyWord(noun: string): string {
	return /transfer/.test(noun) ? 'Already paid' : 'Already done';
}

/** A 409 on a first attempt whose record the lookup did not find (`lookupError`: why it could not look). */
export function referenceAlreadyUsed(mm: MoneyMovingOptions, lookupError?: string): { message: string; description: string } {
	return {
		message: `Reference "${mm.reference}" was already used for this business`,
		description: `PayOnUs refused it as a duplicate and nothing was sent again; looking the reference up ${
			lookupError ? `failed (${lookupError})` : 'did not find the transaction holding it'
		}. Check the outcome of that earlier use (Get Transfer or Get Payment, the wallet ledger, or the PayOnUs dashboard) before doing anything else.`,
	};
}

/** An error about the outcome of a money-moving call (it never tells the user to change the reference). */
export function outcomeError(
	node: INode,
	outcome: 'unknown' | 'differentOwner',
	call: FailedCall,
	text: OutcomeText,
): PayOnUsApiError {
	const { secrets } = call;
	return new PayOnUsApiError(node, {
		message: redactText(text.message, secrets),
		description: redactText(text.description, secrets),
		httpCode: text.httpCode,
		reference: call.reference,
		outcome,
		existingRecord: text.record ? (sanitizeBody(text.record, secrets) as IDataObject) : undefined,
		request: `${call.method} ${call.path}`,
	});
}
