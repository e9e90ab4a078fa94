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
	 * Finds the record this call would have created, by its reference.
	 * Resolves to undefined when there is none. Used after a timeout, a
	 * dropped connection or a 5xx, before anything is resent, and after a
	 * 409 to show the record that already holds the reference.
	 */
	lookup: () => Promise<IDataObject | undefined>;
	/**
	 * What a 409 (reference already used) does when lookup finds the record
	 * holding the reference: 'error' (default) raises a "duplicate reference"
	 * error carrying that record; 'returnExisting' returns it flagged
	 * `duplicateReference: true`. A 409 after an attempt of this same call
	 * timed out or dropped is our own first attempt: returned flagged
	 * `recoveredByLookup: true` either way.
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
