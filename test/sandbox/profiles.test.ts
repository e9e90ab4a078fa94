/** Behaviour profiles (sandbox/profiles.ts): selection at start, via env, at run time, and each effect. */
import { FormData, request } from 'undici';
import { startSandbox } from '../../sandbox/server';
import { parseProfiles, PROFILE_NAMES, TEST_PROFILES } from '../../sandbox/profiles';
import { Client, ref, sandboxPerFile } from './helpers';

const { c, sb } = sandboxPerFile({ login: true });

async function setProfiles(profiles: string[]) {
	const r = await c.control('POST', '/profile', { profiles });
	expect(r.status).toBe(200);
	return r.body.data;
}

afterEach(async () => {
	await setProfiles([]);
});

async function transfer(reference: string, amount = 100, account = '9999991112') {
	const r = await c.post('/api/v1/transfer-requests/bank-transfer', {
		amount, beneficiaryAccountNumber: account, beneficiaryAccountName: 'Ann', beneficiaryBankCode: '044',
		transferType: 'WALLET_TO_BANK_ACCOUNT', countryCode: 'NG', currency: 'NGN', reference, narration: 'x', businessId: 'BUS-2001',
	});
	return r;
}

async function bulk(batch: string, rows: number) {
	const form = new FormData();
	form.append('reference', batch);
	form.append('businessId', 'BUS-2001');
	form.append('currency', 'NGN');
	let csv = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration\n';
	for (let i = 1; i <= rows; i++) csv += `9999991112,Row ${i},044,${i},x\n`;
	form.append('file', new Blob([csv], { type: 'text/csv' }), 'b.csv');
	const res = await request(`${sb().url}/api/v1/transfer-requests/bulk/bank-transfer`, { method: 'POST', body: form, headers: { authorization: `Bearer ${c.token}` } });
	return { status: res.statusCode, body: (await res.body.json()) as any };
}

describe('selection', () => {
	test('GET lists the active and the available profiles; POST sets them; reset keeps them', async () => {
		const got = await c.control('GET', '/profile');
		expect(got.body.data.profiles).toEqual([]);
		expect(got.body.data.available.map((p: any) => p.name)).toEqual([...PROFILE_NAMES]);
		expect((await setProfiles(['oldest-first', 'strict-paging'])).profiles).toEqual(['strict-paging', 'oldest-first']);
		await c.control('POST', '/reset');
		expect((await c.control('GET', '/profile')).body.data.profiles).toEqual(['strict-paging', 'oldest-first']);
	});

	test('an unknown profile is 400 and changes nothing', async () => {
		await setProfiles(['oldest-first']);
		const r = await c.control('POST', '/profile', { profiles: ['oldest-first', 'nope'] });
		expect(r.status).toBe(400);
		expect(r.body.message).toMatch(/Unknown sandbox profile "nope"/);
		expect((await c.control('GET', '/profile')).body.data.profiles).toEqual(['oldest-first']);
	});

	test('startSandbox({ profiles }) and PAYONUS_SANDBOX_PROFILE', async () => {
		const a = await startSandbox({ port: 0, profiles: ['bare-records'] });
		const prev = process.env.PAYONUS_SANDBOX_PROFILE;
		process.env.PAYONUS_SANDBOX_PROFILE = 'strict-paging,oldest-first';
		const b = await startSandbox({ port: 0 });
		if (prev === undefined) delete process.env.PAYONUS_SANDBOX_PROFILE;
		else process.env.PAYONUS_SANDBOX_PROFILE = prev;
		try {
			expect((await new Client(a.url).control('GET', '/profile')).body.data.profiles).toEqual(['bare-records']);
			expect((await new Client(b.url).control('GET', '/profile')).body.data.profiles).toEqual(['strict-paging', 'oldest-first']);
		} finally {
			await a.stop();
			await b.stop();
		}
		expect(parseProfiles('default')).toEqual([]);
		expect(() => parseProfiles('x')).toThrow(/known: strict-paging/);
	});
});

describe('effects', () => {
	test('strict-paging caps every page at 20 and says so', async () => {
		for (let i = 0; i < 25; i++) expect((await transfer(ref('sp'))).status).toBe(200);
		await setProfiles(['strict-paging']);
		const r = await c.get('/api/v1/transfer-requests?merchantId=MER-1001&pageNo=1&pageSize=100');
		expect(r.body.data.content).toHaveLength(20);
		expect(r.body.data).toMatchObject({ pageSize: 20, lastPage: 2, totalNumberOfItems: 25 });
		const p = await c.get('/api/v1/payment-requests?size=100');
		expect(p.body.data.size).toBeLessThanOrEqual(20);
	});

	test('ignores-undocumented-filters: merchantReference and businessId are ignored, onusReference is not', async () => {
		const a = await transfer(ref('f1'));
		const b = await transfer(ref('f2'));
		await setProfiles(['ignores-undocumented-filters']);
		const r = await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&merchantReference=${a.body.data.merchantReference}&businessId=BUS-2001`);
		expect(r.body.data.totalNumberOfItems).toBe(2);
		const o = await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&onusReference=${b.body.data.onusReference}`);
		expect(o.body.data.content.map((t: any) => t.onusReference)).toEqual([b.body.data.onusReference]);
	});

	test('oldest-first sorts ascending', async () => {
		const a = await transfer(ref('o1'));
		const b = await transfer(ref('o2'));
		expect((await c.get('/api/v1/transfer-requests?merchantId=MER-1001')).body.data.content[0].onusReference).toBe(b.body.data.onusReference);
		await setProfiles(['oldest-first']);
		expect((await c.get('/api/v1/transfer-requests?merchantId=MER-1001')).body.data.content[0].onusReference).toBe(a.body.data.onusReference);
	});

	test('bulk-rows-named-otherwise: row references are not <batch>-<n>', async () => {
		await setProfiles(['bulk-rows-named-otherwise']);
		const batch = ref('batch');
		const r = await bulk(batch, 2);
		expect(r.status).toBe(200);
		for (const t of r.body.data.transfers) expect(t.merchantReference.startsWith(batch)).toBe(false);
		const none = await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&merchantReference=${batch}-1&businessId=BUS-2001`);
		expect(none.body.data.totalNumberOfItems).toBe(0);
	});

	test('bare-records: transfer records carry only the spec fields', async () => {
		await transfer(ref('bare'));
		await setProfiles(['bare-records']);
		const t = (await c.get('/api/v1/transfer-requests?merchantId=MER-1001')).body.data.content[0];
		expect(t.businessId).toBeUndefined();
		expect(t.bulkReference).toBeUndefined();
		expect(t).toHaveProperty('merchantReference');
		expect(t).toHaveProperty('beneficiaryAccountNumber');
	});

	test('duplicate-returns-existing: a reused reference answers 200 with the existing record, nothing new', async () => {
		const reference = ref('dup');
		const first = await transfer(reference, 100);
		await setProfiles(['duplicate-returns-existing']);
		const again = await transfer(reference, 999, '9999991119');
		expect(again.status).toBe(200);
		expect(again.body.data).toMatchObject({ onusReference: first.body.data.onusReference, amount: 100 });
		const all = (await c.control('GET', '/ledger')).body.data.transfers.filter((t: any) => t.merchantReference === reference);
		expect(all).toHaveLength(1);
	});

	test('prose-paging-fields: the payment request list answers page/size/totalElements/totalPages only', async () => {
		await setProfiles(['prose-paging-fields']);
		const d = (await c.get('/api/v1/payment-requests?page=0&size=5')).body.data;
		expect(d).toHaveProperty('totalElements');
		expect(d).toHaveProperty('totalPages');
		expect(d.lastPage).toBeUndefined();
		expect(d.totalNumberOfItems).toBeUndefined();
	});

	test('updated-date-unmoved: a status change leaves lastUpdatedDate at createdDate (default: it moves)', async () => {
		const lastUpdated = async (reference: string) => (await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&onusReference=${reference}`)).body.data.content[0];
		for (const [profiles, moves] of [[[], true], [['updated-date-unmoved'], false]] as const) {
			await setProfiles([...profiles]);
			const t = await transfer(ref('held'), 100, '9999991111');
			sb().state.clock.advance(25 * 3600);
			await c.login(); // the token of a day ago expired
			await c.control('POST', `/transfers/${t.body.data.onusReference}/settle`, { outcome: 'SUCCESSFUL' });
			const r = await lastUpdated(t.body.data.onusReference);
			expect(r.paymentStatus).toBe('SUCCESSFUL');
			expect(r.lastUpdatedDate === r.createdDate).toBe(!moves);
		}
	});

	test('updated-date-moves-later: the wallet credit moves a payin\'s lastUpdatedDate, with no status change', async () => {
		await setProfiles(['updated-date-moves-later']);
		await c.control('PUT', '/config', { settlement: 'delay', settlementDelaySeconds: 3600 });
		const d = (await c.post('/api/v1/virtual-accounts/dynamic', { amount: 500, reference: ref('late'), businessId: 'BUS-2001', customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348000000001' } })).body.data;
		sb().state.clock.advance(60);
		await c.post('/api/v1/fund-ngn-account', { onusReference: d.onusReference, accountNumber: d.accountNumber, amount: 500, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true });
		const read = async () => (await c.get(`/api/v1/payment-requests/businesses/BUS-2001?onusReference=${d.onusReference}`)).body.data;
		const paid = await read();
		sb().state.clock.advance(2 * 3600);
		const credited = await read();
		expect(credited.paymentStatus).toBe('SUCCESSFUL');
		expect(credited.forwardedForSettlement).toBe(true);
		expect(credited.lastUpdatedDate > paid.lastUpdatedDate).toBe(true);
	});

	test('link-without-token-id: link records carry no cardTokenId', async () => {
		await setProfiles(['link-without-token-id']);
		const r = await c.post('/api/v1/card-tokenization-links', { businessId: 'BUS-2001', customer: { name: 'A', email: 'a@example.com' }, merchantReference: ref('lnk') });
		expect(r.status).toBe(200);
		expect(r.body.data).not.toHaveProperty('cardTokenId');
		const got = await c.get(`/api/v1/card-tokenization-links/${r.body.data.id}?businessId=BUS-2001`);
		expect(got.body.data).not.toHaveProperty('cardTokenId');
	});
});

/**
 * Under every profile the sandbox still answers within the spec: walking the
 * pages by their own metadata yields every record exactly once; a transfer
 * is found by its onusReference (documented filter); a bulk batch creates one
 * transfer per row.
 */
describe.each(TEST_PROFILES.map((p) => p.name))('spec invariants under profile %s', (name) => {
	const profiles = TEST_PROFILES.find((p) => p.name === name)!.profiles;

	async function walk(path: string, zeroBased: boolean): Promise<any[]> {
		const out: any[] = [];
		for (let page = zeroBased ? 0 : 1; page < 100; page++) {
			const q = zeroBased ? `page=${page}&size=100` : `pageNo=${page}&pageSize=100`;
			const d = (await c.get(`${path}${path.includes('?') ? '&' : '?'}${q}`)).body.data;
			out.push(...d.content);
			const total = d.totalNumberOfItems ?? d.totalElements;
			if (d.content.length === 0 || out.length >= total) break;
		}
		return out;
	}

	test('paging covers every record once; onusReference finds one transfer; bulk creates its rows', async () => {
		await setProfiles(profiles);
		const refs: string[] = [];
		for (let i = 0; i < 45; i++) {
			const r = await transfer(ref('inv'), 10 + i);
			expect(r.status).toBe(200);
			refs.push(r.body.data.onusReference);
		}
		const b = await bulk(ref('invb'), 3);
		expect(b.status).toBe(200);
		expect(b.body.data.transfers).toHaveLength(3);
		const all = await walk('/api/v1/transfer-requests?merchantId=MER-1001', false);
		expect(all).toHaveLength(48);
		expect(new Set(all.map((t) => t.onusReference)).size).toBe(48);
		const one = await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&onusReference=${refs[7]}`);
		expect(one.body.data.content.map((t: any) => t.onusReference)).toEqual([refs[7]]);
		const payins = await walk('/api/v1/payment-requests', true);
		expect(new Set(payins.map((p) => p.onusReference)).size).toBe(payins.length);
	});
});

describe('answer shapes (sandbox/answerShapes.ts): the same outcome in another shape', () => {
	const search = async (reference: string) =>
		(await c.get(`/api/v1/transfer-requests?merchantId=MER-1001&pageNo=1&pageSize=100`)).body.data.content.filter((t: any) => t.merchantReference === reference);

	test.each([
		['errors-in-200-unstated-status', (b: any) => expect(b).toMatchObject({ status: 'error', success: false, error: { code: 'E409' }, data: null })],
		['errors-in-200-response-code', (b: any) => expect(b).toMatchObject({ responseCode: '26', data: null })],
		['errors-in-200-status-text', (b: any) => expect(b).toMatchObject({ status: '409', data: { statusCode: '409' } })],
	])('%s: an error is answered HTTP 200 in that shape, words kept', async (profile, shape) => {
		const reference = ref('shape');
		expect((await transfer(reference)).status).toBe(200);
		await setProfiles([profile]);
		const again = await transfer(reference);
		expect(again.status).toBe(200);
		shape(again.body);
		expect(JSON.stringify(again.body)).toContain(reference);
	});

	test('empty-success: processed as usual, answered with data null', async () => {
		await setProfiles(['empty-success']);
		const reference = ref('empty');
		const r = await transfer(reference);
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ status: 200, message: 'Successful', data: null });
		expect(await search(reference)).toHaveLength(1);
	});

	test('success-without-reference: processed, answered without the references (bulk rows too)', async () => {
		await setProfiles(['success-without-reference']);
		const reference = ref('noref');
		const r = await transfer(reference);
		expect(r.body.data).toMatchObject({ amount: 100, currency: 'NGN' });
		expect(r.body.data.onusReference).toBeUndefined();
		expect(r.body.data.merchantReference).toBeUndefined();
		expect(await search(reference)).toHaveLength(1);
		const b = await bulk(ref('nobatch'), 2);
		expect(b.body.data.transfers.map((t: any) => t.onusReference)).toEqual([undefined, undefined]);
	});
});
