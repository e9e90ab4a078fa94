import { createTransfer as op } from '../../../../nodes/PayOnUs/resources/payout/createTransfer';
import { PayOnUsInputError } from '../../../../nodes/PayOnUs/resources/types';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { context, fakeClient } from '../../fakes';
import { parse } from './schemaHelpers';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { PayOnUsApi } from '../../../../credentials/PayOnUsApi.credentials';
import { PayOnUs } from '../../../../nodes/PayOnUs/PayOnUs.node';
import { startSandbox, type SandboxHandle } from '../../../../sandbox/server';
import { SandboxClient } from '../../../../sandbox/client';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../../../dev/inProcessN8n';

const bank = {
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	amount: 1500.5,
	currency: 'NGN',
	countryCode: 'NG',
	reference: 'pay-001',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Sandbox Success Beneficiary',
	narration: 'Invoice 1',
	email: '',
	verifyBeneficiaryName: false,
	fromSubWallet: false,
};

const ok = (raw: object) => {
	const r = parse(op.schema, raw);
	if (!r.ok) throw new Error(r.message);
	return r.data;
};

describe('Country Code from the currency (left empty)', () => {
	it.each([
		['NGN', 'NG'],
		['KES', 'KE'],
		['GHS', 'GH'],
		['ZAR', 'ZA'],
	])('%s: %s', (currency, country) => {
		expect(ok({ ...bank, currency, countryCode: '' }).countryCode).toBe(country);
	});

	it('a Country Code given is kept; USD has no single country, so it must be given', () => {
		expect(ok({ ...bank, currency: 'KES', countryCode: 'ke' }).countryCode).toBe('KE');
		const r = parse(op.schema, { ...bank, currency: 'USD', countryCode: '' });
		expect(r.ok).toBe(false);
		expect(r.ok ? '' : r.message).toContain('"countryCode" is required for USD');
	});
});

describe('createTransfer schema', () => {
	it.each([
		[{ amount: 0 }, '"amount" must be greater than 0'],
		[{ amount: -5 }, '"amount" must be greater than 0'],
		[{ amount: 1.234 }, '"amount" must have at most 2 decimal places'],
		[{ amount: 'abc' }, '"amount" must be a number'],
		[{ currency: 'NAIRA' }, '"currency" must be a 3-letter currency code such as NGN, KES or ZAR'],
		[{ countryCode: 'NGA' }, '"countryCode" must be a 2-letter country code such as NG, KE or ZA'],
		[{ reference: '' }, '"reference" is required'],
		[{ reference: 'has space' }, '"reference" must contain no spaces'],
		[{ reference: 'x'.repeat(101) }, '"reference" must be at most 100 characters'],
		[{ beneficiaryBankCode: '' }, '"beneficiaryBankCode" is required'],
		[{ beneficiaryAccountNumber: '12AB' }, '"beneficiaryAccountNumber" must be 6 to 20 digits'],
		[{ beneficiaryAccountNumber: '' }, '"beneficiaryAccountNumber" is required'],
		[{ beneficiaryAccountName: ' ' }, '"beneficiaryAccountName" is required'],
		[{ narration: '' }, '"narration" is required'],
		[{ email: 'not-an-email' }, '"email" must be an e-mail address'],
		[{ transferType: 'WALLET_TO_WALLET' }, '"transferType" must be one of'],
		[{ businessId: 'BUS 1' }, '"businessId" must be an identifier'],
		[{ fromSubWallet: true, walletId: '' }, '"walletId" is required'],
	])('refuses %j', (patch, message) => {
		const r = parse(op.schema, { ...bank, ...patch });
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toContain(message);
	});

	it('needs the fields of the chosen type only', () => {
		expect(parse(op.schema, { ...bank, transferType: 'WALLET_TO_EFT', eftBank: '' })).toEqual({
			ok: false,
			message: '"eftBank" is required',
		});
		const momo = { ...bank, transferType: 'WALLET_TO_MOMO', beneficiaryBankCode: undefined, beneficiaryAccountNumber: undefined, momoNetwork: 'MPESA-KE' };
		expect(parse(op.schema, { ...momo, beneficiaryPhoneNumber: 'abc' })).toEqual({
			ok: false,
			message: '"beneficiaryPhoneNumber" must be a phone number in international format: + followed by 7 to 15 digits, e.g. +2348012345678',
		});
		expect(parse(op.schema, { ...momo, momoNetwork: '', beneficiaryPhoneNumber: '254700000000' })).toEqual({
			ok: false,
			message: '"momoNetwork" is required',
		});
		const data = ok({ ...momo, beneficiaryPhoneNumber: '+254 700-000000' });
		expect(data.beneficiaryAccountNumber).toBe('+254700000000');
	});

	it('normalises case and trims', () => {
		const d = ok({ ...bank, currency: 'ngn', countryCode: 'ng', reference: ' pay-001 ', amount: '1500.50' });
		expect(d).toMatchObject({ currency: 'NGN', countryCode: 'NG', reference: 'pay-001', amount: 1500.5 });
	});
});

describe('createTransfer handler', () => {
	const transferAnswer = {
		paymentStatus: 'PENDING',
		currency: 'NGN',
		amount: 1500.5,
		fee: 26.88,
		onusReference: 'ONUS-TRNF-1',
		merchantReference: 'pay-001',
	};

	it('sends the bank transfer with moneyMoving and returns the record', async () => {
		const client = fakeClient(() => transferAnswer);
		const out = await op.execute(context(client), ok({ ...bank, email: 'a@b.co' }));
		expect(out).toEqual(transferAnswer);
		expect(client.calls).toHaveLength(1);
		const call = client.calls[0];
		expect(call).toMatchObject({ method: 'POST', path: '/api/v1/transfer-requests/bank-transfer' });
		expect(call.body).toEqual({
			transferType: 'WALLET_TO_BANK_ACCOUNT',
			amount: 1500.5,
			currency: 'NGN',
			countryCode: 'NG',
			reference: 'pay-001',
			narration: 'Invoice 1',
			businessId: 'BUS-2001',
			beneficiaryAccountNumber: '9999991112',
			beneficiaryAccountName: 'Sandbox Success Beneficiary',
			beneficiaryBankCode: '044',
			email: 'a@b.co',
		});
		expect(call.moneyMoving?.reference).toBe('pay-001');
	});

	it('sends only the type fields: momo and EFT, and the sub-wallet', async () => {
		const client = fakeClient(() => transferAnswer);
		await op.execute(
			context(client),
			ok({ ...bank, transferType: 'WALLET_TO_MOMO', momoNetwork: 'MPESA-KE', beneficiaryPhoneNumber: '254700000000', currency: 'KES', countryCode: 'KE' }),
		);
		await op.execute(
			context(client),
			ok({ ...bank, transferType: 'WALLET_TO_EFT', eftBank: 'ABSA', currency: 'ZAR', countryCode: 'ZA', fromSubWallet: true, walletId: 'SW-1' }),
		);
		expect(client.calls[0].body).toMatchObject({ momoNetwork: 'MPESA-KE', beneficiaryAccountNumber: '254700000000' });
		expect(client.calls[0].body).not.toHaveProperty('beneficiaryBankCode');
		expect(client.calls[0].body).not.toHaveProperty('eftBank');
		expect(client.calls[1].body).toMatchObject({ eftBank: 'ABSA', fromSubWallet: true, walletId: 'SW-1' });
		expect(client.calls[1].body).not.toHaveProperty('beneficiaryBankCode');
	});

	it('the lookup finds the transfer by reference and checks the match itself', async () => {
		const records = [
			{ merchantReference: 'other', onusReference: 'O-1' },
			{ merchantReference: 'pay-001', onusReference: 'O-2', businessId: 'BUS-9999' },
			{ merchantReference: 'pay-001', onusReference: 'O-3', businessId: 'BUS-2001' },
		];
		const client = fakeClient((o) => (o.method === 'GET' ? { content: records, lastPage: 1 } : transferAnswer));
		await op.execute(context(client), ok(bank));
		const found = await client.calls[0].moneyMoving!.lookup();
		expect(found).toEqual(records[2]);
		// The filtered query first, then (filter ignored: other records came back) a scan.
		expect(client.calls[1].qs).toEqual({
			merchantId: 'MER-1001',
			merchantReference: 'pay-001',
			businessId: 'BUS-2001',
			pageNo: 1,
			pageSize: 100,
		});
	});

	it('the lookup answers undefined when the filter works and finds nothing (after reading the whole list: the filter is not documented)', async () => {
		const client = fakeClient((o) => (o.method === 'GET' ? { content: [], lastPage: 1 } : transferAnswer));
		await op.execute(context(client), ok(bank));
		expect(await client.calls[0].moneyMoving!.lookup()).toBeUndefined();
		// Issue 14: an empty answer to the undocumented merchantReference filter proves nothing; the unfiltered list is read too.
		expect(client.calls).toHaveLength(3);
		expect(client.calls[2].qs).not.toHaveProperty('merchantReference');
	});

	it('the lookup scans the newest pages when the filter is ignored', async () => {
		const page = (n: number) => ({
			content: Array.from({ length: 100 }, (_, i) => ({ merchantReference: n === 3 && i === 42 ? 'pay-001' : `x-${n}-${i}` })),
			lastPage: 5,
		});
		const client = fakeClient((o: RequestOptions) =>
			o.method === 'GET' ? page(Number(o.qs?.pageNo)) : transferAnswer,
		);
		await op.execute(context(client), ok(bank));
		const found = await client.calls[0].moneyMoving!.lookup();
		expect(found).toEqual({ merchantReference: 'pay-001' });
		const gets = client.calls.filter((c) => c.method === 'GET');
		expect(gets.map((c) => c.qs?.pageNo)).toEqual([1, 1, 2, 3]);
		expect(gets[1].qs).not.toHaveProperty('merchantReference');
	});

	it('verifies the beneficiary name first and sends when it matches ignoring case and spacing', async () => {
		const client = fakeClient((o) =>
			o.path.endsWith('name-enquiry')
				? { accountNumber: '9999991112', accountName: 'SANDBOX  success Beneficiary ', bankCode: '044', bankName: 'Access Bank' }
				: transferAnswer,
		);
		const out = await op.execute(context(client), ok({ ...bank, verifyBeneficiaryName: true }));
		expect(client.calls.map((c) => c.path)).toEqual([
			'/api/v1/transfer-requests/name-enquiry',
			'/api/v1/transfer-requests/bank-transfer',
		]);
		expect(client.calls[0].body).toEqual({ institutionCode: '044', accountNumber: '9999991112', businessId: 'BUS-2001', currency: 'NGN' });
		expect(out).toMatchObject({ onusReference: 'ONUS-TRNF-1', nameCheck: { matched: true, accountName: 'SANDBOX  success Beneficiary ' } });
	});

	it('stops on a name mismatch, sending nothing, and shows both names', async () => {
		const client = fakeClient(() => ({ accountName: 'Ada Obi' }));
		const run = op.execute(context(client), ok({ ...bank, verifyBeneficiaryName: true, beneficiaryAccountName: 'Ada Obia' }));
		await expect(run).rejects.toBeInstanceOf(PayOnUsInputError);
		await expect(run).rejects.toThrow(/"Ada Obi".*"Ada Obia"/);
		expect(client.calls).toHaveLength(1);
	});

	it('refuses before sending when the credential has no merchant (no lookup possible)', async () => {
		const client = fakeClient(() => transferAnswer, { businessId: 'BUS-2001' });
		await expect(op.execute(context(client), ok(bank))).rejects.toThrow(/Default Merchant ID/);
		expect(client.calls).toHaveLength(0);
	});

	it('passes transport errors through (e.g. the duplicate report)', async () => {
		const client = fakeClient(() => {
			throw new Error('Duplicate reference');
		});
		await expect(op.execute(context(client), ok(bank))).rejects.toThrow('Duplicate reference');
	});
});

/**
 * (Formerly the node.alreadyDone test.) The whole node, through the real
 * transport and the sandbox.
 *
 * Issue 31, point 5: a repeat of the very same request. When a payout's
 * reference already holds this same transfer (same amount, currency and
 * beneficiary), Create Transfer returns the existing transfer as a SUCCESS
 * item marked `outcome: "alreadyDone"`; a reference held by a different
 * request stays an error. Through the real transport (n8n-core's request
 * helpers) and the sandbox, which answers a reused reference with 409.
 */

jest.setTimeout(60_000);

let sb: SandboxHandle;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, config: { tokenCallsPerMinute: 1_000_000, transferDelayMs: 2, requestLogLimit: 1000 } });
});
afterAll(async () => {
	await sb.stop();
});

function n8nContext(params: IDataObject): IExecuteFunctions {
	const n8n = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
	const base = n8n.context();
	const node = { ...(base.getNode as () => IDataObject)(), parameters: params };
	return {
		...base,
		getNode: () => node,
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name: string, _i: number, fallback?: unknown) => (name in params ? params[name] : fallback),
		continueOnFail: () => true,
		getExecutionId: () => 'exec-1',
	} as unknown as IExecuteFunctions;
}

const transfer = (reference: string, amount = 100): IDataObject => ({
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: 'BUS-2001',
	reference,
	amount,
	currency: 'NGN',
	countryCode: 'NG',
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Sandbox Success Beneficiary',
	narration: 'already done',
	verifyBeneficiaryName: false,
});

async function runOnce(params: IDataObject): Promise<IDataObject> {
	const [out] = (await new PayOnUs().execute.call(n8nContext(params))) as INodeExecutionData[][];
	expect(out).toHaveLength(1);
	return out[0].json;
}

async function made(reference: string): Promise<IDataObject[]> {
	const ledger = (await new SandboxClient(sb.url).ledger()).transfers as IDataObject[];
	return ledger.filter((t) => t.merchantReference === reference);
}

describe('Create Transfer sent again with the same reference and the same details', () => {
	it('the existing transfer, as a success item marked outcome "alreadyDone"; paid once', async () => {
		const reference = `again-${Date.now().toString(36)}`;
		const first = await runOnce(transfer(reference));
		expect(first.error).toBeUndefined();
		expect(first.outcome).toBeUndefined();
		const again = await runOnce(transfer(reference));
		expect(again.error).toBeUndefined();
		expect(again).toMatchObject({ outcome: 'alreadyDone', onusReference: first.onusReference, merchantReference: reference, amount: 100, currency: 'NGN' });
		expect(await made(reference)).toHaveLength(1);
	});

	it('a reference held by a DIFFERENT transfer stays an error; nothing more is paid', async () => {
		const reference = `other-${Date.now().toString(36)}`;
		await runOnce(transfer(reference, 100));
		const other = await runOnce(transfer(reference, 250));
		expect(String(other.error)).toMatch(/^Reference ".*" is already used by a different transfer/);
		expect(other.outcome).toBeUndefined();
		expect(await made(reference)).toHaveLength(1);
	});
});
