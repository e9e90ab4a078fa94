/**
 * What n8n's `this.helpers.httpRequestWithAuthentication` really throws,
 * built from n8n's own classes (NodeApiError of n8n-workflow wrapping the
 * AxiosError of the axios n8n-core uses), as read in n8n-core 2.8
 * (request-helper-functions.js) and 2.41 (request-helpers/authentication.js):
 *  - an HTTP error status: NodeApiError { httpCode: '400', context.data: the
 *    JSON body, messages: ['Request failed with status code 400'], message:
 *    n8n's generic sentence for the status };
 *  - a network error: NodeApiError { httpCode: 'ECONNREFUSED' (the code),
 *    messages: ['connect ECONNREFUSED ...'] }; a timeout is ECONNABORTED with
 *    'timeout of 300ms exceeded';
 *  - n8n 2.8 drops the AxiosError (`cause` undefined); 2.41 keeps it as a
 *    non-enumerable `cause` (option `n8n: '2.41'`).
 * fakes.test.ts checks these against n8n-core's real helper.
 */
import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { PAYONUS_NODE } from '../../../dev/inProcessN8n';

/** The node the fakes' errors name (the in-process n8n's PayOnUs node). */
export const FAKE_NODE: INode = PAYONUS_NODE;

type Shape = { n8n?: '2.8' | '2.41'; node?: INode };

function wrap(axiosError: AxiosError, shape: Shape): NodeApiError {
	const error = new NodeApiError(shape.node ?? FAKE_NODE, axiosError as unknown as JsonObject);
	if (shape.n8n === '2.41') Object.defineProperty(error, 'cause', { value: axiosError, enumerable: false, configurable: true });
	return error;
}

function config(): InternalAxiosRequestConfig {
	return { headers: new AxiosHeaders(), method: 'get', url: 'http://127.0.0.1/api/v1/x' };
}

/** An answer with an error status, as n8n throws it. */
export function n8nHttpError(status: number, body: IDataObject | string = {}, shape: Shape & { headers?: Record<string, string> } = {}): NodeApiError {
	const cfg = config();
	const response = {
		status,
		statusText: '',
		headers: shape.headers ?? { 'content-type': 'application/json' },
		config: cfg,
		data: body,
	};
	const code = status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
	return wrap(new AxiosError(`Request failed with status code ${status}`, code, cfg, {}, response), shape);
}

/** A request that got no answer (refused, reset, timed out...), as n8n throws it. */
export function n8nNetworkError(code: string, message = `connect ${code} 127.0.0.1:1`, shape: Shape = {}): NodeApiError {
	return wrap(new AxiosError(message, code, config(), {}), shape);
}

/** A timeout of n8n's `timeout` option (axios: ECONNABORTED). */
export function n8nTimeout(ms = 300, shape: Shape = {}): NodeApiError {
	return n8nNetworkError('ECONNABORTED', `timeout of ${ms}ms exceeded`, shape);
}
