import type { IDataObject } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient, RequestOptions } from '../../../../nodes/shared/client';
import type { OperationContext } from '../../../../nodes/PayOnUs/resources/types';

/**
 * A PayOnUsClient that records every call and answers from a handler. The
 * handler sees the options exactly as the operation built them.
 * Shared by the payout and card tokenization unit tests.
 */
export interface FakeClient extends PayOnUsClient {
	calls: RequestOptions[];
	pages: PaginateOptions[];
}

export function fakeClient(
	handler: (opts: RequestOptions) => unknown = () => ({}),
	defaults: { merchantId?: string; businessId?: string } = { merchantId: 'MER-1001', businessId: 'BUS-2001' },
	paginate: (opts: PaginateOptions) => IDataObject[] = () => [],
): FakeClient {
	const calls: RequestOptions[] = [];
	const pages: PaginateOptions[] = [];
	return {
		calls,
		pages,
		environment: 'custom',
		defaults,
		async request<T>(opts: RequestOptions): Promise<T> {
			calls.push(opts);
			return (await handler(opts)) as T;
		},
		async paginate<T>(opts: PaginateOptions): Promise<T[]> {
			pages.push(opts);
			return paginate(opts) as T[];
		},
	};
}

export function context(
	client: PayOnUsClient,
	extra: Partial<OperationContext> = {},
): OperationContext {
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

/** An error shaped like the transport's NodeApiError for an HTTP status. */
export function httpError(status: number, message = `PayOnUs failed with ${status}`): Error {
	const e = new Error(message) as Error & { httpCode: string; description: string };
	e.httpCode = String(status);
	e.description = 'The service said: something';
	return e;
}
