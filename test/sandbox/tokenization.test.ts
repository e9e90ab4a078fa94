import { sandboxPerFile, receiver, ref, waitFor } from './helpers';

const { c, sb } = sandboxPerFile();

const linkBody = (extra: Record<string, unknown> = {}) => ({
	businessId: 'BUS-2001',
	customer: { name: 'Chidi Eze', email: 'chidi@example.com', phone: '+2348030000000', externalId: 'cust-9' },
	merchantReference: ref('link'),
	...extra,
});
const good = { cardNumber: '4111111111111111', expiry: '12/30', cvv: '123' };

async function tokenFor(businessId = 'BUS-2001', card = good) {
	const link = (await c.post('/api/v1/card-tokenization-links', linkBody({ businessId }))).body.data;
	const s = await c.control('POST', `/links/${link.id}/submit`, card);
	return { link, tokenId: s.body.data.cardTokenId as string };
}

describe('links', () => {
	test('create: PENDING with url and expiresAt 30 min ahead; get by id and by reference', async () => {
		const body = linkBody();
		const r = await c.post('/api/v1/card-tokenization-links', body);
		expect(r.status).toBe(200);
		const l = r.body.data;
		expect(l).toMatchObject({ status: 'PENDING', merchantReference: body.merchantReference, businessId: 'BUS-2001', businessName: 'Acme Stores', merchantName: 'Sandbox Merchant Ltd' });
		expect(l.url).toBe(`${sb().url}/hosted/tokenize/${l.id}`);
		const minutes = (Date.parse(l.expiresAt.replace(' ', 'T') + 'Z') - Date.parse(l.createdDate.replace(' ', 'T') + 'Z')) / 60000;
		expect(minutes).toBe(30);
		expect((await c.get(`/api/v1/card-tokenization-links/${l.id}?businessId=BUS-2001`)).body.data.id).toBe(l.id);
		expect((await c.get(`/api/v1/card-tokenization-links/by-reference/${body.merchantReference}?businessId=BUS-2001`)).body.data.id).toBe(l.id);
		expect((await c.get(`/api/v1/card-tokenization-links/${l.id}`)).status).toBe(400);
		expect((await c.get(`/api/v1/card-tokenization-links/${l.id}?businessId=BUS-2002`)).status).toBe(403);
		expect((await c.get('/api/v1/card-tokenization-links/nope?businessId=BUS-2001')).status).toBe(404);
		expect((await c.get('/api/v1/card-tokenization-links/by-reference/nope?businessId=BUS-2001')).status).toBe(404);
	});

	test('expiryMinutes above 1440 is capped; 0 is refused; merchantReference over 100 chars refused', async () => {
		const l = (await c.post('/api/v1/card-tokenization-links', linkBody({ expiryMinutes: 5000 }))).body.data;
		const minutes = (Date.parse(l.expiresAt.replace(' ', 'T') + 'Z') - Date.parse(l.createdDate.replace(' ', 'T') + 'Z')) / 60000;
		expect(minutes).toBe(1440);
		expect((await c.post('/api/v1/card-tokenization-links', linkBody({ expiryMinutes: 0 }))).status).toBe(400);
		const long = await c.post('/api/v1/card-tokenization-links', linkBody({ merchantReference: 'x'.repeat(101) }));
		expect(long.body.data.errors).toEqual(['merchantReference: must be at most 100 characters']);
		const noEmail = await c.post('/api/v1/card-tokenization-links', linkBody({ customer: { name: 'A' } }));
		expect(noEmail.body.data.errors).toEqual(['customer.email: is required']);
	});

	test('tokenization not enabled: 403', async () => {
		const r = await c.post('/api/v1/card-tokenization-links', linkBody({ businessId: 'BUS-2003' }));
		expect(r.status).toBe(403);
	});

	test('merchantReference is single use forever (409 whatever the status)', async () => {
		const body = linkBody({ expiryMinutes: 1 });
		await c.post('/api/v1/card-tokenization-links', body);
		expect((await c.post('/api/v1/card-tokenization-links', body)).status).toBe(409);
		await c.control('POST', '/clock/advance', { seconds: 120 });
		expect((await c.post('/api/v1/card-tokenization-links', body)).status).toBe(409);
	});

	test('EXPIRED once the clock passes expiresAt; the page says so; submission refused', async () => {
		const l = (await c.post('/api/v1/card-tokenization-links', linkBody({ expiryMinutes: 10 }))).body.data;
		await c.control('POST', '/clock/advance', { seconds: 599 });
		expect((await c.get(`/api/v1/card-tokenization-links/${l.id}?businessId=BUS-2001`)).body.data.status).toBe('PENDING');
		await c.control('POST', '/clock/advance', { seconds: 1 });
		expect((await c.get(`/api/v1/card-tokenization-links/${l.id}?businessId=BUS-2001`)).body.data.status).toBe('EXPIRED');
		const page = await c.raw('GET', `/hosted/tokenize/${l.id}`);
		expect(page.status).toBe(410);
		expect(page.body).toContain('expired');
		expect((await c.control('POST', `/links/${l.id}/submit`, good)).status).toBe(409);
	});

	test('declined card keeps the link PENDING; then a good card COMPLETES it with a token and one webhook', async () => {
		const hook = await receiver();
		await c.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'vk', duplicates: 3 });
		const l = (await c.post('/api/v1/card-tokenization-links', linkBody())).body.data;
		const d = await c.control('POST', `/links/${l.id}/submit`, { ...good, cardNumber: '4000000000000002' });
		expect(d.body.data).toMatchObject({ accepted: false, status: 'PENDING', attemptsLeft: 4 });
		const g = await c.control('POST', `/links/${l.id}/submit`, { ...good, cardNumber: '4000000000000119' });
		expect(g.body.data).toMatchObject({ accepted: false, status: 'PENDING', message: expect.stringMatching(/Temporary gateway issue/) });
		const ok = await c.control('POST', `/links/${l.id}/submit`, good);
		expect(ok.body.data).toMatchObject({ accepted: true, status: 'COMPLETED', cardTokenId: expect.any(String) });
		const got = await waitFor(() => hook.got[0]);
		expect(got.json).toEqual({ event: 'card_tokenization_link.completed', cardTokenizationLinkId: l.id, cardTokenId: ok.body.data.cardTokenId, businessId: 'BUS-2001', status: 'COMPLETED' });
		// Every delivery the sandbox queued has been answered: one, whatever the duplicates knob says.
		await sb().sandbox.idle();
		expect(hook.got).toHaveLength(1);
		expect((await c.control('POST', `/links/${l.id}/submit`, good)).status).toBe(409);
		expect((await c.get(`/api/v1/card-tokenization-links/${l.id}?businessId=BUS-2001`)).body.data).toMatchObject({ status: 'COMPLETED', cardTokenId: ok.body.data.cardTokenId });
		await hook.close();
	});

	test('CANCELLED after 5 failed attempts', async () => {
		const l = (await c.post('/api/v1/card-tokenization-links', linkBody())).body.data;
		for (let i = 1; i <= 4; i++) {
			const r = await c.control('POST', `/links/${l.id}/submit`, { ...good, cvv: 'x' });
			expect(r.body.data).toMatchObject({ status: 'PENDING', attemptsLeft: 5 - i });
		}
		const last = await c.control('POST', `/links/${l.id}/submit`, { ...good, cardNumber: '4000000000000002' });
		expect(last.body.data.status).toBe('CANCELLED');
		expect((await c.raw('GET', `/hosted/tokenize/${l.id}`)).body).toContain('cancelled');
	});

	test('the hosted page: a plain HTML form that a browser submits', async () => {
		const l = (await c.post('/api/v1/card-tokenization-links', linkBody())).body.data;
		const path = new URL(l.url).pathname;
		const page = await c.raw('GET', path);
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toMatch(/text\/html/);
		expect(page.body).toContain(`<form method="post" action="/hosted/tokenize/${l.id}">`);
		const form = { 'content-type': 'application/x-www-form-urlencoded' };
		const noConsent = await c.raw('POST', path, { rawBody: 'cardNumber=4111+1111+1111+1111&expiry=12%2F30&cvv=123', headers: form });
		expect(noConsent.body).toContain('Consent is required');
		const done = await c.raw('POST', path, { rawBody: 'cardNumber=4111+1111+1111+1111&expiry=12%2F30&cvv=123&consent=yes', headers: form });
		expect(done.status).toBe(200);
		expect(done.body).toContain('Card saved');
		expect((await c.get(`/api/v1/card-tokenization-links/${l.id}?businessId=BUS-2001`)).body.data.status).toBe('COMPLETED');
		expect((await c.raw('GET', '/hosted/tokenize/nope')).status).toBe(404);
	});

	test('search: merchantId required, filters, pageNo/pageSize', async () => {
		expect((await c.get('/api/v1/card-tokenization-links')).status).toBe(400);
		const a = (await c.post('/api/v1/card-tokenization-links', linkBody())).body.data;
		const b = (await c.post('/api/v1/card-tokenization-links', linkBody())).body.data;
		const other = (await c.post('/api/v1/card-tokenization-links', linkBody({ businessId: 'BUS-2002' }))).body.data;
		await c.control('POST', `/links/${b.id}/submit`, good);
		const all = await c.get('/api/v1/card-tokenization-links?merchantId=MER-1001');
		expect(all.body.data).toMatchObject({ pageNo: 1, pageSize: 30, lastPage: 1, totalNumberOfItems: 3 });
		expect(all.body.data.content[0]).toEqual({
			id: other.id, merchantReference: other.merchantReference, status: 'PENDING', customerName: 'Chidi Eze', customerEmail: 'chidi@example.com',
			cardTokenId: null, expiresAt: other.expiresAt, createdDate: expect.any(String), businessName: 'Acme Logistics', merchantName: 'Sandbox Merchant Ltd', businessId: 'BUS-2002',
		});
		const q = (s: string) => c.get(`/api/v1/card-tokenization-links?merchantId=MER-1001&${s}`).then((r) => r.body.data);
		expect((await q('businessIds=BUS-2001')).totalNumberOfItems).toBe(2);
		expect((await q('businessIds=BUS-2001,BUS-2002')).totalNumberOfItems).toBe(3);
		expect((await q('businessIds=BUS-2001&businessIds=BUS-2002')).totalNumberOfItems).toBe(3);
		expect((await q('status=COMPLETED')).content.map((l: any) => l.id)).toEqual([b.id]);
		expect((await q('hasCardToken=true')).content.map((l: any) => l.id)).toEqual([b.id]);
		expect((await q('hasCardToken=false')).totalNumberOfItems).toBe(2);
		expect((await q(`id=${a.id}`)).content.map((l: any) => l.id)).toEqual([a.id]);
		expect((await q(`merchantReference=${a.merchantReference}`)).content.map((l: any) => l.id)).toEqual([a.id]);
		const today = new Date().toISOString().slice(0, 10);
		expect((await q(`createdFrom=${today}&createdTo=${today}`)).totalNumberOfItems).toBe(3);
		expect((await q('createdTo=2000-01-01')).totalNumberOfItems).toBe(0);
		expect((await q('pageNo=2&pageSize=2'))).toMatchObject({ pageNo: 2, lastPage: 2, content: [expect.objectContaining({ id: a.id })] });
		expect((await c.get('/api/v1/card-tokenization-links?merchantId=MER-1001&status=DONE')).status).toBe(400);
		expect((await c.get('/api/v1/card-tokenization-links?merchantId=MER-1001&createdFrom=01-01-2024')).status).toBe(400);
		expect((await c.get('/api/v1/card-tokenization-links?merchantId=MER-1001&businessIds=BUS-9001')).status).toBe(403);
		await c.control('POST', '/clock/advance', { seconds: 1801 });
		c.token = undefined;
		expect((await q('status=EXPIRED')).totalNumberOfItems).toBe(2);
	});
});

describe('card tokens', () => {
	test('search lists the token fields; filters; deleted tokens vanish', async () => {
		const { link, tokenId } = await tokenFor();
		await tokenFor('BUS-2002');
		const r = await c.get('/api/v1/card-tokens?merchantId=MER-1001&businessIds=BUS-2001');
		expect(r.body.data).toMatchObject({ pageNo: 1, pageSize: 30, totalNumberOfItems: 1 });
		const t = r.body.data.content[0];
		expect(t).toEqual({
			id: tokenId, maskedPan: '411111******1111', accountNumber: expect.any(String), tokenExpiry: '2030-12-31', paymentGateway: 'SANDBOX_GATEWAY',
			requestId: expect.stringMatching(/^ONUS-CTOKEN-\d{13}-\d{8}-\d{6}$/), customerName: 'Chidi Eze', customerEmail: 'chidi@example.com',
			merchantReference: link.merchantReference, createdDate: expect.any(String), businessName: 'Acme Stores', merchantName: 'Sandbox Merchant Ltd', businessId: 'BUS-2001',
		});
		const q = (s: string) => c.get(`/api/v1/card-tokens?merchantId=MER-1001&${s}`).then((x) => x.body.data.totalNumberOfItems);
		expect(await q('')).toBe(2);
		expect(await q(`requestId=${t.requestId}`)).toBe(1);
		expect(await q(`merchantReference=${link.merchantReference}`)).toBe(1);
		expect(await q('customerEmail=CHIDI@example.com')).toBe(2);
		expect(await q(`id=${tokenId}`)).toBe(1);
		expect(await q('createdTo=2000-01-01')).toBe(0);
		expect((await c.get('/api/v1/card-tokens')).status).toBe(400);
		await c.del(`/api/v1/card-tokens/${tokenId}?businessId=BUS-2001`);
		expect(await q('')).toBe(1);
	});

	test('delete: success, twice -> "Card token already deleted"; 404, 403, 400', async () => {
		const { tokenId } = await tokenFor();
		const first = await c.del(`/api/v1/card-tokens/${tokenId}?businessId=BUS-2001`);
		expect(first.status).toBe(200);
		expect(first.body.message).toBe('Card token deleted');
		const second = await c.del(`/api/v1/card-tokens/${tokenId}?businessId=BUS-2001`);
		expect(second.status).toBe(200);
		expect(second.body).toMatchObject({ status: 200, message: 'Card token already deleted', data: { id: tokenId, deleted: true } });
		expect((await c.del('/api/v1/card-tokens/nope?businessId=BUS-2001')).status).toBe(404);
		expect((await c.del(`/api/v1/card-tokens/${tokenId}?businessId=BUS-2002`)).status).toBe(403);
		expect((await c.del(`/api/v1/card-tokens/${tokenId}`)).status).toBe(400);
	});

	test('charge: SUCCESSFUL at once (TKPY), credited, COLLECTION to notificationUrl', async () => {
		const hook = await receiver();
		const portal = await receiver();
		await c.control('PUT', '/webhooks', { url: portal.url, verificationKey: 'vk' });
		const { tokenId } = await tokenFor();
		const reference = ref('chg');
		const r = await c.post('/api/v1/card-payments/with-token', { businessId: 'BUS-2001', cardTokenId: tokenId, amount: 1, reference, narration: 'Sub', notificationUrl: hook.url });
		expect(r.body.data).toEqual({
			authTypeRequired: null, paymentStatus: 'SUCCESSFUL', onusReference: expect.stringMatching(/^ONUS-TKPY-\d{13}-\d{8}-\d{6}$/), redirectUrl: null,
			message: 'Payment successful', descriptor: expect.any(String), processorRedirectHtmlOrUrl: null,
		});
		const got = await waitFor(() => hook.got[0]);
		expect(got.json).toMatchObject({ type: 'COLLECTION', onusReference: r.body.data.onusReference, paymentChannel: 'CARD', accountNumber: '411111******1111' });
		expect(portal.got.filter((g) => g.json.type === 'COLLECTION')).toHaveLength(0);
		const p = await c.get(`/api/v1/payment-requests/businesses/BUS-2001?onusReference=${r.body.data.onusReference}`);
		expect(p.body.data).toMatchObject({ paymentStatus: 'SUCCESSFUL', merchantReference: reference });
		await hook.close();
		await portal.close();
	});

	test('charge errors: 400 amount < 1, 404 unknown, 403 other business, 409 duplicate reference, 410 deleted, 422 expired', async () => {
		const { tokenId } = await tokenFor();
		const charge = (b: Record<string, unknown>) => c.post('/api/v1/card-payments/with-token', { businessId: 'BUS-2001', cardTokenId: tokenId, amount: 50, reference: ref('chg'), ...b });
		for (const amount of [0.5, 0, -1]) {
			const r = await charge({ amount });
			expect(r.status).toBe(400);
			expect(r.body.data.errors).toEqual(['amount: must be at least 1']);
		}
		expect((await charge({ cardTokenId: 'nope' })).status).toBe(404);
		expect((await charge({ businessId: 'BUS-2002' })).status).toBe(403);
		expect((await charge({ businessId: undefined })).status).toBe(400);
		const reference = ref('dup');
		expect((await charge({ reference })).status).toBe(200);
		expect((await charge({ reference })).status).toBe(409);
		const { tokenId: t2 } = await tokenFor();
		await c.control('POST', `/tokens/${t2}/expire`);
		const exp = await charge({ cardTokenId: t2 });
		expect(exp.status).toBe(422);
		expect(exp.body.data.statusCode).toBe(422);
		await c.del(`/api/v1/card-tokens/${tokenId}?businessId=BUS-2001`);
		expect((await charge({})).status).toBe(410);
	});

	test('a token expires with the clock after the card expiry month', async () => {
		const { tokenId } = await tokenFor('BUS-2001', { ...good, expiry: '01/99' });
		const t = (await c.get(`/api/v1/card-tokens?merchantId=MER-1001&id=${tokenId}`)).body.data.content[0];
		expect(t.tokenExpiry).toBe('2099-01-31');
		await c.control('POST', '/clock/set', { at: '2099-02-01T00:00:00Z' });
		c.token = undefined;
		const r = await c.post('/api/v1/card-payments/with-token', { businessId: 'BUS-2001', cardTokenId: tokenId, amount: 5, reference: ref() });
		expect(r.status).toBe(422);
	});

	test('charges on test card 4000000000000341 are declined (FAILED)', async () => {
		const { tokenId } = await tokenFor('BUS-2001', { ...good, cardNumber: '4000000000000341' });
		const r = await c.post('/api/v1/card-payments/with-token', { businessId: 'BUS-2001', cardTokenId: tokenId, amount: 5, reference: ref() });
		expect(r.body.data).toMatchObject({ paymentStatus: 'FAILED', message: 'Card declined by the issuer' });
	});
});
