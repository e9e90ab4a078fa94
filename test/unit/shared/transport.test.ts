/**
 * Transport behaviours through n8n-core's real request helpers (see
 * dev/inProcessN8n.ts) against a small scripted HTTP server: envelope,
 * error mapping, both pagination styles, money-moving lookup/resend and 409.
 * Token recovery across "processes" is in transport.auth.test.ts (sandbox).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { PayOnUsApi } from '../../../credentials/PayOnUsApi.credentials';
import { createClient } from '../../../nodes/shared/transport';
import { moneyMovingParts } from '../../../nodes/shared/moneyMoving';
import { bankTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../dev/inProcessN8n';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse, url: URL) => void | Promise<void>;

let server: Server;
let baseUrl: string;
let handler: Handler;
const sockets = new Set<Socket>();
let log: Array<{ method: string; path: string; query: string; body: string; auth?: string; contentType?: string }> = [];
const TOKEN = 'stub-token-abc123';

function send(res: ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}
function ok(res: ServerResponse, data: unknown) {
	send(res, 200, { status: 200, message: 'Successful', data });
}
function fail(res: ServerResponse, status: number, message: string, errors: unknown[] = []) {
	send(res, status, { status, message, data: { statusCode: status, errors } });
}

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://x');
			const body = Buffer.concat(chunks).toString('utf8');
			if (url.pathname === '/api/v1/access-token') {
				ok(res, { access_token: TOKEN, token_type: 'Bearer', expires_in: 86399 });
				return;
			}
			log.push({
				method: req.method ?? '',
				path: url.pathname,
				query: url.search,
				body,
				auth: req.headers.authorization,
				contentType: req.headers['content-type'],
			});
			if (req.headers.authorization !== `Bearer ${TOKEN}`) {
				fail(res, 401, 'Invalid access token');
				return;
			}
			void handler(req, body, res, url);
		});
	});
	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	for (const s of sockets) s.destroy();
	await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
	log = [];
	tokenCache.reset();
	tokenCache.configure({ clock: { now: () => Date.now(), sleep: async () => {} } });
});

async function client(opts: IDataObject = {}) {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(baseUrl)), new PayOnUsApi());
	// A generous timeout: a loaded machine must not turn a slow answer into a
	// timeout. Tests about timeouts set their own short one.
	return await createClient(n8n.context() as never, { sleep: async () => {}, timeoutMs: 30_000, ...opts });
}
const calls = (path: string) => log.filter((l) => l.path === path);

describe('envelope and defaults', () => {
	it('returns the envelope data, sends the bearer token and exposes the credential defaults', async () => {
		handler = (_req, _b, res) => ok(res, [{ id: 'w1', currency: 'NGN' }]);
		const c = await client();
		const data = await c.request({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' });
		expect(data).toEqual([{ id: 'w1', currency: 'NGN' }]);
		expect(log[0].auth).toBe(`Bearer ${TOKEN}`);
		expect(c.defaults).toEqual({ merchantId: 'MER-1001', businessId: 'BUS-2001' });
		expect(c.environment).toBe('custom');
	});

	it('sends JSON bodies and drops empty query values', async () => {
		handler = (_req, body, res) => ok(res, { echo: JSON.parse(body) });
		const c = await client();
		const data = await c.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/transfer-requests/name-enquiry',
			qs: { a: 'x', b: '', c: undefined },
			body: { accountNumber: '0123456789' },
		});
		expect(data.echo).toEqual({ accountNumber: '0123456789' });
		expect(log[0].query).toBe('?a=x');
		expect(log[0].contentType).toMatch(/application\/json/);
	});

	it('sends multipart bodies for bulk transfers', async () => {
		handler = (_req, body, res) => ok(res, { size: body.length, body });
		const c = await client();
		const data = await c.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/transfer-requests/bulk/bank-transfer',
			form: {
				fields: { reference: 'BULK-1', businessId: 'BUS-2001' },
				files: [{ field: 'file', filename: 'b.csv', contentType: 'text/csv', data: Buffer.from('a,b\n1,2\n') }],
			},
		});
		expect(log[0].contentType).toMatch(/^multipart\/form-data; boundary=/);
		const boundary = String(log[0].contentType).split('boundary=')[1];
		expect(String(data.body)).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="reference"\r\n\r\nBULK-1\r\n`);
		expect(String(data.body)).toContain('filename="b.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n');
		expect(String(data.body).endsWith(`--${boundary}--\r\n`)).toBe(true);
	});
});

describe('errors', () => {
	it('maps a 400 to a plain message with the service words, and no secret or token anywhere', async () => {
		handler = (_req, _b, res) => fail(res, 400, 'Validation failed', [{ field: 'amount', message: 'must be at least 1' }]);
		const c = await client();
		const error = (await c.request({ method: 'POST', path: '/api/v1/card-payments/with-token', body: { amount: 0 } }).catch(
			(e: Error) => e,
		)) as Error & { description?: string; httpCode?: string };
		// The title says what happened, without the service path (kept under details for support).
		expect(error.message).toBe('PayOnUs refused the payment: Amount "0" is invalid');
		expect(error.message).not.toContain('/api/');
		expect(error.description).toContain('PayOnUs said: Validation failed; amount: must be at least 1');
		expect((error as unknown as { context: IDataObject }).context.request).toBe('POST /api/v1/card-payments/with-token');
		expect(error.httpCode).toBe('400');
		const everything = JSON.stringify(error) + String(error.stack) + JSON.stringify((error as { cause?: unknown }).cause ?? null);
		expect(everything).not.toContain(TOKEN);
		expect(everything).not.toContain('sandbox-secret-1');
		expect(everything).not.toContain('whk-test-key');
	});

	it('masks card-like numbers the service echoes back', async () => {
		handler = (_req, _b, res) => fail(res, 422, 'Card 4111 1111 1111 1111 expired');
		const c = await client();
		const error = (await c.request({ method: 'GET', path: '/api/v1/x' }).catch((e: Error) => e)) as Error & {
			description?: string;
			context: IDataObject;
		};
		// The service's words are kept (description, and under details for support), masked.
		expect(error.description).toContain('****1111');
		expect(error.context.serviceMessage).toContain('****1111');
		expect(JSON.stringify(error) + error.description + JSON.stringify(error.context)).not.toContain('4111 1111 1111 1111');
	});

	it('retries a read on a 503 and then succeeds', async () => {
		let n = 0;
		handler = (_req, _b, res) => (++n < 3 ? fail(res, 503, 'busy') : ok(res, { n }));
		const c = await client();
		expect(await c.request({ method: 'GET', path: '/api/v1/banks' })).toEqual({ n: 3 });
	});

	it('does not retry a non-money-moving POST on a 500', async () => {
		handler = (_req, _b, res) => fail(res, 500, 'boom');
		const c = await client();
		await expect(c.request({ method: 'POST', path: '/api/v1/card-tokenization-links', body: {} })).rejects.toThrow(
			'PayOnUs failed to process the card tokenization link (server error 500)',
		);
		expect(calls('/api/v1/card-tokenization-links')).toHaveLength(1);
	});

	it('names a timeout plainly', async () => {
		handler = () => undefined; // never answers
		const c = await client({ readRetries: 0, timeoutMs: 400 });
		await expect(c.request({ method: 'GET', path: '/api/v1/slow' })).rejects.toThrow(
			'PayOnUs did not answer within 0 s',
		);
	});
});

function pagedServer(total: number, style: 'zeroBased' | 'fromOne') {
	const records = Array.from({ length: total }, (_, i) => ({ id: i }));
	handler = (_req, _b, res, url) => {
		const q = url.searchParams;
		if (style === 'zeroBased') {
			const page = Number(q.get('page'));
			const size = Number(q.get('size'));
			ok(res, {
				pageNo: page,
				pageSize: size,
				lastPage: Math.max(0, Math.ceil(total / size) - 1),
				totalNumberOfItems: total,
				content: records.slice(page * size, page * size + size),
			});
		} else {
			const pageNo = Number(q.get('pageNo'));
			const pageSize = Number(q.get('pageSize'));
			ok(res, {
				pageNo,
				pageSize,
				lastPage: Math.max(1, Math.ceil(total / pageSize)),
				totalNumberOfItems: total,
				content: records.slice((pageNo - 1) * pageSize, pageNo * pageSize),
			});
		}
	};
	return records;
}

describe('pagination', () => {
	it('zero-based: walks page/size from 0 and returns all 10,050 records in order', async () => {
		const records = pagedServer(10_050, 'zeroBased');
		const c = await client();
		const out = await c.paginate({ path: '/api/v1/payment-requests', qs: { status: 'SUCCESSFUL' }, style: 'zeroBased', returnAll: true });
		expect(out).toEqual(records);
		const pages = calls('/api/v1/payment-requests');
		expect(pages).toHaveLength(101);
		expect(pages[0].query).toBe('?status=SUCCESSFUL&page=0&size=100');
		expect(pages[100].query).toBe('?status=SUCCESSFUL&page=100&size=100');
	});

	it('from one: walks pageNo/pageSize from 1 and stops at lastPage (no extra empty page)', async () => {
		const records = pagedServer(200, 'fromOne');
		const c = await client();
		const out = await c.paginate({ path: '/api/v1/card-tokens', style: 'fromOne', returnAll: true, pageSize: 50 });
		expect(out).toEqual(records);
		const pages = calls('/api/v1/card-tokens');
		expect(pages.map((p) => p.query)).toEqual([
			'?pageNo=1&pageSize=50',
			'?pageNo=2&pageSize=50',
			'?pageNo=3&pageSize=50',
			'?pageNo=4&pageSize=50',
		]);
	});

	it('stops at the limit, asking only for what it needs', async () => {
		pagedServer(1000, 'fromOne');
		const c = await client();
		const out = await c.paginate({ path: '/api/v1/card-tokenization-links', style: 'fromOne', returnAll: false, limit: 7 });
		expect(out).toHaveLength(7);
		expect(calls('/api/v1/card-tokenization-links').map((p) => p.query)).toEqual(['?pageNo=1&pageSize=7']);
	});

	it('stops on an empty first page', async () => {
		pagedServer(0, 'zeroBased');
		const c = await client();
		expect(await c.paginate({ path: '/api/v1/payment-requests', style: 'zeroBased', returnAll: true })).toEqual([]);
		expect(calls('/api/v1/payment-requests')).toHaveLength(1);
	});
});

describe('money-moving calls', () => {
	const record = { onusReference: 'ONUS-TRNF-1', merchantReference: 'REF-1', paymentStatus: 'PENDING' };

	function transferServer(behaviour: (attempt: number, res: ServerResponse) => boolean) {
		let attempts = 0;
		let stored: IDataObject | undefined;
		handler = (req, _b, res, url) => {
			if (url.pathname === '/api/v1/transfer-requests' && req.method === 'GET') {
				ok(res, { pageNo: 1, pageSize: 30, lastPage: 1, totalNumberOfItems: stored ? 1 : 0, content: stored ? [stored] : [] });
				return;
			}
			attempts++;
			if (stored) {
				fail(res, 409, 'Duplicate reference: REF-1 is already used for this business');
				return;
			}
			const handled = behaviour(attempts, res);
			if (handled) return;
			stored = record;
			ok(res, record);
		};
		return { attempts: () => attempts, store: (r: IDataObject) => (stored = r) };
	}

	async function transfer(c: Awaited<ReturnType<typeof client>>, onDuplicate?: 'error' | 'returnExisting') {
		return await c.request<IDataObject>({
			method: 'POST',
			path: '/api/v1/transfer-requests/bank-transfer',
			body: { reference: 'REF-1', amount: 100 },
			...moneyMovingParts({
				reference: 'REF-1',
				proof: bankTransfer.proof,
				onDuplicate,
				lookup: async () => {
					const page = await c.request<IDataObject>({
						method: 'GET',
						path: '/api/v1/transfer-requests',
						qs: { merchantId: 'MER-1001', merchantReference: 'REF-1' },
					});
					return (page.content as IDataObject[])[0];
				},
			}),
		});
	}

	it('a 5xx after processing: finds the record by reference and returns it flagged, without resending', async () => {
		const srv = transferServer((attempt, res) => {
			if (attempt === 1) {
				srv.store(record); // processed, then the answer is an error
				fail(res, 502, 'bad gateway');
				return true;
			}
			return false;
		});
		const c = await client();
		const out = await transfer(c);
		expect(out).toEqual({ ...record, recoveredByLookup: true });
		expect(srv.attempts()).toBe(1);
	});

	it('a dropped connection before processing: lookup finds nothing, resends once, succeeds', async () => {
		const srv = transferServer((attempt, res) => {
			if (attempt === 1) {
				res.socket?.destroy();
				return true;
			}
			return false;
		});
		const c = await client();
		const out = await transfer(c);
		expect(out).toEqual(record);
		expect(srv.attempts()).toBe(2);
		expect(calls('/api/v1/transfer-requests')).toHaveLength(1);
	});

	it('a timeout whose first attempt lands late: the resend gets 409 and returns our own record as recovered', async () => {
		const srv = transferServer((attempt) => attempt === 1); // the first attempt never answers: timeout
		// The injected clock: the first attempt lands during the backoff wait,
		// i.e. after the lookup looked (and found nothing), before the resend.
		const waits: number[] = [];
		const landLate = async (ms: number) => {
			waits.push(ms);
			if (srv.attempts() === 1 && calls('/api/v1/transfer-requests').length === 1) srv.store(record);
		};
		const c = await client({ backoffMs: 400, sleep: landLate, timeoutMs: 400 });
		const out = await transfer(c);
		expect(out).toEqual({ ...record, recoveredByLookup: true });
		expect(srv.attempts()).toBe(2);
		expect(waits).toEqual([400]); // one backoff (backoffMs x 2^0) before the resend
	});

	it('gives up after three resends when nothing lands, saying nothing was created', async () => {
		const srv = transferServer((_a, res) => {
			fail(res, 500, 'down');
			return true;
		});
		const c = await client();
		const error = (await transfer(c).catch((e: Error) => e)) as Error & { description?: string };
		expect(error.message).toBe('PayOnUs failed to process the transfer (server error 500)');
		expect(error.description).toContain('Nothing was created for reference "REF-1"');
		expect(error.description).toContain('sent 4 time(s)');
		expect(srv.attempts()).toBe(4);
	});

	it('never resends when the lookup itself keeps failing: outcome unknown', async () => {
		let attempts = 0;
		handler = (req, _b, res, url) => {
			if (url.pathname === '/api/v1/transfer-requests') return fail(res, 404, 'no');
			attempts++;
			fail(res, 504, 'gateway timeout');
		};
		const c = await client();
		const error = (await transfer(c).catch((e: Error) => e)) as Error & { description?: string };
		expect(error.description).toContain('The outcome is UNKNOWN');
		expect(attempts).toBe(1);
	});

	it('a 409 is reported as a duplicate reference carrying the existing record', async () => {
		const srv = transferServer(() => false);
		srv.store({ ...record, onusReference: 'ONUS-TRNF-OLD' });
		const c = await client();
		const error = (await transfer(c).catch((e: Error) => e)) as Error & {
			description?: string;
			context?: IDataObject;
		};
		expect(error.message).toMatch(/^Already done: reference "REF-1" is transaction ONUS-TRNF-OLD \(/);
		expect(error.description).toContain('This reference was used before by this same transaction');
		expect(error.description).toContain('nothing was sent again');
		expect((error.context?.existingRecord as IDataObject).onusReference).toBe('ONUS-TRNF-OLD');
		// the record matches this request: machine-readable "already done", for routing on it
		expect(error.context?.outcome).toBe('alreadyDone');
		expect(srv.attempts()).toBe(1);
	});

	it('a 409 can return the existing record instead when asked', async () => {
		const srv = transferServer(() => false);
		srv.store({ ...record, onusReference: 'ONUS-TRNF-OLD' });
		const c = await client();
		const out = await transfer(c, 'returnExisting');
		expect(out).toEqual({ ...record, onusReference: 'ONUS-TRNF-OLD', duplicateReference: true });
	});
});
