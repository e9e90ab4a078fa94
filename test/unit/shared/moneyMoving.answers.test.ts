/**
 * Rules 1 and 2 of docs/reliability.md (issue 29), through the real
 * transport (n8n-core's request helpers, dev/inProcessN8n.ts) against a
 * scripted server that answers in the shapes the spec leaves open.
 *
 * Rule 1, "a success is proven, never inferred" (nodes/shared/moneyMoving/
 * proof.ts, applied in send.ts): an answer that does not prove the
 * movement (empty, no service reference, a reference of another kind, not
 * JSON...) is looked up by reference; never a success by itself.
 * Rule 2, "an error the service states is an error" (nodes/shared/transport/
 * envelope.ts, statedError): whatever the HTTP status and whatever else
 * the body holds or lacks; the service's words reach the error.
 * Both fail on the code before issue 29 (a 200 that states an error in a
 * shape without a numeric status, or proves nothing, was a success).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { PayOnUsApi } from '../../../credentials/PayOnUsApi.credentials';
import { createClient } from '../../../nodes/shared/transport';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { moneyMoving, moneyMovingParts, PAYMENT_REQUESTS, transfersOf } from '../../../nodes/shared/moneyMoving';
import { bankTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';
import { cardCharge } from '../../../nodes/PayOnUs/resources/payin/chargeCard';
import { statedError } from '../../../nodes/shared/transport/envelope';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../dev/inProcessN8n';
import { MONEY_OPS, UNDRILLED } from '../../../dev/moneyDrill';

const TOKEN = 'stub-token-answers';
const TRANSFER_PATH = '/api/v1/transfer-requests/bank-transfer';
const CARD_PATH = '/api/v1/card-payments';

let server: Server;
let baseUrl: string;
const sockets = new Set<Socket>();
/** What the money-moving POST (or the read) answers: HTTP status and raw body text. */
let answer: { status: number; body: string };
/** Records the lookup lists (transfers, payment requests). */
let listed: IDataObject[];
let log: Array<{ method: string; path: string }> = [];

function send(res: ServerResponse, status: number, body: string) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(body);
}

beforeAll(async () => {
	server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://x');
			if (url.pathname === '/api/v1/access-token') {
				send(res, 200, JSON.stringify({ status: 200, data: { access_token: TOKEN, token_type: 'Bearer', expires_in: 86399 } }));
				return;
			}
			log.push({ method: req.method ?? '', path: url.pathname });
			if (req.method === 'GET' && (url.pathname === '/api/v1/transfer-requests' || url.pathname === '/api/v1/payment-requests')) {
				const paging = url.pathname === '/api/v1/payment-requests'
					? { content: listed, page: 0, size: 100, totalElements: listed.length, totalPages: 1 }
					: { content: listed, pageNo: 1, pageSize: 100, totalNumberOfItems: listed.length, lastPage: 1 };
				send(res, 200, JSON.stringify({ status: 200, message: 'Successful', data: paging }));
				return;
			}
			send(res, answer.status, answer.body);
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
	listed = [];
	tokenCache.reset();
	tokenCache.configure({ clock: { now: () => Date.now(), sleep: async () => {} } });
});

async function client() {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(baseUrl)), new PayOnUsApi());
	return await createClient(n8n.context() as never, { sleep: async () => {}, timeoutMs: 30_000 });
}

const TRANSFER = { amount: 1500, currency: 'NGN', beneficiaryAccount: '0123456789' };
const transferRecord = (over: IDataObject = {}): IDataObject => ({
	onusReference: 'ONUS-TRNF-1700000000001-27112026-120000',
	merchantReference: 'pay-1',
	amount: 1500,
	fee: 10.75,
	currency: 'NGN',
	beneficiaryAccountNumber: '0123456789',
	paymentStatus: 'PENDING',
	...over,
});

async function createTransfer(): Promise<IDataObject> {
	const c = await client();
	return await c.request<IDataObject>({
		method: 'POST',
		path: TRANSFER_PATH,
		body: { reference: 'pay-1', businessId: 'BUS-2001', amount: 1500, currency: 'NGN', beneficiaryAccountNumber: '0123456789' },
		...moneyMovingParts({ ...moneyMoving(c, transfersOf('MER-1001'), 'BUS-2001', 'pay-1', TRANSFER, 'transfer'), proof: bankTransfer.proof }),
	});
}

const envelope = (data: unknown) => JSON.stringify({ status: 200, message: 'Successful', data });
const posts = () => log.filter((l) => l.method === 'POST').length;
const lookups = () => log.filter((l) => l.method === 'GET').length;

/** Answers of HTTP 200 that state no error and do not prove the transfer. */
const UNPROVEN: Array<[string, string]> = [
	['an empty success envelope (data null)', envelope(null)],
	['a success envelope with data {}', envelope({})],
	['a success envelope without data', JSON.stringify({ status: 200, message: 'Successful' })],
	['data without a service reference', envelope({ paymentStatus: 'PENDING', currency: 'NGN', amount: 1500, fee: 10.75, merchantReference: 'pay-1' })],
	['data with a service reference of another kind', envelope(transferRecord({ onusReference: 'ONUS-CARD-1700000000001-27112026-120000' }))],
	['data without the amount', envelope({ onusReference: transferRecord().onusReference, merchantReference: 'pay-1', currency: 'NGN', paymentStatus: 'PENDING' })],
	['data without the merchant reference', envelope({ ...transferRecord(), merchantReference: undefined })],
	['a bare record without an envelope, no reference', JSON.stringify({ paymentStatus: 'PENDING' })],
	['an empty body', ''],
	['a body that is not JSON', 'OK'],
];

/** Answers of HTTP 200 that state an error in a shape the spec does not show (no numeric status). */
const STATED_IN_200: Array<[string, string, string]> = [
	['status word and success false', JSON.stringify({ status: 'error', success: false, message: 'Insufficient funds in the NGN wallet', data: null }), 'Insufficient funds'],
	['an error object with a code, no data', JSON.stringify({ error: { code: 'INSUFFICIENT_FUNDS', message: 'Wallet balance too low' } }), 'Wallet balance too low'],
	['a responseCode that is not success', JSON.stringify({ responseCode: '51', responseMessage: 'Insufficient funds', data: null }), 'Insufficient funds'],
	['an errors list beside a data null', JSON.stringify({ message: 'Validation failed', errors: [{ field: 'amount', message: 'exceeds the limit' }], data: null }), 'amount: exceeds the limit'],
	['success false inside data', JSON.stringify({ status: 200, message: 'Successful', data: { success: false, message: 'Declined by provider' } }), 'Declined by provider'],
	['a bare code and message', JSON.stringify({ code: 'E500', message: 'Processing error' }), 'Processing error'],
];

describe('Rule 1: a success is proven, never inferred (moneyMoving/proof.ts, send.ts)', () => {
	it('an answer that proves the transfer is the success, with no lookup', async () => {
		answer = { status: 200, body: envelope(transferRecord()) };
		await expect(createTransfer()).resolves.toMatchObject({ onusReference: transferRecord().onusReference, amount: 1500 });
		expect(lookups()).toBe(0);
	});

	it.each(UNPROVEN)('%s: looked up; nothing found is "outcome unknown" naming the reference, never resent', async (_name, body) => {
		answer = { status: 200, body };
		const error = (await createTransfer().catch((e: unknown) => e)) as Error & { context?: IDataObject; description?: string };
		expect(error).toBeInstanceOf(Error);
		expect(error.context?.outcome).toBe('unknown');
		expect(error.message).toContain('"pay-1"');
		expect(posts()).toBe(1);
		expect(lookups()).toBeGreaterThan(0);
	});

	it.each(UNPROVEN)('%s: the lookup finds the transfer: done, with the record found', async (_name, body) => {
		answer = { status: 200, body };
		listed = [transferRecord()];
		await expect(createTransfer()).resolves.toMatchObject({ onusReference: transferRecord().onusReference, recoveredByLookup: true });
		expect(posts()).toBe(1);
	});

	it('a record found that holds the reference but does not show the amount is not a success either', async () => {
		answer = { status: 200, body: envelope(null) };
		listed = [{ ...transferRecord(), amount: undefined }];
		await expect(createTransfer()).rejects.toMatchObject({ context: expect.objectContaining({ outcome: 'unknown' }) });
	});

	it('a card charge answered with a transfer reference is not a card payment', async () => {
		answer = { status: 200, body: envelope({ authTypeRequired: null, paymentStatus: 'SUCCESSFUL', onusReference: transferRecord().onusReference, redirectUrl: null }) };
		const c = await client();
		const sent = c.request<IDataObject>({
			method: 'POST',
			path: CARD_PATH,
			body: { reference: 'card-1', businessId: 'BUS-2001', amount: 200, currency: 'NGN' },
			...moneyMovingParts({ ...moneyMoving(c, PAYMENT_REQUESTS, 'BUS-2001', 'card-1', { amount: 200, currency: 'NGN' }, 'payment'), proof: cardCharge.proof }),
		});
		await expect(sent).rejects.toMatchObject({ context: expect.objectContaining({ outcome: 'unknown' }) });
	});

	it('the drill drills every money-moving operation of the registry, at the path its declaration names, with its proof', () => {
		expect(UNDRILLED).toEqual([]);
		for (const op of MONEY_OPS) {
			expect({ op: op.name, proof: op.op.moneyCall?.proof !== undefined, path: op.path }).toEqual({ op: op.name, proof: true, path: op.op.moneyCall?.path });
		}
	});
});

describe('Rule 2: an error the service states is an error (transport/envelope.ts)', () => {
	it.each(STATED_IN_200)('a read answered 200 with %s is an error carrying the words', async (_name, body, words) => {
		answer = { status: 200, body };
		const c = await client();
		const error = (await c.request({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' }).catch((e: unknown) => e)) as Error & { description?: string };
		expect(error).toBeInstanceOf(Error);
		expect(`${error.message} ${error.description}`).toContain(words);
	});

	it.each([
		['a success with a message', JSON.stringify({ status: 200, message: 'Card token already deleted', data: null })],
		['a success responseCode', JSON.stringify({ responseCode: '00', responseMessage: 'Approved', data: { id: 'w1' } })],
		['an empty errors list', JSON.stringify({ status: 200, message: 'Successful', errors: [], data: [] })],
		['status as text 200', JSON.stringify({ status: '200', message: 'Successful', data: [] })],
	])('%s is not an error', async (_name, body) => {
		answer = { status: 200, body };
		const c = await client();
		await expect(c.request({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' })).resolves.toBeDefined();
	});

	it.each(STATED_IN_200)('a transfer answered 200 with %s: looked up, nothing found: refused with the words, sent once', async (_name, body, words) => {
		answer = { status: 200, body };
		const error = (await createTransfer().catch((e: unknown) => e)) as Error & { description?: string; context?: IDataObject };
		expect(error).toBeInstanceOf(Error);
		expect(`${error.message} ${error.description}`).toContain(words);
		expect(error.description).toContain('Nothing was made for reference "pay-1"');
		expect(error.context?.outcome).toBeUndefined();
		expect(posts()).toBe(1);
		expect(lookups()).toBeGreaterThan(0);
	});

	it('a transfer whose stated error comes with its record found is the record (looked up), the words kept', async () => {
		answer = { status: 200, body: STATED_IN_200[0][1] };
		listed = [transferRecord({ paymentStatus: 'FAILED' })];
		await expect(createTransfer()).resolves.toMatchObject({ recoveredByLookup: true, paymentStatus: 'FAILED', serviceMessage: expect.stringContaining('Insufficient funds') });
	});

	it('a documented refusal stated inside a 200 (status 400 as text) is an error without a lookup', async () => {
		answer = { status: 200, body: JSON.stringify({ status: '400', message: 'Validation failed', data: { statusCode: '400', errors: ['amount: must be at least 1'] } }) };
		const error = (await createTransfer().catch((e: unknown) => e)) as Error & { description?: string };
		expect(error.message).toBe('PayOnUs refused the transfer: Amount "1500" is invalid');
		expect(error.description).toContain('amount: must be at least 1');
		expect(lookups()).toBe(0);
	});

	it('the one reader: what states an error, and what does not', () => {
		expect(statedError({ status: 400, data: { statusCode: 400, errors: [] } })).toEqual({ status: 400 });
		expect(statedError({ status: 200, data: { statusCode: '404' } })).toEqual({ status: 404 });
		expect(statedError({ status: 'FAILED', data: null })).toEqual({});
		expect(statedError({ responseCode: '96', data: null })).toEqual({ code: '96' });
		expect(statedError({ status: 200, message: 'Successful', data: { paymentStatus: 'FAILED' } })).toBeUndefined();
		expect(statedError({ status: 'PENDING', data: {} })).toBeUndefined();
		expect(statedError({ code: '044', name: 'Bank', data: { x: 1 } })).toBeUndefined();
	});
});
