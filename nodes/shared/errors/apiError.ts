import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * The outcome of a money-moving call that failed (machine-readable, for
 * routing on it): 'alreadyDone' a 409 whose reference is held by a record
 * matching this request; 'unknown' the call may or may not have been made;
 * 'differentOwner' the reference belongs to an earlier, different record.
 * (The error carries it; the money-moving contract, ../moneyMoving/, sets it.)
 */
export type MoneyOutcome = 'alreadyDone' | 'unknown' | 'differentOwner';

/** What went wrong with one HTTP attempt (transport/failure.ts reads it from what n8n threw). */
export type FailureKind = 'http' | 'timeout' | 'dropped' | 'unreachable' | 'auth' | 'token' | 'other';

export interface Failure {
	kind: FailureKind;
	status?: number;
	body?: unknown;
	code?: string;
	message?: string;
	/** The error was stated in the body of a 2xx answer (transport/envelope.ts); `status` is the stated one, if any. */
	stated?: boolean;
	/** A token failure's what-to-check line (TokenCallError.description). */
	description?: string;
}


export interface PayOnUsApiErrorInit {
	message: string;
	description?: string;
	/** HTTP status of the answer (also an error status inside a 200 envelope). */
	status?: number;
	/** n8n's httpCode; defaults to the status. */
	httpCode?: string;
	kind?: FailureKind;
	/** The service's own words (already redacted). */
	serviceMessage?: string;
	/** The service's answer (already cleaned). */
	serviceResponse?: unknown;
	/** The merchant reference of a money-moving call. */
	reference?: string;
	outcome?: MoneyOutcome;
	/** The record holding the reference (already cleaned). */
	existingRecord?: IDataObject;
	/** "POST /api/v1/..." (for support; kept under details, never in the title). */
	request?: string;
}

/**
 * A failed call to PayOnUs. Named 'NodeApiError' like its parent: n8n tests
 * `error.name === 'NodeApiError'` (workflow-execute rethrow, redaction), so
 * it must look exactly like one. `context.serviceResponse`,
 * `context.existingRecord` and `context.outcome` are what n8n shows and what
 * the node copies into continueOnFail error items.
 */
export class PayOnUsApiError extends NodeApiError {
	readonly status?: number;
	readonly kind: FailureKind;
	readonly serviceMessage?: string;
	readonly reference?: string;
	readonly outcome?: MoneyOutcome;
	readonly existingRecord?: IDataObject;

	constructor(node: INode, init: PayOnUsApiErrorInit) {
		const httpCode = init.httpCode ?? (init.status !== undefined ? String(init.status) : undefined);
		const details: IDataObject = { message: init.message, httpCode: httpCode ?? null };
		if (init.serviceResponse !== undefined) details.serviceResponse = init.serviceResponse as IDataObject;
		if (init.existingRecord) details.existingRecord = init.existingRecord;
		if (init.outcome) details.outcome = init.outcome;
		if (init.serviceMessage) details.serviceMessage = init.serviceMessage;
		if (init.request) details.request = init.request;
		super(node, details as JsonObject, { message: init.message, description: init.description, httpCode });
		this.name = 'NodeApiError';
		const numeric = httpCode !== undefined && /^\d{3}$/.test(httpCode) ? Number(httpCode) : undefined;
		this.status = init.status ?? numeric;
		this.kind = init.kind ?? (this.status !== undefined ? 'http' : 'other');
		this.serviceMessage = init.serviceMessage;
		this.reference = init.reference;
		this.outcome = init.outcome;
		this.existingRecord = init.existingRecord;
		if (init.serviceResponse !== undefined) this.context.serviceResponse = init.serviceResponse as IDataObject;
		if (init.existingRecord) this.context.existingRecord = init.existingRecord;
		if (init.outcome) this.context.outcome = init.outcome;
		if (init.serviceMessage) this.context.serviceMessage = init.serviceMessage;
		if (init.request) this.context.request = init.request;
	}
}
