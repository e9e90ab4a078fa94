import type { IDataObject } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, PayOnUsEnvironment, RequestOptions } from '../../../nodes/shared/clientInterface';
import type { OperationContext } from '../../../nodes/PayOnUs/resources/types';
import type { MoneyMovingOptions } from '../../../nodes/shared/moneyMoving';

/**
 * A request as the fake records it: a money-moving one with the whole of its
 * options (what moneyRequest puts in its mark and its policy), so a test can
 * run its lookup or read what its record must show.
 */
export type SentRequest = RequestOptions & { moneyMoving?: MoneyMovingOptions };

type Defaults = { merchantId?: string; businessId?: string };
const DEFAULTS: Defaults = { merchantId: 'MER-1001', businessId: 'BUS-2001' };

/**
 * A PayOnUsClient that records every call (`requests`, `paginations`) and
 * answers from a script: `respond(method, path, answer)` where answer is data
 * or a function of the request (throw inside it, e.g. `httpError(404)` from
 * ./errors, to simulate what the real client throws), else from the
 * fallback handler given to `fakeClient(handler)`.
 */
export class FakeClient implements PayOnUsClient {
	readonly requests: SentRequest[] = [];
	readonly paginations: PaginateOptions[] = [];
	private readonly answers = new Map<string, (req: RequestOptions) => unknown>();
	private fallback?: (req: RequestOptions) => unknown;
	private pageAnswer: (opts: PaginateOptions) => unknown[] = () => [];

	constructor(
		readonly environment: PayOnUsEnvironment = 'custom',
		readonly defaults: Defaults = { ...DEFAULTS },
	) {}

	/** The calls, in order (same list as `requests`). */
	get calls(): SentRequest[] {
		return this.requests;
	}

	/** The paginations, in order (same list as `paginations`). */
	get pages(): PaginateOptions[] {
		return this.paginations;
	}

	respond(method: string, path: string, answer: unknown): this {
		this.answers.set(`${method} ${path}`, typeof answer === 'function' ? (answer as (r: RequestOptions) => unknown) : () => answer);
		return this;
	}

	/** Answers every call without a scripted answer. */
	respondAll(handler: (req: RequestOptions) => unknown): this {
		this.fallback = handler;
		return this;
	}

	respondPages(fn: (opts: PaginateOptions) => unknown[]): this {
		this.pageAnswer = fn;
		return this;
	}

	async request<T = IDataObject>(opts: RequestOptions): Promise<T> {
		this.requests.push(opts as SentRequest);
		const answer = this.answers.get(`${opts.method} ${opts.path}`) ?? this.fallback;
		if (!answer) throw new Error(`unexpected call ${opts.method} ${opts.path}`);
		return (await answer(opts)) as T;
	}

	async paginate<T = IDataObject>(opts: PaginateOptions): Promise<T[]> {
		this.paginations.push(opts);
		return this.pageAnswer(opts) as T[];
	}
}

/** A FakeClient answering every call with `handler` (default: {}), and pages with `paginate`. */
export function fakeClient(
	handler: (opts: RequestOptions) => unknown = () => ({}),
	defaults: Defaults = { ...DEFAULTS },
	paginate: (opts: PaginateOptions) => IDataObject[] = () => [],
): FakeClient {
	return new FakeClient('custom', defaults).respondAll(handler).respondPages(paginate);
}

/** The context an operation handler gets, around a client. */
export function context(client: PayOnUsClient, extra: Partial<OperationContext> = {}): OperationContext {
	return {
		client,
		itemIndex: 0,
		item: {},
		getBinary: async () => {
			throw new Error('no binary in this test');
		},
		...extra,
	};
}

/** A valid-looking encrypted card blob (Base64 of 256 bytes). */
export const ENCRYPTED_CARD = Buffer.alloc(256, 7).toString('base64');
