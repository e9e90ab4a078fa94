import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { sandboxPerFile, customer, paidDynamic, receiver, ref, waitFor } from './helpers';

const { c, sb } = sandboxPerFile();

const card = (pan: string, exp = '12|30', cvv = '123') => Buffer.from(`${pan}|${exp}|${cvv}`).toString('base64');
const cardBody = (pan: string, extra: Record<string, unknown> = {}) => ({
	cardData: card(pan),
	amount: 2500,
	currency: 'NGN',
	reference: ref('card'),
	narration: 'Order 1',
	businessId: 'BUS-2001',
	redirectUrl: 'https://merchant.example/back',
	customer: { ...customer, address: { line1: '1 Main St', city: 'Lagos', state: 'LA', countryCode: 'NG' } },
	...extra,
});
const status = async (onus: string, businessId = 'BUS-2001') =>
	(await c.get(`/api/v1/payment-requests/businesses/${businessId}?onusReference=${encodeURIComponent(onus)}`)).body.data;
const balance = async (businessId: string, currency: string) =>
	(await c.get('/api/v1/merchants/MER-1001/wallets')).body.data.find((w: any) => w.entityId === businessId && w.currency === currency)
		.availableBalance;

describe('dynamic account', () => {
	test('creation returns the account; the payin waits PENDING', async () => {
		const reference = ref();
		const r = await c.post('/api/v1/virtual-accounts/dynamic', { amount: 1234.5, reference, businessId: 'BUS-2001', customer });
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ status: 200, message: 'Successful' });
		expect(r.body.data).toEqual({
			accountName: expect.any(String),
			accountNumber: expect.stringMatching(/^\d{10}$/),
			bankName: expect.any(String),
			amount: 1234.5,
			onusReference: expect.stringMatching(/^ONUS-NUB-\d{13}-\d{8}-\d{6}$/),
			merchantReference: reference,
		});
		const p = await status(r.body.data.onusReference);
		expect(p).toMatchObject({ paymentStatus: 'PENDING', paymentChannel: 'BANK_TRANSFER', currency: 'NGN', fixedAccount: false });
		expect(p.createdDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
	});

	test('fund simulation with the exact amount: SUCCESSFUL, wallet credited less fee', async () => {
		const before = await balance('BUS-2001', 'NGN');
		const d = await paidDynamic(c, 10000);
		expect(d.record).toMatchObject({ paymentStatus: 'SUCCESSFUL', amountPaid: 10000, totalChargedFee: 100, settlementAmount: 9900, forwardedForSettlement: true });
		expect(await balance('BUS-2001', 'NGN')).toBe(before + 9900);
	});

	test('wrong amount, wrong account, second payment and unknown reference are refused', async () => {
		const r = await c.post('/api/v1/virtual-accounts/dynamic', { amount: 500, reference: ref(), businessId: 'BUS-2001', customer });
		const d = r.body.data;
		const fund = (b: Record<string, unknown>) =>
			c.post('/api/v1/fund-ngn-account', { onusReference: d.onusReference, accountNumber: d.accountNumber, amount: 500, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true, ...b });
		const wrong = await fund({ amount: 499 });
		expect(wrong.status).toBe(400);
		expect(wrong.body.data.errors[0]).toMatch(/^amount: must be exactly 500/);
		expect((await fund({ accountNumber: '1111111111' })).status).toBe(400);
		expect((await fund({ onusReference: 'ONUS-NUB-0000000000000-01012025-000000' })).status).toBe(404);
		expect((await fund({})).status).toBe(200);
		expect((await fund({})).status).toBe(409);
	});

	test('fund simulation with paymentStatus FAILED fails the payin and credits nothing', async () => {
		const before = await balance('BUS-2001', 'NGN');
		const r = await c.post('/api/v1/virtual-accounts/dynamic', { amount: 700, reference: ref(), businessId: 'BUS-2001', customer });
		const f = await c.post('/api/v1/fund-ngn-account', { onusReference: r.body.data.onusReference, accountNumber: r.body.data.accountNumber, amount: 700, paymentStatus: 'FAILED', forDynamicAccount: true });
		expect(f.body.data.paymentStatus).toBe('FAILED');
		expect(await balance('BUS-2001', 'NGN')).toBe(before);
	});

	test('validation: amount, email, phone, missing customer', async () => {
		const base = { amount: 100, reference: ref(), businessId: 'BUS-2001', customer };
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ amount: 0 }, 'amount: must be greater than 0'],
			[{ amount: -5 }, 'amount: must be greater than 0'],
			[{ amount: 1.234 }, 'amount: must have at most 2 decimal places'],
			[{ customer: { ...customer, email: 'x' } }, 'customer.email: must be a valid email address'],
			[{ customer: { ...customer, phone: '08012345678' } }, 'customer.phone: must be in international format with a leading + (e.g. +2348012345678)'],
			[{ customer: undefined }, 'customer: is required'],
			[{ reference: undefined }, 'reference: is required'],
			[{ businessId: '' }, 'businessId: must not be empty'],
		];
		for (const [patch, error] of cases) {
			const r = await c.post('/api/v1/virtual-accounts/dynamic', { ...base, ...patch });
			expect(r.status).toBe(400);
			expect(r.body.data.errors).toContain(error);
		}
	});

	test('duplicate reference in the business: 409; the same reference in another business is fine', async () => {
		const reference = ref();
		const body = { amount: 100, reference, businessId: 'BUS-2001', customer };
		expect((await c.post('/api/v1/virtual-accounts/dynamic', body)).status).toBe(200);
		const dup = await c.post('/api/v1/virtual-accounts/dynamic', body);
		expect(dup.status).toBe(409);
		expect(dup.body.data.statusCode).toBe(409);
		expect((await c.post('/api/v1/virtual-accounts/dynamic', { ...body, businessId: 'BUS-2002' })).status).toBe(200);
	});

	test('settlement delay: credit only after the clock passes; pending summary counts it', async () => {
		await c.control('PUT', '/config', { settlement: 'delay', settlementDelaySeconds: 3600, payinFeePercent: 0 });
		const before = await balance('BUS-2001', 'NGN');
		const d = await paidDynamic(c, 2000);
		expect(d.record.forwardedForSettlement).toBe(false);
		expect(await balance('BUS-2001', 'NGN')).toBe(before);
		const pending = await c.get('/api/v1/wallets/pending-settlements?businessId=BUS-2001&currency=NGN');
		expect(pending.body.data).toMatchObject({ totalAmount: 2000, count: 1 });
		await c.control('POST', '/clock/advance', { seconds: 3600 });
		expect(await balance('BUS-2001', 'NGN')).toBe(before + 2000);
		expect((await c.get('/api/v1/wallets/pending-settlements?businessId=BUS-2001&currency=NGN')).body.data.count).toBe(0);
	});

	test('T+1 settlement credits on the next business day', async () => {
		await c.control('PUT', '/config', { settlement: 'T+1', payinFeePercent: 0 });
		const before = await balance('BUS-2001', 'NGN');
		await paidDynamic(c, 3000);
		expect(await balance('BUS-2001', 'NGN')).toBe(before);
		await c.control('POST', '/clock/advance', { seconds: 4 * 86400 });
		c.token = undefined; // the access token expired meanwhile
		expect(await balance('BUS-2001', 'NGN')).toBe(before + 3000);
	});
});

describe('fixed account', () => {
	const fixedBody = () => ({
		reference: ref('fix'),
		businessId: 'BUS-2001',
		dob: '1990-04-12',
		customer: { ...customer, bvn: '22222222222', address: { line1: '2 Broad St', city: 'Lagos', countryCode: 'NG' } },
	});

	test('required fields are named', async () => {
		const b = fixedBody();
		const r = await c.post('/api/v1/virtual-accounts/fixed-account', { ...b, dob: '1990-02-30', customer: { ...b.customer, bvn: undefined, address: { line1: 'x' } } });
		expect(r.status).toBe(400);
		expect(r.body.data.errors).toEqual(
			expect.arrayContaining(['dob: must be a date YYYY-MM-DD', 'customer.bvn: is required', 'customer.address.city: is required', 'customer.address.countryCode: is required']),
		);
		const cc = await c.post('/api/v1/virtual-accounts/fixed-account', { ...b, customer: { ...b.customer, address: { ...b.customer.address, countryCode: 'NGA' } } });
		expect(cc.body.data.errors).toEqual(['customer.address.countryCode: must be an ISO 3166-1 alpha-2 code (e.g. NG)']);
	});

	test('create, then every transfer into it is a new SUCCESSFUL payin', async () => {
		const b = fixedBody();
		const r = await c.post('/api/v1/virtual-accounts/fixed-account', b);
		expect(r.status).toBe(200);
		const acct = r.body.data;
		expect(acct).toMatchObject({ accountNumber: expect.stringMatching(/^\d{10}$/), merchantReference: b.reference, status: 'ACTIVE', onusReference: expect.stringMatching(/^ONUS-FXD-/) });
		for (const amount of [100, 250.5]) {
			const f = await c.post('/api/v1/fund-ngn-account', { accountNumber: acct.accountNumber, amount, paymentStatus: 'SUCCESSFUL', forDynamicAccount: false });
			expect(f.body.data).toMatchObject({ paymentStatus: 'SUCCESSFUL', fixedAccount: true, fixedAccountId: acct.id, fixedAccountMerchantReference: b.reference, amountPaid: amount });
		}
		expect((await c.post('/api/v1/virtual-accounts/fixed-account', b)).status).toBe(409);
	});
});

describe('card payments', () => {
	test('no authentication: SUCCESSFUL at once, redirectUrl null', async () => {
		const r = await c.post('/api/v1/card-payments', cardBody('4111111111111111'));
		expect(r.body.data).toEqual({ authTypeRequired: null, paymentStatus: 'SUCCESSFUL', onusReference: expect.stringMatching(/^ONUS-CARD-/), redirectUrl: null, message: expect.any(String) });
		const p = await status(r.body.data.onusReference);
		expect(p).toMatchObject({ paymentChannel: 'CARD', maskedPan: '411111******1111' });
		expect(JSON.stringify(p)).not.toContain('4111111111111111');
	});

	test('PIN: PENDING, completion with the right PIN succeeds; a wrong PIN fails', async () => {
		const r = await c.post('/api/v1/card-payments', cardBody('5399000000000008'));
		expect(r.body.data).toMatchObject({ authTypeRequired: 'PIN', paymentStatus: 'PENDING', redirectUrl: null });
		const wrongType = await c.post('/api/v1/card-payments/complete-payment', { onusReference: r.body.data.onusReference, cardAuthType: 'OTP', authData: '123456' });
		expect(wrongType.status).toBe(400);
		const done = await c.post('/api/v1/card-payments/complete-payment', { onusReference: r.body.data.onusReference, cardAuthType: 'PIN', authData: '1234' });
		expect(done.body.data).toMatchObject({ paymentStatus: 'SUCCESSFUL', authTypeRequired: null });
		expect((await c.post('/api/v1/card-payments/complete-payment', { onusReference: r.body.data.onusReference, cardAuthType: 'PIN', authData: '1234' })).status).toBe(409);
		const r2 = await c.post('/api/v1/card-payments', cardBody('5399000000000008'));
		const bad = await c.post('/api/v1/card-payments/complete-payment', { onusReference: r2.body.data.onusReference, cardAuthType: 'PIN', authData: '0000' });
		expect(bad.body.data).toMatchObject({ paymentStatus: 'FAILED', message: 'Incorrect PIN' });
	});

	test('OTP completion', async () => {
		const r = await c.post('/api/v1/card-payments', cardBody('5399000000000016'));
		expect(r.body.data.authTypeRequired).toBe('OTP');
		const done = await c.post('/api/v1/card-payments/complete-payment', { onusReference: r.body.data.onusReference, cardAuthType: 'OTP', authData: '123456' });
		expect(done.body.data.paymentStatus).toBe('SUCCESSFUL');
	});

	test('THREE_DS: redirect page approves, customer returns to redirectUrl, COLLECTION sent', async () => {
		const hook = await receiver();
		await c.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'k' });
		const r = await c.post('/api/v1/card-payments', cardBody('4000000000003220'));
		expect(r.body.data).toMatchObject({ authTypeRequired: 'THREE_DS', paymentStatus: 'PENDING' });
		const page = await c.raw('GET', new URL(r.body.data.redirectUrl).pathname);
		expect(page.status).toBe(200);
		expect(page.body).toContain('value="approve"');
		expect((await c.post('/api/v1/card-payments/complete-payment', { onusReference: r.body.data.onusReference, cardAuthType: 'THREE_DS', authData: 'x' })).status).toBe(400);
		const post = await c.raw('POST', new URL(r.body.data.redirectUrl).pathname, { rawBody: 'action=approve', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		expect(post.status).toBe(303);
		expect(post.headers.location).toMatch(/^https:\/\/merchant\.example\/back\?onusReference=.*status=SUCCESSFUL/);
		expect((await status(r.body.data.onusReference)).paymentStatus).toBe('SUCCESSFUL');
		const got = await waitFor(() => hook.got.find((g) => g.json.onusReference === r.body.data.onusReference));
		expect(got.json).toMatchObject({ type: 'COLLECTION', paymentChannel: 'CARD', paymentStatus: 'SUCCESSFUL' });
		await hook.close();
	});

	test('THREE_DS decline via the control API', async () => {
		const r = await c.post('/api/v1/card-payments', cardBody('4000000000003220'));
		const d = await c.control('POST', `/payins/${r.body.data.onusReference}/decline`);
		expect(d.body.data.paymentStatus).toBe('FAILED');
		expect((await c.control('POST', `/payins/${r.body.data.onusReference}/approve`)).status).toBe(409);
	});

	test('declined and expired cards FAIL; bad cardData is 400', async () => {
		expect((await c.post('/api/v1/card-payments', cardBody('4000000000000002'))).body.data).toMatchObject({ paymentStatus: 'FAILED', message: 'Card declined' });
		const expired = await c.post('/api/v1/card-payments', { ...cardBody('4111111111111111'), cardData: card('4111111111111111', '01|20') });
		expect(expired.body.data).toMatchObject({ paymentStatus: 'FAILED', message: 'Expired card' });
		for (const cardData of ['!!!', card('4111111111111112'), Buffer.from('hello').toString('base64')]) {
			const r = await c.post('/api/v1/card-payments', { ...cardBody('4111111111111111'), cardData });
			expect(r.status).toBe(400);
			expect(r.body.data.errors[0]).toMatch(/^cardData: /);
		}
	});

	test('cardData RSA-OAEP encrypted with the sandbox public key is accepted', async () => {
		const pem = (await c.control('GET', '/public-key')).body.data.publicKey;
		const enc = publicEncrypt(
			{ key: createPublicKey(pem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
			Buffer.from('5399000000000016|12|2031|321'),
		).toString('base64');
		const r = await c.post('/api/v1/card-payments', { ...cardBody('4111111111111111'), cardData: enc });
		expect(r.body.data.authTypeRequired).toBe('OTP');
	});

	test('card data is redacted in the request log', async () => {
		await c.post('/api/v1/card-payments', cardBody('4111111111111111'));
		const log = await c.control('GET', '/requests?path=/api/v1/card-payments');
		const entry = log.body.data.at(-1);
		expect(entry.body.cardData).toBe('[REDACTED]');
		expect(entry.headers.authorization).toBeUndefined();
		const all = JSON.stringify((await c.control('GET', '/requests')).body);
		expect(all).not.toContain(cardBody('4111111111111111').cardData);
		expect(all).not.toContain('sandbox-secret-1');
	});

	test('currency without an enabled wallet: 404 wallet not found', async () => {
		const r = await c.post('/api/v1/card-payments', cardBody('4111111111111111', { currency: 'GHS' }));
		expect(r.status).toBe(404);
		expect(r.body.message).toMatch(/wallet not found/i);
	});
});

describe('mobile money', () => {
	const momo = (network: string, phoneNumber: string, extra: Record<string, unknown> = {}) => ({
		amount: 300,
		reference: ref('momo'),
		businessId: 'BUS-2001',
		narration: 'Top up',
		momoNetwork: network,
		customer: { name: 'Wanjiru K', email: 'w@example.com', phone: phoneNumber, address: { postalCode: '00100', countryCode: 'KE', city: 'Nairobi' } },
		...extra,
	});

	test('networks list filters by currency', async () => {
		const r = await c.get('/api/v1/mobile-money/networks?currency=KES');
		expect(r.body.data.map((n: any) => n.code)).toEqual(['MPESA_KE', 'AIRTEL_KE']);
		expect(r.body.data[0]).toEqual({ code: 'MPESA_KE', name: expect.any(String), currency: 'KES', countryCode: 'KE', otpRequired: false, initiatingCodeRequired: false });
	});

	test('test number: PROCESSING, then SUCCESSFUL on its own', async () => {
		const r = await c.post('/api/v1/mobile-money/collection', momo('MPESA_KE', '+234700000000'));
		expect(r.body.data).toMatchObject({ paymentStatus: 'PROCESSING', otpRequired: false, network: 'MPESA_KE', mobileNumber: '+234700000000', onusReference: expect.stringMatching(/^ONUS-MMO-/) });
		await waitFor(async () => (await status(r.body.data.onusReference)).paymentStatus === 'SUCCESSFUL');
	});

	test('other numbers wait for the customer (control approve / decline)', async () => {
		const r = await c.post('/api/v1/mobile-money/collection', momo('MPESA_KE', '+254711222333'));
		// Everything the sandbox would do on its own has happened (no timer approves this number).
		await sb().sandbox.idle();
		expect((await status(r.body.data.onusReference)).paymentStatus).toBe('PROCESSING');
		expect((await c.control('POST', `/payins/${r.body.data.onusReference}/approve`)).body.data.paymentStatus).toBe('SUCCESSFUL');
		const r2 = await c.post('/api/v1/mobile-money/collection', momo('MPESA_KE', '+254711222334'));
		expect((await c.control('POST', `/payins/${r2.body.data.onusReference}/decline`)).body.data.paymentStatus).toBe('FAILED');
	});

	test('OTP network: verify-otp completes it, a wrong OTP is 400', async () => {
		const r = await c.post('/api/v1/mobile-money/collection', momo('AIRTEL_KE', '+254733000111'));
		expect(r.body.data.otpRequired).toBe(true);
		const bad = await c.post('/api/v1/mobile-money/verify-otp', { onusReference: r.body.data.onusReference, otp: '000000' });
		expect(bad.status).toBe(400);
		expect(bad.body.data.errors).toEqual(['otp: is incorrect']);
		const good = await c.post('/api/v1/mobile-money/verify-otp', { onusReference: r.body.data.onusReference, otp: '123456' });
		expect(good.body.data.paymentStatus).toBe('SUCCESSFUL');
		expect((await c.post('/api/v1/mobile-money/verify-otp', { onusReference: r.body.data.onusReference, otp: '123456' })).status).toBe(409);
	});

	test('unknown network 400; GHS (not enabled for BUS-2001) 404; initiatingCode required', async () => {
		expect((await c.post('/api/v1/mobile-money/collection', momo('NOPE', '+254700000001'))).status).toBe(400);
		const gh = await c.post('/api/v1/mobile-money/collection', momo('MTN_GH', '+233240000003'));
		expect(gh.status).toBe(404);
		const voda = await c.post('/api/v1/mobile-money/collection', momo('VODAFONE_GH', '+233240000003'));
		expect(voda.status).toBe(400);
		expect(voda.body.data.errors).toEqual(['initiatingCode: is required for network VODAFONE_GH']);
	});

	test('South Africa: any number succeeds automatically', async () => {
		const r = await c.post('/api/v1/mobile-money/collection', momo('VODACOM_ZA', '+27821234567'));
		await waitFor(async () => (await status(r.body.data.onusReference)).paymentStatus === 'SUCCESSFUL');
		expect((await status(r.body.data.onusReference)).currency).toBe('ZAR');
	});
});

describe('EFT', () => {
	const eft = (bank = '250655') => ({
		amount: 950,
		reference: ref('eft'),
		narration: 'Invoice 7',
		businessId: 'BUS-2001',
		bank,
		redirectUrl: 'https://merchant.example/eft-done',
		customer: { ...customer, phone: '+27821234567', address: { line1: '1 Long St', city: 'Cape Town', state: 'WC', postalCode: '8001', countryCode: 'ZA' } },
	});

	test('bank list', async () => {
		const r = await c.get('/api/v1/eft-payment/banks');
		expect(r.body.data).toContainEqual({ code: '250655', name: 'First National Bank' });
	});

	test('PROCESSING, then SUCCESSFUL when authorised on the bank page', async () => {
		const r = await c.post('/api/v1/eft-payment', eft());
		expect(r.body.data).toMatchObject({ paymentStatus: 'PROCESSING', bankName: 'First National Bank', amount: 950, onusReference: expect.stringMatching(/^ONUS-EFT-/) });
		const path = new URL(r.body.data.redirectUrl).pathname;
		expect((await c.raw('GET', path)).body).toContain('Approve');
		const post = await c.raw('POST', path, { rawBody: 'action=approve', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
		expect(post.status).toBe(303);
		expect((await status(r.body.data.onusReference)).paymentStatus).toBe('SUCCESSFUL');
	});

	test('declined at the bank (control API); unknown bank 400; no ZAR wallet 404', async () => {
		const r = await c.post('/api/v1/eft-payment', eft());
		expect((await c.control('POST', `/payins/${r.body.data.onusReference}/decline`)).body.data.paymentStatus).toBe('FAILED');
		expect((await c.post('/api/v1/eft-payment', eft('999'))).status).toBe(400);
		expect((await c.post('/api/v1/eft-payment', { ...eft(), businessId: 'BUS-2003' })).status).toBe(404);
	});
});

describe('payment request query and list', () => {
	test('query needs onusReference; other business 404', async () => {
		const d = await paidDynamic(c, 100);
		expect((await c.get('/api/v1/payment-requests/businesses/BUS-2001')).status).toBe(400);
		expect((await c.get(`/api/v1/payment-requests/businesses/BUS-2002?onusReference=${d.onusReference}`)).status).toBe(404);
	});

	test('filters and zero-based paging', async () => {
		const paid = [];
		for (let i = 0; i < 3; i++) paid.push(await paidDynamic(c, 100 + i));
		await c.post('/api/v1/virtual-accounts/dynamic', { amount: 10, reference: ref(), businessId: 'BUS-2001', customer });
		await paidDynamic(c, 50, 'BUS-2002');
		const all = await c.get('/api/v1/payment-requests?businessId=BUS-2001');
		expect(all.body.data.totalNumberOfItems).toBe(4);
		const succ = await c.get('/api/v1/payment-requests?businessId=BUS-2001&status=SUCCESSFUL&page=0&size=2');
		expect(succ.body.data).toMatchObject({ pageNo: 0, pageSize: 2, lastPage: 1, totalNumberOfItems: 3, totalPages: 2, page: 0, size: 2, totalElements: 3 });
		expect(succ.body.data.content.map((p: any) => p.onusReference)).toEqual([paid[2].onusReference, paid[1].onusReference]);
		const page1 = await c.get('/api/v1/payment-requests?businessId=BUS-2001&status=SUCCESSFUL&page=1&size=2');
		expect(page1.body.data.content.map((p: any) => p.onusReference)).toEqual([paid[0].onusReference]);
		expect((await c.get(`/api/v1/payment-requests?onusReference=${paid[1].onusReference}`)).body.data.content).toHaveLength(1);
		expect((await c.get('/api/v1/payment-requests')).body.data.totalNumberOfItems).toBe(5);
		const today = new Date().toISOString().slice(0, 10);
		expect((await c.get(`/api/v1/payment-requests?fromDate=${today}&toDate=${today}`)).body.data.totalNumberOfItems).toBe(5);
		expect((await c.get('/api/v1/payment-requests?toDate=2000-01-01')).body.data.totalNumberOfItems).toBe(0);
	});

	test('invalid list parameters give 400 naming the parameter', async () => {
		for (const [qs, field] of [
			['status=DONE', 'status'],
			['fromDate=2024-13-01', 'fromDate'],
			['page=-1', 'page'],
			['size=0', 'size'],
			['size=abc', 'size'],
			['fromDate=2024-02-02&toDate=2024-02-01', 'fromDate'],
		]) {
			const r = await c.get(`/api/v1/payment-requests?${qs}`);
			expect(r.status).toBe(400);
			expect(r.body.data.errors[0].startsWith(`${field}: `)).toBe(true);
		}
	});
});
