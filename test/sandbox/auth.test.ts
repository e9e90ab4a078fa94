import { Client, sandboxPerFile } from './helpers';

const { c, sb } = sandboxPerFile();

const tokenCall = (cl: Client, secret = cl.clientSecret) =>
	cl.raw('POST', '/api/v1/access-token', { body: { apiClientId: cl.clientId, apiClientSecret: secret } });

describe('access token', () => {
	test('missing fields give 400 naming them', async () => {
		const r = await c.raw('POST', '/api/v1/access-token', { body: { apiClientId: 'sandbox-client-1' } });
		expect(r.status).toBe(400);
		expect(r.body.data.errors).toEqual(['apiClientSecret: is required']);
	});

	test('wrong secret and unknown client give 401', async () => {
		expect((await tokenCall(c, 'nope')).status).toBe(401);
		expect((await c.raw('POST', '/api/v1/access-token', { body: { apiClientId: 'who', apiClientSecret: 'x' } })).status).toBe(401);
	});

	test('a new token retires the previous one at once', async () => {
		const first = (await tokenCall(c)).body.data.access_token;
		const second = (await tokenCall(c)).body.data.access_token;
		expect(first).not.toBe(second);
		const old = await c.raw('GET', '/api/v1/merchants/MER-1001/wallets', { headers: { authorization: `Bearer ${first}` } });
		expect(old.status).toBe(401);
		const fresh = await c.raw('GET', '/api/v1/merchants/MER-1001/wallets', { headers: { authorization: `Bearer ${second}` } });
		expect(fresh.status).toBe(200);
	});

	test('clients have separate token slots', async () => {
		const c2 = new Client(sb().url, 'sandbox-client-2', 'sandbox-secret-2');
		const t1 = (await tokenCall(c)).body.data.access_token;
		await tokenCall(c2);
		const r = await c.raw('GET', '/api/v1/merchants/MER-1001/wallets', { headers: { authorization: `Bearer ${t1}` } });
		expect(r.status).toBe(200);
	});

	test('the 4th token call in a rolling minute answers 429; the window moves with the clock', async () => {
		for (let i = 0; i < 3; i++) expect((await tokenCall(c)).status).toBe(200);
		const limited = await tokenCall(c);
		expect(limited.status).toBe(429);
		expect(limited.body.data.statusCode).toBe(429);
		// another client is not limited
		expect((await tokenCall(new Client(sb().url, 'sandbox-client-2', 'sandbox-secret-2'))).status).toBe(200);
		await c.control('POST', '/clock/advance', { seconds: 61 });
		expect((await tokenCall(c)).status).toBe(200);
		const stats = await c.control('GET', '/stats');
		expect(stats.body.data.clients['sandbox-client-1']).toMatchObject({ tokenCalls: 5, tokensIssued: 4, rateLimited: 1 });
	});

	test('tokens expire after 86399 s of sandbox time', async () => {
		await c.login();
		await c.control('POST', '/clock/advance', { seconds: 86398 });
		expect((await c.get('/api/v1/merchants/MER-1001/wallets')).status).toBe(200);
		await c.control('POST', '/clock/advance', { seconds: 2 });
		const r = await c.get('/api/v1/merchants/MER-1001/wallets');
		expect(r.status).toBe(401);
		expect(r.body.message).toMatch(/expired/i);
	});

	test('control API expires a client token; stats count the 401s', async () => {
		await c.login();
		const e = await c.control('POST', '/access-tokens/sandbox-client-1/expire');
		expect(e.body.data.expired).toBe(true);
		expect((await c.get('/api/v1/merchants/MER-1001/wallets')).status).toBe(401);
		const stats = await c.control('GET', '/stats');
		expect(stats.body.data.clients['sandbox-client-1'].unauthorized).toBe(1);
	});

	test('control API refuses every token of a client, or the next one only: the token call still answers, each use answers 401', async () => {
		const wallets = async (token: string) =>
			(await c.raw('GET', '/api/v1/merchants/MER-1001/wallets', { headers: { authorization: `Bearer ${token}` } })).status;
		const set = await c.control('PUT', '/access-tokens/sandbox-client-1/refusal', { refuse: 'every' });
		expect(set.body.data).toEqual({ clientId: 'sandbox-client-1', refuse: 'every' });
		for (let i = 0; i < 2; i++) {
			const t = await tokenCall(c);
			expect(t.status).toBe(200);
			expect(await wallets(t.body.data.access_token)).toBe(401);
		}
		// Another client is not touched.
		const c2 = new Client(sb().url, 'sandbox-client-2', 'sandbox-secret-2');
		expect(await wallets(await c2.login())).toBe(200);
		await c.control('PUT', '/access-tokens/sandbox-client-1/refusal', { refuse: 'next' });
		expect(await wallets((await tokenCall(c)).body.data.access_token)).toBe(401);
		await c.control('POST', '/clock/advance', { seconds: 61 });
		expect(await wallets((await tokenCall(c)).body.data.access_token)).toBe(200);
		await c.control('PUT', '/access-tokens/sandbox-client-1/refusal', { refuse: 'every' });
		await c.control('PUT', '/access-tokens/sandbox-client-1/refusal', { refuse: 'none' });
		expect(await wallets((await tokenCall(c)).body.data.access_token)).toBe(200);
		const stats = await c.control('GET', '/stats');
		expect(stats.body.data.clients['sandbox-client-1']).toMatchObject({ tokensIssued: 5, unauthorized: 3 });
		expect((await c.control('PUT', '/access-tokens/nobody/refusal', { refuse: 'every' })).status).toBe(404);
		expect((await c.control('PUT', '/access-tokens/sandbox-client-1/refusal', { refuse: 'some' })).status).toBe(400);
	});

	test('bad Authorization headers answer 401', async () => {
		for (const h of ['Basic abc', 'Bearer', 'Bearer not-a-token']) {
			const r = await c.raw('GET', '/api/v1/merchants/MER-1001/wallets', { headers: { authorization: h } });
			expect(r.status).toBe(401);
		}
		expect((await c.raw('GET', '/api/v1/banks?key=NGN')).status).toBe(401);
	});

	test('another merchant: 403 on its merchant and businesses, 404 on unknown ones', async () => {
		expect((await c.get('/api/v1/merchants/MER-9001/wallets')).status).toBe(403);
		expect((await c.get('/api/v1/merchants/MER-0000/wallets')).status).toBe(404);
		expect((await c.get('/api/v1/payment-requests/businesses/BUS-9001?onusReference=x')).status).toBe(403);
		expect((await c.get('/api/v1/payment-requests/businesses/BUS-0000?onusReference=x')).status).toBe(404);
	});

	test('405 for a known path with another method', async () => {
		const r = await c.api('DELETE', '/api/v1/payment-requests');
		expect(r.status).toBe(405);
	});

	test('malformed JSON gives 400', async () => {
		await c.login();
		const r = await c.raw('POST', '/api/v1/virtual-accounts/dynamic', {
			rawBody: '{nope',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${c.token}` },
		});
		expect(r.status).toBe(400);
		expect(r.body.data.errors).toEqual(['body: is not valid JSON']);
	});
});
