import { withCredentialDefaults } from '../../../../nodes/shared/credential/defaults';
import { getTransfer } from '../../../../nodes/PayOnUs/resources/payout/getTransfer';
import { listBanks } from '../../../../nodes/PayOnUs/resources/payout/listBanks';
import { nameEnquiry } from '../../../../nodes/PayOnUs/resources/payout/nameEnquiry';
import { searchTransfers } from '../../../../nodes/PayOnUs/resources/payout/searchTransfers';
import { namesMatch, normaliseName } from '../../../../nodes/PayOnUs/resources/payout/shared';
import { context, fakeClient } from '../../fakes';
import { parse } from './schemaHelpers';

describe('nameEnquiry', () => {
	const raw = { businessId: 'BUS-2001', currency: 'NGN', institutionCode: '044', accountNumber: '9999991112' };
	it.each([
		[{ currency: '' }, '"currency" is required'],
		[{ institutionCode: '' }, '"institutionCode" is required'],
		[{ accountNumber: '12345' }, '"accountNumber" must be 6 to 20 digits'],
		[{ accountNumber: '' }, '"accountNumber" is required'],
	])('refuses %j', (patch, message) => {
		expect(parse(nameEnquiry.schema, { ...raw, ...patch })).toEqual({ ok: false, message });
	});

	it('posts the enquiry and returns the account', async () => {
		const answer = { accountNumber: '9999991112', accountName: 'Ada', bankCode: '044', bankName: 'Access Bank' };
		const client = fakeClient(() => answer);
		const input = parse(nameEnquiry.schema, raw);
		if (!input.ok) throw new Error(input.message);
		expect(await nameEnquiry.execute(context(client), input.data)).toEqual(answer);
		expect(client.calls).toEqual([
			{ method: 'POST', path: '/api/v1/transfer-requests/name-enquiry', body: raw },
		]);
	});

	it('takes the business from the credential when none is given', async () => {
		const client = fakeClient(() => ({}));
		// The node fills the credential's default before validation (shared/credential/defaults.ts).
		const input = parse(nameEnquiry.schema, withCredentialDefaults({ ...raw, businessId: '' }, client.defaults));
		if (!input.ok) throw new Error(input.message);
		await nameEnquiry.execute(context(client), input.data);
		expect(client.calls[0].body?.businessId).toBe('BUS-2001');
	});
});

describe('name matching rule', () => {
	it('ignores case and spacing only', () => {
		expect(normaliseName('  Ada   OBI ')).toBe('ada obi');
		expect(namesMatch('Ada Obi', 'ADA\tobi')).toBe(true);
		expect(namesMatch('Ada Obi', 'Obi Ada')).toBe(false);
		expect(namesMatch('Ada Obi', 'Ada Obi.')).toBe(false);
	});
});

describe('listBanks', () => {
	it('gets the banks of the currency, one item each', async () => {
		const banks = [{ code: '044', name: 'Access Bank' }];
		const client = fakeClient(() => banks);
		const input = parse(listBanks.schema, { currency: 'zar' });
		if (!input.ok) throw new Error(input.message);
		expect(await listBanks.execute(context(client), input.data)).toEqual(banks);
		expect(client.calls).toEqual([{ method: 'GET', path: '/api/v1/banks', qs: { key: 'ZAR' } }]);
		expect(parse(listBanks.schema, { currency: '12' })).toEqual({
			ok: false,
			message: '"currency" must be a 3-letter currency code such as NGN, KES or ZAR',
		});
	});
});

describe('getTransfer', () => {
	it('queries by onusReference and checks the match', async () => {
		const record = { onusReference: 'ONUS-TRNF-1', merchantReference: 'r' };
		const client = fakeClient(() => ({ content: [{ onusReference: 'ONUS-TRNF-0' }, record] }));
		const input = parse(getTransfer.schema, { onusReference: 'ONUS-TRNF-1', merchantId: '' });
		if (!input.ok) throw new Error(input.message);
		expect(await getTransfer.execute(context(client), input.data)).toEqual(record);
		expect(client.calls[0]).toEqual({
			method: 'GET',
			path: '/api/v1/transfer-requests',
			qs: { merchantId: 'MER-1001', onusReference: 'ONUS-TRNF-1' },
		});
	});

	it('reports a transfer that is not there', async () => {
		const client = fakeClient(() => ({ content: [{ onusReference: 'ONUS-TRNF-0' }] }));
		const input = parse(getTransfer.schema, { onusReference: 'ONUS-TRNF-1', merchantId: 'MER-1001' });
		if (!input.ok) throw new Error(input.message);
		await expect(getTransfer.execute(context(client), input.data)).rejects.toThrow(
			'No transfer "ONUS-TRNF-1" for merchant MER-1001',
		);
		expect(parse(getTransfer.schema, { onusReference: 'a b' })).toMatchObject({ ok: false });
	});
});

describe('searchTransfers', () => {
	const raw = { merchantId: '', returnAll: false, limit: 5, filters: {} };
	it('pages from 1 with the filters and a limit', async () => {
		const records = [
			{ merchantReference: 'a', onusReference: 'O1', paymentStatus: 'PENDING' },
			{ merchantReference: 'b', onusReference: 'O2', paymentStatus: 'FAILED' },
		];
		const client = fakeClient(undefined, undefined, () => records);
		const input = parse(searchTransfers.schema, {
			...raw,
			filters: { status: 'PENDING', fromDate: '2024-05-01T00:00:00.000Z', toDate: '2024-05-31', businessId: 'BUS-2001' },
		});
		if (!input.ok) throw new Error(input.message);
		expect(await searchTransfers.execute(context(client), input.data)).toEqual([records[0]]);
		expect(client.pages).toEqual([
			{
				path: '/api/v1/transfer-requests',
				qs: { merchantId: 'MER-1001', status: 'PENDING', fromDate: '2024-05-01', toDate: '2024-05-31', businessId: 'BUS-2001' },
				style: 'fromOne',
				returnAll: false,
				limit: 5,
			},
		]);
	});

	it('returns all when asked', async () => {
		const client = fakeClient(undefined, undefined, () => []);
		const input = parse(searchTransfers.schema, { ...raw, returnAll: true });
		if (!input.ok) throw new Error(input.message);
		await searchTransfers.execute(context(client), input.data);
		expect(client.pages[0]).toMatchObject({ returnAll: true, limit: undefined });
	});

	it.each([
		[{ limit: 0 }, '"limit" must be at least 1'],
		[{ limit: 2.5 }, '"limit" must be a whole number'],
		[{ filters: { status: 'DONE' } }, '"filters.status" must be one of PENDING, SUCCESSFUL, FAILED'],
		[{ filters: { fromDate: '2024-02-30' } }, '"filters.fromDate" must be a date written YYYY-MM-DD'],
		[{ merchantId: 'M 1' }, '"merchantId" must be an identifier'],
	])('refuses %j', (patch, message) => {
		const r = parse(searchTransfers.schema, { ...raw, ...patch });
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toContain(message);
	});

	it('refuses a reversed date range and a missing merchant', async () => {
		const input = parse(searchTransfers.schema, { ...raw, filters: { fromDate: '2024-06-01', toDate: '2024-05-01' } });
		if (!input.ok) throw new Error(input.message);
		await expect(searchTransfers.execute(context(fakeClient()), input.data)).rejects.toThrow(
			'must be on or after "From Date"',
		);
		const plain = parse(searchTransfers.schema, raw);
		if (!plain.ok) throw new Error(plain.message);
		await expect(searchTransfers.execute(context(fakeClient(undefined, {})), plain.data)).rejects.toThrow(
			'is required to search transfers',
		);
	});
});
