import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

/**
 * The narrow interface every operation handler talks to the service through.
 * The implementation (transport.ts) owns authentication, the envelope, errors,
 * retries, pagination and the money-moving safety rules; handlers own nothing
 * but the shape of their call, so each can be unit-tested with a fake client.
 */

export interface MultipartFile {
	field: string;
	filename: string;
	contentType: string;
	data: Buffer;
}

export interface MoneyMovingOptions {
	/** The merchant reference the call carries (unique per business). */
	reference: string;
	/**
	 * Finds the record holding this reference (for this business), by its
	 * reference. Resolves to undefined when there is none (a complete search
	 * found none). Throws when it cannot tell (the service failed, or the
	 * search hit its bound). Used after a timeout, a dropped connection or a
	 * 5xx, before anything is resent, and after a 409.
	 */
	lookup: () => Promise<IDataObject | undefined>;
	/**
	 * Compares a record of the service with this request: the differences
	 * found (empty: the record is this request). Applied to the answer of the
	 * call itself and to every record found by lookup. Without it, any record
	 * holding the reference counts as this request.
	 */
	check?: (record: IDataObject, mode: 'answer' | 'record') => string[];
	/** This request in words, for messages (e.g. "NGN 100 to account 0123456789"). */
	describe?: string;
	/** What a record is called in messages (default "transaction"). */
	noun?: string;
	/**
	 * False when a lookup that finds nothing does NOT prove the call was not
	 * processed (bulk: nothing in the spec finds a batch): a lost answer then
	 * fails as "outcome unknown" instead of being resent. Default true.
	 */
	lookupProvesAbsence?: boolean;
	/**
	 * What a 409 (reference already used) on a FIRST attempt does when lookup
	 * finds a record holding the reference that matches this request:
	 * 'error' (default) raises a "duplicate reference" error carrying that
	 * record; 'returnExisting' returns it flagged `duplicateReference: true`.
	 * A 409 after an earlier attempt of this same call was lost is resolved by
	 * lookup (`recoveredByLookup: true`) or fails as "outcome unknown".
	 */
	onDuplicate?: 'error' | 'returnExisting';
}

export interface RequestOptions {
	method: IHttpRequestMethods;
	/** Path under the base address, starting with /api/v1. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** multipart/form-data parts (bulk transfers). */
	form?: { fields: Record<string, string>; files: MultipartFile[] };
	/** Set on every call that moves money. */
	moneyMoving?: MoneyMovingOptions;
	/**
	 * When true, `request` resolves to the whole envelope
	 * `{ status, message, data }` instead of `data` (for calls whose meaning is
	 * in the message, e.g. "Card token already deleted").
	 */
	envelope?: boolean;
}

/** The service's response envelope (`request` with `envelope: true`). */
export interface Envelope<T = unknown> {
	status?: number;
	message?: string;
	data: T;
}

export interface PaginateOptions {
	path: string;
	qs?: IDataObject;
	/** payment requests: page from 0 with size; links, tokens, transfers: pageNo from 1 with pageSize. */
	style: 'zeroBased' | 'fromOne';
	returnAll: boolean;
	/** Maximum records when returnAll is false. */
	limit?: number;
	pageSize?: number;
	/** Bound on the pages read; hitting it with more to read is an error. */
	maxPages?: number;
}

export type PayOnUsEnvironment = 'sandbox' | 'production' | 'custom';

export interface PayOnUsClient {
	/** Sends one call and returns the envelope's `data`. */
	request<T = IDataObject>(opts: RequestOptions): Promise<T>;
	/** Walks the pages and returns the records (`data.content`). */
	paginate<T = IDataObject>(opts: PaginateOptions): Promise<T[]>;
	readonly environment: PayOnUsEnvironment;
	/** Defaults from the credential (never secrets). */
	readonly defaults: { merchantId?: string; businessId?: string };
}

/** Set on a record returned after a money-moving call was recovered by lookup. */
export interface RecoveryNote {
	recoveredByLookup?: boolean;
	duplicateReference?: boolean;
}
