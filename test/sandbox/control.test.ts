import { request } from 'undici';
import { Client, sandboxPerFile, customer, paidDynamic, ref } from './helpers';

const { c, sb } = sandboxPerFile({ login: true });

const wallets = () => c.get('/api/v1/merchants/MER-1001/wallets');

describe('faults', () => {
	test('error status before processing: nothing changes', async () => {
		await c.control('POST', '/faults', { method: 'POST', path: '/api/v1/virtual-accounts/dynamic', status: 503, times: 1 });
		const reference = ref();
		const body = { amount: 100, reference, businessId: 'BUS-2001', customer };
		const r = await c.post('/api/v1/virtual-accounts/dynamic', body);
		expect(r.status).toBe(503);
		expect(r.body).toMatchObject({ status: 503, data: { statusCode: 503 } });
		expect((await c.get(`/api/v1/payment-requests?businessId=BUS-2001&reference=${reference}`)).body.data.totalNumberOfItems).toBe(0);
		expect((await c.post('/api/v1/virtual-accounts/dynamic', body)).status).toBe(200);
	});

	test('dropAfterProcessing: the state changes, the socket closes without a response', async () => {
		await c.control('POST', '/faults', { path: '/transfer-requests/bank-transfer', dropAfterProcessing: true, times: 1 });
		const reference = ref();
		const body = { amount: 10, beneficiaryAccountNumber: '9999991111', beneficiaryAccountName: 'X', beneficiaryBankCode: '044', transferType: 'WALLET_TO_BANK_ACCOUNT', countryCode: 'NG', currency: 'NGN', reference, businessId: 'BUS-2001' };
		await expect(
			request(`${sb().url}/api/v1/transfer-requests/bank-transfer`, {
				method: 'POST',
				headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
				body: JSON.stringify(body),
			}),
		).rejects.toThrow();
		const found = await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&businessId=BUS-2001&merchantReference=${reference}`);
		expect(found.body.data.content).toHaveLength(1);
		expect((await c.post('/api/v1/transfer-requests/bank-transfer', body)).status).toBe(409);
		const log = (await c.control('GET', '/requests?path=/api/v1/transfer-requests/bank-transfer')).body.data;
		expect(log[0].fault).toMatch(/^drop-after#/);
	});

	test('every Nth is deterministic; times limits; * patterns; list and clear', async () => {
		await c.control('POST', '/faults', { method: 'GET', path: '/api/v1/merchants/*/wallets', status: 500, every: 3, times: 2 });
		const statuses = [];
		for (let i = 0; i < 9; i++) statuses.push((await wallets()).status);
		expect(statuses).toEqual([200, 200, 500, 200, 200, 500, 200, 200, 200]);
		const list = (await c.control('GET', '/faults')).body.data;
		expect(list[0]).toMatchObject({ path: '/api/v1/merchants/*/wallets', matched: 6, fired: 2 });
		await c.control('DELETE', '/faults');
		expect((await c.control('GET', '/faults')).body.data).toEqual([]);
	});

	test('rate with a seed repeats the same pattern', async () => {
		const run = async () => {
			await c.control('DELETE', '/faults');
			await c.control('POST', '/faults', { path: '/api/v1/merchants', status: 502, rate: 0.5, seed: 42 });
			const s = [];
			for (let i = 0; i < 12; i++) s.push((await wallets()).status);
			return s;
		};
		const first = await run();
		expect(first).toContain(502);
		expect(first).toContain(200);
		expect(await run()).toEqual(first);
	});

	test('latency', async () => {
		await c.control('POST', '/faults', { path: '/api/v1/merchants', latencyMs: 120, times: 1 });
		const t0 = Date.now();
		expect((await wallets()).status).toBe(200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
	});

	test('invalid faults are refused', async () => {
		expect((await c.control('POST', '/faults', { path: '/x' })).status).toBe(400);
		expect((await c.control('POST', '/faults', { status: 500 })).status).toBe(400);
		expect((await c.control('POST', '/faults', { path: '/x', status: 200 })).status).toBe(400);
		expect((await c.control('POST', '/faults', { path: '/x', status: 500, rate: 2 })).status).toBe(400);
	});
});

describe('control API', () => {
	test('reset restores the seed and clears logs', async () => {
		await c.post('/api/v1/transfer-requests/bank-transfer', { amount: 10, beneficiaryAccountNumber: '9999991111', beneficiaryAccountName: 'X', beneficiaryBankCode: '044', transferType: 'WALLET_TO_BANK_ACCOUNT', countryCode: 'NG', currency: 'NGN', reference: ref(), businessId: 'BUS-2001' });
		await c.control('POST', '/clock/advance', { seconds: 10 });
		await c.control('POST', '/reset');
		const ledger = (await c.control('GET', '/ledger')).body.data;
		expect(ledger.transfers).toEqual([]);
		expect(ledger.entries).toEqual([]);
		expect(ledger.wallets.every((w: any) => w.availableBalance === 10000000)).toBe(true);
		expect((await c.control('GET', '/requests')).body.data).toEqual([]);
		expect((await c.control('GET', '/clock')).body.data.offsetSeconds).toBe(0);
		c.token = undefined;
		expect((await wallets()).status).toBe(200);
	});

	test('reset with a custom seed', async () => {
		const seed = {
			merchants: [{ id: 'M1', name: 'M' }],
			businesses: [{ id: 'B1', merchantId: 'M1', name: 'B', wallets: [{ currency: 'GHS', openingBalance: 5 }] }],
			clients: [{ clientId: 'id', clientSecret: 'secret', merchantId: 'M1' }],
		};
		await c.control('POST', '/reset', { seed });
		const other = new Client(sb().url, 'id', 'secret');
		const r = await other.get('/api/v1/merchants/M1/wallets');
		expect(r.body.data).toEqual([expect.objectContaining({ currency: 'GHS', availableBalance: 5, entityId: 'B1' })]);
		await c.control('POST', '/reset', { seed: (await import('../../sandbox/seed.json')).default });
	});

	test('ledger lists every record kind', async () => {
		const d = await paidDynamic(c, 100);
		const l = (await c.control('GET', '/ledger')).body.data;
		expect(Object.keys(l)).toEqual(expect.arrayContaining(['wallets', 'entries', 'payins', 'transfers', 'links', 'tokens', 'refunds', 'fixedAccounts', 'clock']));
		expect(l.payins.map((p: any) => p.onusReference)).toContain(d.onusReference);
		expect(JSON.stringify(l)).not.toMatch(/"_seq"/);
	});

	test('request log: method, path, query, status; DELETE clears; secrets redacted', async () => {
		await c.get('/api/v1/payment-requests?status=SUCCESSFUL&page=0');
		const log = (await c.control('GET', '/requests')).body.data;
		const tokenEntry = log.find((e: any) => e.path === '/api/v1/access-token');
		expect(tokenEntry.body).toEqual({ apiClientId: 'sandbox-client-1', apiClientSecret: '[REDACTED]' });
		const e = log.find((x: any) => x.path === '/api/v1/payment-requests');
		expect(e).toMatchObject({ method: 'GET', query: { status: 'SUCCESSFUL', page: '0' }, status: 200, clientId: 'sandbox-client-1' });
		expect(e.headers.authorization).toBeUndefined();
		await c.control('DELETE', '/requests');
		expect((await c.control('GET', '/requests')).body.data).toEqual([]);
	});

	test('clock: get, advance, set; bad input 400', async () => {
		const before = (await c.control('GET', '/clock')).body.data;
		const after = (await c.control('POST', '/clock/advance', { seconds: 3600 })).body.data;
		expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3600_000);
		expect(after.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		expect((await c.control('POST', '/clock/advance', { seconds: -1 })).status).toBe(400);
		expect((await c.control('POST', '/clock/set', { at: 'x' })).status).toBe(400);
	});

	test('config get/put; unknown payin or transfer 404; non-waiting payin 409', async () => {
		expect((await c.control('PUT', '/config', { transferDelayMs: 5 })).body.data.transferDelayMs).toBe(5);
		expect((await c.control('PUT', '/config', { settlement: 'weekly' })).status).toBe(400);
		expect((await c.control('POST', '/payins/nope/approve')).status).toBe(404);
		expect((await c.control('POST', '/transfers/nope/settle')).status).toBe(404);
		expect((await c.control('POST', '/tokens/nope/expire')).status).toBe(404);
		expect((await c.control('POST', '/links/nope/submit', {})).status).toBe(404);
		const d = await paidDynamic(c, 100);
		expect((await c.control('POST', `/payins/${d.onusReference}/approve`)).status).toBe(409);
	});

	test('the hosted index and an unknown control path', async () => {
		expect((await c.raw('GET', '/')).status).toBe(200);
		expect((await c.control('GET', '/nope')).status).toBe(404);
	});
});
