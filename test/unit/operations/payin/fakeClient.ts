import type { IDataObject } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, PayOnUsEnvironment, RequestOptions } from '../../../../nodes/shared/client';
import type { OperationContext } from '../../../../nodes/PayOnUs/resources/types';

/**
 * A PayOnUsClient that records every call and answers from a script:
 * `respond(method, path, answer)` where answer is data or a function of the
 * request (throw inside it to simulate an error).
 */
export class FakeClient implements PayOnUsClient {
	readonly requests: RequestOptions[] = [];
	readonly paginations: PaginateOptions[] = [];
	private readonly answers = new Map<string, (req: RequestOptions) => unknown>();
	private pageAnswer: (opts: PaginateOptions) => unknown[] = () => [];

	constructor(
		readonly environment: PayOnUsEnvironment = 'custom',
		readonly defaults: { merchantId?: string; businessId?: string } = { merchantId: 'MER-1001', businessId: 'BUS-2001' },
	) {}

	respond(method: string, path: string, answer: unknown): this {
		this.answers.set(`${method} ${path}`, typeof answer === 'function' ? (answer as (r: RequestOptions) => unknown) : () => answer);
		return this;
	}

	respondPages(fn: (opts: PaginateOptions) => unknown[]): this {
		this.pageAnswer = fn;
		return this;
	}

	async request<T = IDataObject>(opts: RequestOptions): Promise<T> {
		this.requests.push(opts);
		const answer = this.answers.get(`${opts.method} ${opts.path}`);
		if (!answer) throw new Error(`unexpected call ${opts.method} ${opts.path}`);
		return answer(opts) as T;
	}

	async paginate<T = IDataObject>(opts: PaginateOptions): Promise<T[]> {
		this.paginations.push(opts);
		return this.pageAnswer(opts) as T[];
	}
}

export function context(client: PayOnUsClient, item: IDataObject = {}): OperationContext {
	return {
		client,
		itemIndex: 0,
		item,
		getBinary: async () => {
			throw new Error('no binary in this test');
		},
	};
}

/** An error shaped like the transport's NodeApiError for an HTTP status. */
export function httpError(status: number, message = `failed with ${status}`, context: IDataObject = {}): Error {
	const e = new Error(message) as Error & { httpCode: string; context: IDataObject; description?: string };
	e.httpCode = String(status);
	e.context = context;
	return e;
}

/** A valid-looking encrypted card blob (Base64 of 256 bytes). */
export const ENCRYPTED_CARD = Buffer.alloc(256, 7).toString('base64');
