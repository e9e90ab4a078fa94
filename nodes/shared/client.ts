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
