/**
 * Issue 14, point 7: no request of this package follows a redirect, and no
 * credential is forwarded to another origin. Through n8n-core's real request
 * helpers (dev/inProcessN8n.ts) against two local servers.
 */
import type { IDataObject } from 'n8n-workflow';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PayOnUsApi } from '../../../credentials/PayOnUsApi.credentials';
import { createClient } from '../../../nodes/shared/transport';
import { moneyMovingParts } from '../../../nodes/shared/moneyMoving';
import { bankTransfer } from '../../../nodes/PayOnUs/resources/payout/createTransfer';
import { tokenCache } from '../../../nodes/shared/accessToken/cache';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../dev/inProcessN8n';

const TOKEN = 'redirect-test-token';
let service: Server;
let elsewhere: Server;
let serviceUrl = '';
let elsewhereUrl = '';
let redirectTokenCall = false;
const seenElsewhere: Array<{ method?: string; path?: string; auth?: string; body: string }> = [];

function listen(server: Server): Promise<string> {
	return new Promise((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
	elsewhere = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			seenElsewhere.push({ method: req.method, path: req.url, auth: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ status: 200, message: 'ok', data: { access_token: 'stolen', expires_in: 86399, hijacked: true } }));
		});
	});
	elsewhereUrl = await listen(elsewhere);
	service = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			if (req.url?.startsWith('/api/v1/access-token') && !redirectTokenCall) {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ status: 200, data: { access_token: TOKEN, token_type: 'Bearer', expires_in: 86399 } }));
				return;
			}
			res.writeHead(req.method === 'GET' ? 302 : 307, { location: `${elsewhereUrl}${req.url}` });
			res.end();
		});
	});
	serviceUrl = await listen(service);
});
afterAll(async () => {
	await new Promise<void>((r) => service.close(() => r()));
	await new Promise<void>((r) => elsewhere.close(() => r()));
});
beforeEach(() => {
	seenElsewhere.length = 0;
	redirectTokenCall = false;
	tokenCache.reset();
	tokenCache.configure({ clock: { now: () => Date.now(), sleep: async () => {} } });
});

async function client() {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(serviceUrl)), new PayOnUsApi());
	return await createClient(n8n.context() as never, { sleep: async () => {}, timeoutMs: 2000, readRetries: 0 });
}

describe('redirects', () => {
	it('a read answered with a redirect to another origin fails, naming the redirect; nothing reaches the other origin', async () => {
		const c = await client();
		const error = (await c.request({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' }).catch((e: Error) => e)) as Error;
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toContain('answered with a redirect, which is not followed');
		expect((error as unknown as { context: IDataObject }).context.request).toBe('GET /api/v1/merchants/MER-1001/wallets');
		expect(seenElsewhere).toEqual([]);
	});

	it('a money-moving POST answered 307 is not resent to the other origin (no body, no token there)', async () => {
		const c = await client();
		await c
			.request({
				method: 'POST',
				path: '/api/v1/transfer-requests/bank-transfer',
				body: { amount: 10, reference: 'r-1' },
				...moneyMovingParts({ reference: 'r-1', proof: bankTransfer.proof, lookup: async () => undefined }),
			})
			.catch((e: Error) => e);
		expect(seenElsewhere).toEqual([]);
	});

	it('the token call (which carries the Client Secret) does not follow a redirect either', async () => {
		redirectTokenCall = true;
		const c = await client();
		await c.request({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' }).catch((e: Error) => e);
		expect(seenElsewhere).toEqual([]);
	});
});
