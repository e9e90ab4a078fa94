import type { IDataObject, IHttpRequestMethods, INode } from 'n8n-workflow';
import type { CredentialDefaults } from './credential/defaults';
import type { PayOnUsEnvironment } from './environments';
import type { FailedCall, PayOnUsApiError } from './errors';

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

interface Call {
	method: IHttpRequestMethods;
	/** Path under the base address, starting with /api/v1. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** multipart/form-data parts (bulk transfers). */
	form?: { fields: Record<string, string>; files: MultipartFile[] };
	/**
	 * When true, `request` resolves to the whole envelope
	 * `{ status, message, data }` instead of `data` (for calls whose meaning is
	 * in the message, e.g. "Card token already deleted").
	 */
	envelope?: boolean;
}

/**
 * What a sending policy gets of the transport: single authenticated
 * attempts (through its limiter), the details of the call for its errors,
 * its waits and its limits. The transport knows no policy: a request hands it its own.
 */
export interface Attempts {
	/** One authenticated attempt; the raw body, or throws what n8n threw. */
	attempt(opts: RequestOptions): Promise<unknown>;
	/** An error of the call, built by the policy from the node and the call's details (method, path, base address, secrets to clean). */
	fail(opts: RequestOptions, build: (node: INode, call: FailedCall) => PayOnUsApiError): PayOnUsApiError;
	secrets(): string[];
	pause(ms: number): Promise<void>;
	backoff(attempt: number): number;
	readonly limits: { lookupAttempts: number; moneyMovingResends: number; pushBackRetries: number };
}

/** How a request is sent when plain sending will not do (money-moving calls: ./moneyMoving/send.ts). */
export interface SendPolicy {
	send<T>(via: Attempts, opts: RequestOptions): Promise<T>;
}

/**
 * What a call that moves money shows outside the policy that sends it: its
 * reference and, for a batch, where each row came from. The policy
 * (./moneyMoving/send.ts moneyMovingParts) holds the rest of its options.
 */
export interface MoneyMovingMark {
	/** The merchant reference the call carries (unique per business). */
	reference: string;
	/** A batch: where each row came from, for messages ("line 3 (row 2)" of a CSV, "item 2"). */
	places?: string[];
}

/**
 * One call. A call that moves money carries its mark (`moneyMoving`) and
 * the policy that sends it, both built from its operation's declaration
 * (./moneyMoving/call.ts); one never comes without the other.
 */
export type RequestOptions = Call &
	(
		| { moneyMoving?: undefined; policy?: undefined }
		| {
				moneyMoving: MoneyMovingMark;
				/** Sends the call (the transport hands it its attempts). */
				policy: SendPolicy;
		  }
	);

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

export type { PayOnUsEnvironment } from './environments';

export interface PayOnUsClient {
	/** Sends one call and returns the envelope's `data`. */
	request<T = IDataObject>(opts: RequestOptions): Promise<T>;
	/** Walks the pages and returns the records (`data.content`). */
	paginate<T = IDataObject>(opts: PaginateOptions): Promise<T[]>;
	readonly environment: PayOnUsEnvironment;
	/** Defaults from the credential (never secrets; ./credential/defaults.ts applies them). */
	readonly defaults: CredentialDefaults;
}
