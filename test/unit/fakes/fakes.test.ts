/**
 * The fakes are what n8n really throws: n8nHttpError / n8nNetworkError /
 * n8nTimeout against n8n-core's REAL httpRequestWithAuthentication (a local
 * server: a 400 with a JSON body, a refused port, an answer that never
 * comes), and the transport reads the 2.8 and the 2.41 shapes alike.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError } from 'n8n-workflow';
import { PayOnUsApiError, statusOf } from '../../../nodes/shared/errors';
import { classifyFailure } from '../../../nodes/shared/transport/failure';
import { FAKE_NODE, httpError, n8nHttpError, n8nNetworkError, n8nTimeout } from '.';
 
const core = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js');

let server: Server;
let base = '';
const BODY = { status: 400, message: 'Validation failed', data: { errors: [] } };

beforeAll(async () => {
	server = createServer((req, res) => {
		if (req.url === '/hang') return;
		res.writeHead(400, { 'content-type': 'application/json' });
		res.end(JSON.stringify(BODY));
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((r) => server.close(() => r()));
});

async function realError(url: string): Promise<NodeApiError> {
	const additionalData = {
		credentialsHelper: { getParentTypes: () => [], preAuthentication: async () => undefined, authenticate: async (_c: unknown, _t: string, o: unknown) => o },
	};
	const ctx = { getNode: () => FAKE_NODE, helpers: {} };
	const error = await core.httpRequestWithAuthentication
		.call(ctx, 'payOnUsApi', { url, method: 'GET', json: true, timeout: 300 }, {}, FAKE_NODE, additionalData, { credentialsDecrypted: { data: {} } })
		.catch((e: unknown) => e);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

const shape = (e: NodeApiError) => ({
	name: e.name,
	httpCode: e.httpCode,
	message: e.message,
	description: e.description,
	messages: e.messages.map((m) => m.replace(/127\.0\.0\.1:\d+/, 'HOST')),
	context: e.context,
	cause: e.cause,
});

describe('what n8n 2.8 throws', () => {
	it('an HTTP error status', async () => {
		expect(shape(n8nHttpError(400, BODY))).toEqual(shape(await realError(`${base}/x`)));
	});

	it('a refused connection', async () => {
		expect(shape(n8nNetworkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'))).toEqual(shape(await realError('http://127.0.0.1:1/x')));
	});

	it('a timeout', async () => {
		expect(shape(n8nTimeout(300))).toEqual(shape(await realError(`${base}/hang`)));
	});
});

describe('the transport reads both n8n shapes', () => {
	it.each(['2.8', '2.41'] as const)('n8n %s', (n8n) => {
		expect(classifyFailure(n8nHttpError(409, BODY, { n8n }))).toEqual({ kind: 'http', status: 409, body: BODY });
		expect(classifyFailure(n8nHttpError(401, BODY, { n8n }))).toMatchObject({ kind: 'auth', status: 401 });
		expect(classifyFailure(n8nNetworkError('ECONNREFUSED', undefined, { n8n }))).toEqual({ kind: 'unreachable', code: 'ECONNREFUSED' });
		expect(classifyFailure(n8nNetworkError('ECONNRESET', 'socket hang up', { n8n }))).toEqual({ kind: 'dropped', code: 'ECONNRESET' });
		expect(classifyFailure(n8nTimeout(300, { n8n }))).toEqual({ kind: 'timeout', code: 'ECONNABORTED' });
	});
});

describe("the client's error", () => {
	it('is an n8n NodeApiError by class and by name, with its status typed', () => {
		const e = httpError(404, 'not found', { reference: 'R-1' });
		expect(e).toBeInstanceOf(PayOnUsApiError);
		expect(e).toBeInstanceOf(NodeApiError);
		expect(e.name).toBe('NodeApiError'); // n8n tests the name (workflow-execute, redaction)
		expect(e.httpCode).toBe('404');
		expect(e.status).toBe(404);
		expect(statusOf(e)).toBe(404);
		expect(e.reference).toBe('R-1');
	});
});
