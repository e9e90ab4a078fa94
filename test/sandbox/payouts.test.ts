import { FormData, request } from 'undici';
import { sandboxPerFile, paidDynamic, receiver, ref, waitFor } from './helpers';

const { c, sb } = sandboxPerFile();

const bank = (account: string, extra: Record<string, unknown> = {}) => ({
	amount: 1000,
	beneficiaryAccountNumber: account,
	beneficiaryAccountName: 'Test Beneficiary',
	beneficiaryBankCode: '044',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	countryCode: 'NG',
	currency: 'NGN',
	reference: ref('po'),
	narration: 'Payout',
	businessId: 'BUS-2001',
	email: 'ops@example.com',
	...extra,
});
const find = async (onus: string) =>
	(await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&onusReference=${encodeURIComponent(onus)}`)).body.data.content[0];
const balance = async (businessId: string, currency: string) =>
	(await c.get('/api/v1/merchants/MER-1001/wallets')).body.data.find((w: any) => w.entityId === businessId && w.currency === currency)
		.availableBalance;

describe('banks and name enquiry', () => {
	test('banks per currency; key required; unknown currency 400', async () => {
		const ngn = await c.get('/api/v1/banks?key=NGN');
		expect(ngn.body.data).toContainEqual({ code: '044', name: 'Access Bank' });
		expect((await c.get('/api/v1/banks?key=ZAR')).body.data).toContainEqual({ code: '250655', name: 'First National Bank' });
		expect((await c.get('/api/v1/banks')).status).toBe(400);
		expect((await c.get('/api/v1/banks?key=XYZ')).status).toBe(400);
	});

	test('name enquiry resolves test accounts; bad bank 400; zeros 404', async () => {
		const r = await c.post('/api/v1/transfer-requests/name-enquiry', { institutionCode: '044', accountNumber: '9999991112', businessId: 'BUS-2001', currency: 'NGN' });
		expect(r.body.data).toEqual({ accountNumber: '9999991112', accountName: 'Sandbox Success Beneficiary', bankCode: '044', bankName: 'Access Bank' });
		expect((await c.post('/api/v1/transfer-requests/name-enquiry', { institutionCode: '999', accountNumber: '9999991112', businessId: 'BUS-2001', currency: 'NGN' })).status).toBe(400);
		expect((await c.post('/api/v1/transfer-requests/name-enquiry', { institutionCode: '044', accountNumber: '12345', businessId: 'BUS-2001', currency: 'NGN' })).status).toBe(400);
		expect((await c.post('/api/v1/transfer-requests/name-enquiry', { institutionCode: '044', accountNumber: '0000000000', businessId: 'BUS-2001', currency: 'NGN' })).status).toBe(404);
	});
});

describe('bank transfers', () => {
	test('9999991112: PENDING with fee, debited at once, then SUCCESSFUL + PAYOUT webhook', async () => {
		const hook = await receiver();
		await c.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'vk' });
		const before = await balance('BUS-2001', 'NGN');
		const body = bank('9999991112');
		// the automatic outcome held back (an hour), so "still PENDING" does not race a loaded machine; settled below
		await c.control('PUT', '/config', { transferDelayMs: 3_600_000 });
		const r = await c.post('/api/v1/transfer-requests/bank-transfer', body);
		await c.control('PUT', '/config', { transferDelayMs: 20 });
		expect(r.body.data).toEqual({ paymentStatus: 'PENDING', currency: 'NGN', amount: 1000, fee: 10.75, onusReference: expect.stringMatching(/^ONUS-TRNF-\d{13}-\d{8}-\d{6}$/), merchantReference: body.reference });
		expect(await balance('BUS-2001', 'NGN')).toBe(before - 1010.75);
		expect((await find(r.body.data.onusReference)).paymentStatus).toBe('PENDING');
		await c.control('POST', `/transfers/${encodeURIComponent(r.body.data.onusReference)}/settle`, {});
		await waitFor(async () => (await find(r.body.data.onusReference)).paymentStatus === 'SUCCESSFUL');
		const t = await find(r.body.data.onusReference);
		expect(t).toMatchObject({ merchantReference: body.reference, beneficiaryAccountNumber: '9999991112', bankCode: '044', bankName: 'Access Bank', paymentChannel: 'BANK_TRANSFER', transferType: 'WALLET_TO_BANK_ACCOUNT', fee: 10.75 });
		const got = await waitFor(() => hook.got.find((g) => g.json.type === 'PAYOUT'));
		expect(got.json).toMatchObject({ accountNumber: '9999991112', onusReference: r.body.data.onusReference, paymentStatus: 'SUCCESSFUL', transactionAmount: 1000 });
		expect(await balance('BUS-2001', 'NGN')).toBe(before - 1010.75);
		await hook.close();
	});

	test.each([
		['9999991113', 'UNKNOWN_ERROR'],
		['9999991114', 'INVALID_ACCOUNT'],
		['9999991117', 'INSUFFICIENT_FUNDS'],
		['9999991118', 'ACCOUNT_NAME_MISMATCH'],
		['9999991119', 'TRANSACTION_NOT_PERMITTED_TO_SENDER'],
		['9999991120', 'INVALID_AMOUNT'],
		['9999991121', 'INVALID_BANK_CODE'],
	])('%s fails with %s and the debit is reversed', async (account, reason) => {
		const before = await balance('BUS-2001', 'NGN');
		const r = await c.post('/api/v1/transfer-requests/bank-transfer', bank(account));
		await waitFor(async () => (await find(r.body.data.onusReference)).paymentStatus === 'FAILED');
		expect((await find(r.body.data.onusReference)).responseMessage).toBe(reason);
		expect(await balance('BUS-2001', 'NGN')).toBe(before);
		const ledger = (await c.control('GET', '/ledger')).body.data.entries.filter((e: any) => e.onusReference === r.body.data.onusReference);
		expect(ledger.map((e: any) => [e.type, e.amount])).toEqual([['PAYOUT_DEBIT', -1000], ['PAYOUT_FEE', -10.75], ['PAYOUT_REVERSAL', 1010.75]]);
	});

	test('9999991111 stays PENDING until settled by the control API', async () => {
		const r = await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991111'));
		// Everything the sandbox would do on its own has happened (no timer settles a held transfer).
		await sb().sandbox.idle();
		expect((await find(r.body.data.onusReference)).paymentStatus).toBe('PENDING');
		const s = await c.control('POST', `/transfers/${r.body.data.onusReference}/settle`, { outcome: 'SUCCESSFUL' });
		expect(s.body.data.paymentStatus).toBe('SUCCESSFUL');
		expect((await c.control('POST', `/transfers/${r.body.data.onusReference}/settle`, {})).status).toBe(409);
		const r2 = await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991111'));
		const f = await c.control('POST', `/transfers/${r2.body.data.onusReference}/settle`, { outcome: 'INVALID_ACCOUNT' });
		expect(f.body.data).toMatchObject({ paymentStatus: 'FAILED', responseMessage: 'INVALID_ACCOUNT' });
		expect((await c.control('POST', `/transfers/${r2.body.data.onusReference}/settle`, { outcome: 'MAYBE' })).status).toBe(400);
	});

	test('other accounts succeed; fee tiers', async () => {
		const r = await c.post('/api/v1/transfer-requests/bank-transfer', bank('0123456789', { amount: 60000 }));
		expect(r.body.data.fee).toBe(53.75);
		await waitFor(async () => (await find(r.body.data.onusReference)).paymentStatus === 'SUCCESSFUL');
	});

	test('insufficient balance 400, over maxSinglePayout 400, no wallet 404, duplicate reference 409', async () => {
		const poor = await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991112', { amount: 9999995 }));
		expect(poor.status).toBe(400);
		expect(poor.body.message).toMatch(/Insufficient wallet balance/);
		const big = await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991112', { amount: 20000001 }));
		expect(big.status).toBe(400);
		expect(big.body.data.errors[0]).toMatch(/^amount: exceeds maxSinglePayout/);
		const gh = await c.post('/api/v1/transfer-requests/bank-transfer', bank('1234567890', { currency: 'GHS', countryCode: 'GH', beneficiaryBankCode: '040100' }));
		expect(gh.status).toBe(404);
		expect(gh.body).toMatchObject({ status: 404, message: 'Wallet not found for currency GHS', data: { statusCode: 404 } });
		const body = bank('9999991112');
		expect((await c.post('/api/v1/transfer-requests/bank-transfer', body)).status).toBe(200);
		expect((await c.post('/api/v1/transfer-requests/bank-transfer', body)).status).toBe(409);
	});

	test('a payin reference cannot be reused by a payout (one space per business)', async () => {
		const d = await paidDynamic(c, 100);
		const r = await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991112', { reference: d.reference }));
		expect(r.status).toBe(409);
	});

	test('validation per transfer type', async () => {
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ beneficiaryBankCode: undefined }, 'beneficiaryBankCode: is required for WALLET_TO_BANK_ACCOUNT'],
			[{ beneficiaryBankCode: '999' }, 'beneficiaryBankCode: is not a NGN bank code (see GET /api/v1/banks?key=NGN)'],
			[{ beneficiaryAccountNumber: '123' }, 'beneficiaryAccountNumber: must be a 10-digit NUBAN'],
			[{ transferType: 'WALLET_TO_X' }, 'transferType: must be WALLET_TO_BANK_ACCOUNT, WALLET_TO_MOMO or WALLET_TO_EFT'],
			[{ transferType: 'WALLET_TO_WALLET' }, 'transferType: WALLET_TO_WALLET is not simulated by the sandbox'],
			[{ transferType: 'WALLET_TO_MOMO' }, 'momoNetwork: is required for WALLET_TO_MOMO'],
			[{ transferType: 'WALLET_TO_EFT' }, 'eftBank: is required for WALLET_TO_EFT'],
			[{ countryCode: 'Nigeria' }, 'countryCode: must be an ISO 3166-1 alpha-2 code (e.g. NG)'],
			[{ currency: 'naira' }, 'currency: must be one of NGN, KES, ZAR, USD, GHS, UGX, TZS, XOF, RWF, ZMW'],
			[{ amount: '1000' }, 'amount: must be a number'],
			[{ email: 'nope' }, 'email: must be a valid email address'],
		];
		for (const [patch, error] of cases) {
			const r = await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991112', patch));
			expect(r.status).toBe(400);
			expect(r.body.data.errors).toContain(error);
		}
	});

	test('mobile money and EFT payouts', async () => {
		const momo = await c.post('/api/v1/transfer-requests/bank-transfer', {
			...bank('+254700001112', { currency: 'KES', countryCode: 'KE', transferType: 'WALLET_TO_MOMO', momoNetwork: 'MPESA_KE', beneficiaryBankCode: undefined, amount: 500 }),
		});
		expect(momo.body.data.fee).toBe(5);
		await waitFor(async () => (await find(momo.body.data.onusReference)).paymentStatus === 'SUCCESSFUL');
		expect(await find(momo.body.data.onusReference)).toMatchObject({ paymentChannel: 'MOBILE_MONEY', momoNetwork: 'MPESA_KE' });
		const wrongNet = await c.post('/api/v1/transfer-requests/bank-transfer', bank('+254700001112', { currency: 'KES', countryCode: 'KE', transferType: 'WALLET_TO_MOMO', momoNetwork: 'MTN_GH' }));
		expect(wrongNet.status).toBe(400);
		const eft = await c.post('/api/v1/transfer-requests/bank-transfer', bank('62001111', { currency: 'ZAR', countryCode: 'ZA', transferType: 'WALLET_TO_EFT', eftBank: '632005' }));
		expect(eft.body.data.fee).toBe(5);
		await sb().sandbox.idle();
		expect(await find(eft.body.data.onusReference)).toMatchObject({ paymentChannel: 'EFT', paymentStatus: 'PENDING' });
		const eftFail = await c.post('/api/v1/transfer-requests/bank-transfer', bank('62001114', { currency: 'ZAR', countryCode: 'ZA', transferType: 'WALLET_TO_EFT', eftBank: '632005' }));
		await waitFor(async () => (await find(eftFail.body.data.onusReference)).responseMessage === 'INVALID_ACCOUNT');
	});

	test('sub-wallet payouts are not simulated: 404', async () => {
		const r = await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991112', { fromSubWallet: true, walletId: 'SUB-1' }));
		expect(r.status).toBe(404);
	});
});

describe('transfer search', () => {
	test('merchantId required; filters; pageNo from 1', async () => {
		expect((await c.get('/api/v1/transfer-requests')).status).toBe(400);
		expect((await c.get('/api/v1/transfer-requests?merchantId=MER-9001')).status).toBe(403);
		const made = [];
		for (let i = 0; i < 3; i++) made.push((await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991111'))).body.data);
		const other = (await c.post('/api/v1/transfer-requests/bank-transfer', bank('9999991111', { businessId: 'BUS-2002' }))).body.data;
		const all = await c.get('/api/v1/transfer-requests?merchantId=MER-1001');
		expect(all.body.data).toMatchObject({ pageNo: 1, pageSize: 30, lastPage: 1, totalNumberOfItems: 4 });
		const p2 = await c.get('/api/v1/transfer-requests?merchantId=MER-1001&businessId=BUS-2001&pageNo=2&pageSize=2');
		expect(p2.body.data).toMatchObject({ pageNo: 2, pageSize: 2, lastPage: 2, totalNumberOfItems: 3 });
		expect(p2.body.data.content.map((t: any) => t.onusReference)).toEqual([made[0].onusReference]);
		const byRef = await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&businessId=BUS-2002&merchantReference=${other.merchantReference}`);
		expect(byRef.body.data.content.map((t: any) => t.onusReference)).toEqual([other.onusReference]);
		expect((await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&reference=${other.merchantReference}`)).body.data.totalNumberOfItems).toBe(1);
		await c.control('POST', `/transfers/${made[1].onusReference}/settle`, {});
		expect((await c.get('/api/v1/transfer-requests?merchantId=MER-1001&status=SUCCESSFUL')).body.data.totalNumberOfItems).toBe(1);
		expect((await c.get('/api/v1/transfer-requests?merchantId=MER-1001&status=NOPE')).status).toBe(400);
		expect((await c.get('/api/v1/transfer-requests?merchantId=MER-1001&pageNo=0')).status).toBe(400);
		expect((await c.get('/api/v1/transfer-requests?merchantId=MER-1001&toDate=2000-01-01')).body.data.totalNumberOfItems).toBe(0);
	});
});

describe('bulk transfers', () => {
	const send = async (parts: Record<string, string>, csv?: string) => {
		const form = new FormData();
		for (const [k, v] of Object.entries(parts)) form.append(k, v);
		if (csv !== undefined) form.append('file', new Blob([csv], { type: 'text/csv' }), 'batch.csv');
		if (!c.token) await c.login();
		const res = await request(`${sb().url}/api/v1/transfer-requests/bulk/bank-transfer`, { method: 'POST', body: form, headers: { authorization: `Bearer ${c.token}` } });
		return { status: res.statusCode, body: (await res.body.json()) as any };
	};
	const header = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration\n';

	test('a batch creates one transfer per row with <batch>-<row> references', async () => {
		const before = await balance('BUS-2001', 'NGN');
		const batch = ref('batch');
		const r = await send({ reference: batch, businessId: 'BUS-2001', currency: 'NGN' }, `${header}9999991112,Ann,044,100,"Salary, May"\n9999991114,Bob,058,200.5,x\n`);
		expect(r.status).toBe(200);
		expect(r.body.data).toMatchObject({ reference: batch, totalCount: 2, totalAmount: 300.5, totalFee: 21.5 });
		expect(r.body.data.transfers.map((t: any) => t.merchantReference)).toEqual([`${batch}-1`, `${batch}-2`]);
		expect(r.body.data.transfers[0].narration).toBe('Salary, May');
		// Row 2 (9999991114) fails after the sandbox's transfer delay and is
		// refunded in full; row 1 stays debited with its fee. Read once both
		// are settled, so a slow machine cannot see the refund early.
		await waitFor(async () => (await find(r.body.data.transfers[1].onusReference)).paymentStatus === 'FAILED');
		expect(r.body.data.transfers.map((t: any) => t.fee)).toEqual([10.75, 10.75]);
		expect(await balance('BUS-2001', 'NGN')).toBe(before - 100 - 10.75);
		expect((await send({ reference: batch, businessId: 'BUS-2001', currency: 'NGN' }, `${header}9999991112,Ann,044,100,x\n`)).status).toBe(409);
		const listed = await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&bulkReference=${batch}`);
		expect(listed.body.data.totalNumberOfItems).toBe(2);
	});

	test('bad rows are all reported and nothing is sent', async () => {
		const before = await balance('BUS-2001', 'NGN');
		const r = await send({ reference: ref('batch'), businessId: 'BUS-2001', currency: 'NGN' }, `${header}9999991112,Ann,044,abc,x\n123,Bob,999,10,x\n`);
		expect(r.status).toBe(400);
		expect(r.body.data.errors).toEqual([
			'file row 1 amount: must be a number greater than 0',
			'file row 2 beneficiaryBankCode: is not a NGN bank code (see GET /api/v1/banks?key=NGN)',
		]);
		expect(await balance('BUS-2001', 'NGN')).toBe(before);
		expect((await send({ businessId: 'BUS-2001' })).body.data.errors).toEqual(['reference: is required', 'file: a CSV part named "file" is required']);
		expect((await send({ reference: ref(), businessId: 'BUS-2001' }, 'a,b\n1,2\n')).status).toBe(400);
		const poor = await send({ reference: ref(), businessId: 'BUS-2001', currency: 'NGN' }, `${header}9999991112,Ann,044,9999999,x\n`);
		expect(poor.status).toBe(400);
	});
});

describe('refunds of bank transfer payins', () => {
	test('full refund: PENDING, wallet debited, SUCCESSFUL, REFUND webhook', async () => {
		const hook = await receiver();
		await c.control('PUT', '/webhooks', { url: hook.url, verificationKey: 'vk' });
		const d = await paidDynamic(c, 1000);
		const before = await balance('BUS-2001', 'NGN');
		const r = await c.post('/api/v1/refunds/bank-transfer', { businessId: 'BUS-2001', onusReference: d.onusReference, reason: 'Customer request' });
		expect(r.body.data).toMatchObject({ status: 'PENDING', amount: 1000, paymentOnusReference: d.onusReference, onusReference: expect.stringMatching(/^ONUS-RFND-/) });
		expect(await balance('BUS-2001', 'NGN')).toBe(before - 1000);
		const got = await waitFor(() => hook.got.find((g) => g.json.type === 'REFUND'));
		expect(got.json).toMatchObject({ paymentStatus: 'SUCCESSFUL', onusReference: r.body.data.onusReference, accountNumber: d.accountNumber });
		const listed = await c.get(`/api/v1/refunds?businessId=BUS-2001&paymentOnusReference=${d.onusReference}`);
		expect(listed.body.data.content[0].status).toBe('SUCCESSFUL');
		expect((await c.post('/api/v1/refunds/bank-transfer', { businessId: 'BUS-2001', onusReference: d.onusReference })).status).toBe(409);
		await hook.close();
	});

	test('partial refunds, over-refund 400, failed refund reversed, non-bank payin 400', async () => {
		await c.control('PUT', '/config', { refundOutcome: 'HOLD' });
		const d = await paidDynamic(c, 1000);
		const r1 = await c.post('/api/v1/refunds/bank-transfer', { businessId: 'BUS-2001', onusReference: d.onusReference, amount: 400 });
		expect(r1.status).toBe(200);
		expect((await c.post('/api/v1/refunds/bank-transfer', { businessId: 'BUS-2001', onusReference: d.onusReference, amount: 700 })).status).toBe(400);
		const before = await balance('BUS-2001', 'NGN');
		const f = await c.control('POST', `/refunds/${r1.body.data.onusReference}/settle`, { outcome: 'FAILED' });
		expect(f.body.data.status).toBe('FAILED');
		expect(await balance('BUS-2001', 'NGN')).toBe(before + 400);
		expect((await c.post('/api/v1/refunds/bank-transfer', { businessId: 'BUS-2001', onusReference: d.onusReference, amount: 1000 })).status).toBe(200);
		const card = await c.post('/api/v1/card-payments', {
			cardData: Buffer.from('4111111111111111|12|30|123').toString('base64'), amount: 10, currency: 'NGN', reference: ref(), businessId: 'BUS-2001', customer: { name: 'A', email: 'a@example.com' },
		});
		const nr = await c.post('/api/v1/refunds/bank-transfer', { businessId: 'BUS-2001', onusReference: card.body.data.onusReference });
		expect(nr.status).toBe(400);
		expect(nr.body.data.errors[0]).toMatch(/only bank transfer payins can be refunded/);
		const pending = await c.post('/api/v1/virtual-accounts/dynamic', { amount: 5, reference: ref(), businessId: 'BUS-2001', customer: { name: 'A', email: 'a@example.com' } });
		expect((await c.post('/api/v1/refunds/bank-transfer', { businessId: 'BUS-2001', onusReference: pending.body.data.onusReference })).status).toBe(400);
	});
});
