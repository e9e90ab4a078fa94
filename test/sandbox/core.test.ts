import { sandboxPerFile, customer, paidDynamic, ref } from './helpers';

const { c } = sandboxPerFile({ reset: false });

describe('envelope, routing, auth', () => {
	test('access token: both the envelope data and top-level fields', async () => {
		const r = await c.raw('POST', '/api/v1/access-token', { body: { apiClientId: 'sandbox-client-3', apiClientSecret: 'sandbox-secret-3' } });
		expect(r.status).toBe(200);
		expect(r.body.status).toBe(200);
		expect(r.body.data).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 86399 });
		expect(r.body.access_token).toBe(r.body.data.access_token);
	});

	test('unknown path 404 with the error body', async () => {
		const r = await c.get('/api/v1/nope');
		expect(r.status).toBe(404);
		expect(r.body).toEqual({ status: 404, message: expect.any(String), data: { statusCode: 404, errors: expect.any(Array) } });
	});

	test('no token 401', async () => {
		const r = await c.raw('GET', '/api/v1/merchants/MER-1001/wallets');
		expect(r.status).toBe(401);
		expect(r.body.data.statusCode).toBe(401);
	});

	test('wallets list', async () => {
		const r = await c.get('/api/v1/merchants/MER-1001/wallets');
		expect(r.status).toBe(200);
		const ngn = r.body.data.find((w: any) => w.entityId === 'BUS-2001' && w.currency === 'NGN');
		expect(ngn).toMatchObject({ status: 'ACTIVE', availableBalance: 10000000, entityType: 'BUSINESS', payoutAllowed: true, active: true, maxSinglePayout: 20000000 });
	});

	test('dynamic account + fund', async () => {
		const d = await paidDynamic(c, 5000);
		expect(d.onusReference).toMatch(/^ONUS-NUB-\d{13}-\d{8}-\d{6}$/);
		expect(d.record.paymentStatus).toBe('SUCCESSFUL');
		const q = await c.get(`/api/v1/payment-requests/businesses/BUS-2001?onusReference=${d.onusReference}`);
		expect(q.body.data).toMatchObject({ paymentStatus: 'SUCCESSFUL', amountPaid: 5000, merchantReference: d.reference });
		const list = await c.get(`/api/v1/payment-requests?businessId=BUS-2001&reference=${d.reference}`);
		expect(list.body.data.content).toHaveLength(1);
		const ledger = await c.control('GET', '/ledger');
		expect(ledger.body.data.entries.at(-1)).toMatchObject({ type: 'PAYIN_CREDIT', amount: 4950, onusReference: d.onusReference });
	});

	test('validation names the field', async () => {
		const r = await c.post('/api/v1/virtual-accounts/dynamic', { amount: '10', reference: ref(), businessId: 'BUS-2001', customer });
		expect(r.status).toBe(400);
		expect(r.body.data.errors).toEqual(['amount: must be a number']);
	});
});
