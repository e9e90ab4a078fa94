import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import type { CredentialDefaults } from './credential/defaults';
import type { MoneyMovingOptions } from './moneyMoving/options';

/**
 * The narrow interface every operation handler talks to the service through
 * (interfaces only). The implementation (transport/index.ts, createClient)
 * owns authentication, the envelope, errors, retries, pagination and the
 * money-moving safety rules (moneyMoving/); handlers own nothing but the
 * shape of their call, so each can be unit-tested with a fake client.
 */

export interface MultipartFile {
	field: string;
	filename: string;
	contentType: string;
	data: Buffer;
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
	/** Defaults from the credential (never secrets; ./credential/defaults.ts applies them). */
	readonly defaults: CredentialDefaults;
}
