/**
 * Payout operations in a real n8n against the sandbox: each run carries
 * several items; the test checks the items n8n produced and what the sandbox
 * received (GET /_sandbox/requests) or recorded (ledger).
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeError, nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { business, NODE, payOnUsWorkflow } from '../../dev/workflows';

const HEADER = 'beneficiaryAccountNumber,beneficiaryAccountName,beneficiaryBankCode,amount,narration';

describe('PayOnUs payout operations in n8n', () => {
	const e2e = useSandboxAndN8n('payout', { clearRequestsBeforeEach: true });

	async function run(name: string, parameters: IDataObject, items: Array<{ json: IDataObject; binary?: IDataObject }>, continueOnFail = true) {
		return await e2e.runWorkflow(payOnUsWorkflow(name, e2e.credentialId, parameters, items, { continueOnFail }));
	}

	const transferParams: IDataObject = {
		resource: 'payout',
		operation: 'createTransfer',
		transferType: '={{ $json.transferType }}',
		businessId: business('={{ $json.businessId }}'),
		amount: '={{ $json.amount }}',
		currency: '={{ $json.currency }}',
		countryCode: '={{ $json.countryCode }}',
		reference: '={{ $json.reference }}',
		beneficiaryBankCode: '={{ $json.bank }}',
		eftBank: '={{ $json.eftBank }}',
		beneficiaryAccountNumber: '={{ $json.account }}',
		momoNetwork: '={{ $json.network }}',
		beneficiaryPhoneNumber: '={{ $json.phone }}',
		beneficiaryAccountName: '={{ $json.name }}',
		narration: '={{ $json.narration }}',
		email: '={{ $json.email }}',
		verifyBeneficiaryName: '={{ $json.verify }}',
		fromSubWallet: false,
	};
	const stamp = Date.now().toString(36);
	const bankItem = {
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: 'BUS-2001',
		amount: 1500.5,
		currency: 'NGN',
		countryCode: 'NG',
		reference: `e2e-bank-${stamp}`,
		bank: '044',
		account: '9999991112',
		name: 'sandbox  SUCCESS beneficiary',
		narration: 'Invoice 1',
		email: 'ops@example.com',
		verify: true,
	};

	it('creates bank, mobile money and EFT transfers; stops on a name mismatch; the same transfer again is the existing one', async () => {
		const items = [
			bankItem,
			{ ...bankItem, transferType: 'WALLET_TO_MOMO', currency: 'KES', countryCode: 'KE', reference: `e2e-momo-${stamp}`, network: 'MPESA_KE', phone: '254700000000', bank: '', account: '', name: 'Momo Person', verify: false, email: '' },
			{ ...bankItem, transferType: 'WALLET_TO_EFT', currency: 'ZAR', countryCode: 'ZA', reference: `e2e-eft-${stamp}`, eftBank: '632005', bank: '', account: '1234567890', name: 'Eft Person', verify: false },
			{ ...bankItem, reference: `e2e-mismatch-${stamp}`, name: 'Somebody Else' },
			{ ...bankItem, verify: false },
		].map((json) => ({ json }));
		// One item at a time: the duplicate (item 5) must follow the original
		// (item 1), and the request log is read in item order below. Items in
		// parallel are covered by the unit tests of Money-Moving Concurrency.
		const execution = await run('payout e2e: create transfers', { ...transferParams, options: { moneyMovingConcurrency: 1 } }, items);
		const out = nodeItems(execution, NODE);
		expect(out).toHaveLength(5);
		expect(out[0]).toMatchObject({
			paymentStatus: 'PENDING',
			currency: 'NGN',
			amount: 1500.5,
			merchantReference: bankItem.reference,
			nameCheck: { matched: true, accountName: 'Sandbox Success Beneficiary' },
		});
		expect(String(out[0].onusReference)).toMatch(/^ONUS-TRNF-/);
		expect(out[1]).toMatchObject({ currency: 'KES', merchantReference: `e2e-momo-${stamp}` });
		expect(out[2]).toMatchObject({ currency: 'ZAR', merchantReference: `e2e-eft-${stamp}` });
		expect(String(out[3].error)).toContain(
			'does not match the name on the account, nothing was sent: the bank says account 9999991112 belongs to "Sandbox Success Beneficiary", the transfer names "Somebody Else"',
		);
		// The very same transfer sent again: the existing transfer, a success marked "alreadyDone", nothing paid twice
		// (a different transfer under a used reference stays an error: test/e2e/ux.test.ts).
		expect(out[4].error).toBeUndefined();
		expect(out[4]).toMatchObject({
			outcome: 'alreadyDone',
			duplicateReference: true,
			onusReference: out[0].onusReference,
			merchantReference: bankItem.reference,
			amount: 1500.5,
			currency: 'NGN',
		});

		const requests = await e2e.sb.requests();
		const posted = requests.filter((r) => r.method === 'POST');
		expect(posted.map((r) => r.path)).toEqual([
			'/api/v1/transfer-requests/name-enquiry',
			'/api/v1/transfer-requests/bank-transfer',
			'/api/v1/transfer-requests/bank-transfer',
			'/api/v1/transfer-requests/bank-transfer',
			'/api/v1/transfer-requests/name-enquiry',
			'/api/v1/transfer-requests/bank-transfer',
		]);
		expect(posted[0].body).toEqual({ institutionCode: '044', accountNumber: '9999991112', businessId: 'BUS-2001', currency: 'NGN' });
		expect(posted[1].body).toEqual({
			transferType: 'WALLET_TO_BANK_ACCOUNT',
			amount: 1500.5,
			currency: 'NGN',
			countryCode: 'NG',
			reference: bankItem.reference,
			narration: 'Invoice 1',
			businessId: 'BUS-2001',
			beneficiaryAccountNumber: '9999991112',
			beneficiaryAccountName: 'sandbox  SUCCESS beneficiary',
			beneficiaryBankCode: '044',
			email: 'ops@example.com',
		});
		expect(posted[2].body).toMatchObject({ transferType: 'WALLET_TO_MOMO', momoNetwork: 'MPESA_KE', beneficiaryAccountNumber: '254700000000' });
		expect(posted[2].body).not.toHaveProperty('beneficiaryBankCode');
		expect(posted[3].body).toMatchObject({ transferType: 'WALLET_TO_EFT', eftBank: '632005' });
		expect(posted[5].status).toBe(409);
		// The duplicate was looked up by reference (the existing record is shown).
		const lookups = requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/transfer-requests');
		expect(lookups.some((r) => (r.query as IDataObject).merchantReference === bankItem.reference)).toBe(true);

		const ledger = await e2e.sb.ledger();
		const refs = (ledger.transfers as IDataObject[]).map((t) => t.merchantReference);
		expect(refs.filter((r) => r === bankItem.reference)).toHaveLength(1);
		expect(refs).not.toContain(`e2e-mismatch-${stamp}`);
	});

	it('refuses every bad field before sending anything', async () => {
		const good = { ...bankItem, verify: false };
		const bad: Array<[IDataObject, string]> = [
			[{ amount: 0 }, '"Amount" must be greater than 0'],
			[{ amount: 10.123 }, '"Amount" must have at most 2 decimal places'],
			[{ currency: 'NAIRA' }, '"Currency" must be a 3-letter currency code'],
			[{ countryCode: 'NGA' }, '"Country Code" must be a 2-letter country code'],
			[{ reference: 'has space' }, '"Reference" must contain no spaces'],
			[{ reference: '' }, '"Reference" is required'],
			[{ bank: '' }, '"Beneficiary Bank" is required'],
			[{ account: '12AB' }, '"Beneficiary Account Number" must be 6 to 20 digits'],
			[{ name: '' }, '"Beneficiary Account Name" is required'],
			[{ narration: '' }, '"Narration" is required'],
			[{ email: 'nope' }, '"Email" must be an e-mail address'],
			[{ transferType: 'WALLET_TO_WALLET' }, '"Transfer Type" must be one of'],
			[{ transferType: 'WALLET_TO_EFT', eftBank: '' }, '"EFT Bank" is required'],
			[{ transferType: 'WALLET_TO_MOMO', network: '', phone: '+254700000000' }, '"Mobile Money Network" is required'],
			[{ transferType: 'WALLET_TO_MOMO', network: 'MPESA_KE', phone: 'call me' }, '"Beneficiary Phone Number" must be a phone number'],
			[{ businessId: 'BUS 1' }, '"Business" must be an identifier'],
		];
		const execution = await run('payout e2e: bad transfers', transferParams, bad.map(([patch]) => ({ json: { ...good, ...patch } })));
		const out = nodeItems(execution, NODE);
		expect(out).toHaveLength(bad.length);
		bad.forEach(([, message], i) => expect(`${i}: ${String(out[i].error)}`).toContain(`${i}: ${message}`));
		// n8n's item numbering, at the end of each error item.
		bad.forEach((_, i) => expect(String(out[i].error)).toMatch(new RegExp(`\\[item ${i}\\]$`)));
		expect(await e2e.sb.requests()).toEqual([]);
	});

	it('without continueOnFail one bad item stops the run before any item is sent', async () => {
		const items = [{ json: { ...bankItem, verify: false, reference: `e2e-first-${stamp}` } }, { json: { ...bankItem, amount: -1 } }];
		const execution = await run('payout e2e: stop on bad item', transferParams, items, false);
		expect(nodeError(execution, NODE)).toContain('"Amount" must be greater than 0');
		expect(await e2e.sb.requests()).toEqual([]);
	});

	it('runs a name enquiry and lists banks', async () => {
		const enquiry = await run(
			'payout e2e: name enquiry',
			{
				resource: 'payout',
				operation: 'nameEnquiry',
				businessId: business('BUS-2001'),
				currency: '={{ $json.currency }}',
				institutionCode: '={{ $json.bank }}',
				accountNumber: '={{ $json.account }}',
			},
			[
				{ json: { currency: 'NGN', bank: '044', account: '9999991112' } },
				{ json: { currency: 'NGN', bank: '058', account: '9999991118' } },
				{ json: { currency: 'NGN', bank: '058', account: '12' } },
				{ json: { currency: 'NGN', bank: '', account: '9999991112' } },
			],
		);
		const out = nodeItems(enquiry, NODE);
		expect(out[0]).toEqual({ accountNumber: '9999991112', accountName: 'Sandbox Success Beneficiary', bankCode: '044', bankName: 'Access Bank' });
		expect(out[1]).toMatchObject({ accountNumber: '9999991118', bankCode: '058', bankName: 'Guaranty Trust Bank' });
		expect(out[2].error).toContain('"Account Number" must be 6 to 20 digits');
		expect(out[3].error).toContain('"Bank" is required');
		const requests = await e2e.sb.requests();
		expect(requests.map((r) => r.body)).toEqual([
			{ institutionCode: '044', accountNumber: '9999991112', businessId: 'BUS-2001', currency: 'NGN' },
			{ institutionCode: '058', accountNumber: '9999991118', businessId: 'BUS-2001', currency: 'NGN' },
		]);

		await e2e.sb.clearRequests();
		const banks = await run('payout e2e: list banks', { resource: 'payout', operation: 'listBanks', currency: '={{ $json.currency }}' }, [
			{ json: { currency: 'ZAR' } },
			{ json: { currency: 'kes' } },
			{ json: { currency: 'KESH' } },
		]);
		const list = nodeItems(banks, NODE);
		expect(list).toContainEqual({ code: '632005', name: 'ABSA Bank' });
		expect(list).toContainEqual({ code: '68', name: 'Equity Bank Kenya' });
		expect(list[list.length - 1].error).toContain('"Currency" must be a 3-letter currency code');
		expect((await e2e.sb.requests()).map((r) => [r.path, r.query])).toEqual([
			['/api/v1/banks', { key: 'ZAR' }],
			['/api/v1/banks', { key: 'KES' }],
		]);
	});

	it('gets a transfer and searches transfers (limit and return all)', async () => {
		const ledger = await e2e.sb.ledger();
		const known = (ledger.transfers as IDataObject[]).find((t) => t.merchantReference === bankItem.reference)!;
		await e2e.sb.clearRequests();
		const get = await run(
			'payout e2e: get transfer',
			{ resource: 'payout', operation: 'getTransfer', onusReference: '={{ $json.onus }}', merchantId: '' },
			[{ json: { onus: known.onusReference } }, { json: { onus: 'ONUS-TRNF-0000000000000-01012024-000000' } }, { json: { onus: 'a b' } }],
		);
		const got = nodeItems(get, NODE);
		expect(got[0]).toMatchObject({ onusReference: known.onusReference, merchantReference: bankItem.reference });
		expect(got[1].error).toMatch(/^No transfer ".*" for merchant MER-1001/);
		expect(got[2].error).toContain('"PayOnUs Reference" must be an identifier');
		expect((await e2e.sb.requests()).map((r) => r.query)).toEqual([
			{ merchantId: 'MER-1001', onusReference: known.onusReference },
			{ merchantId: 'MER-1001', onusReference: 'ONUS-TRNF-0000000000000-01012024-000000' },
		]);

		await e2e.sb.clearRequests();
		const search = await run(
			'payout e2e: search transfers',
			{
				resource: 'payout',
				operation: 'searchTransfers',
				merchantId: '',
				returnAll: '={{ $json.all }}',
				limit: '={{ $json.limit }}',
				filters: { businessId: 'BUS-2001' },
			},
			[{ json: { all: false, limit: 2 } }, { json: { all: true, limit: 1 } }, { json: { all: false, limit: 0 } }],
		);
		const found = nodeItems(search, NODE);
		const total = (ledger.transfers as IDataObject[]).filter((t) => t.businessId === 'BUS-2001').length;
		expect(found).toHaveLength(2 + total + 1);
		expect(found[found.length - 1].error).toContain('"Limit" must be at least 1');
		const queries = (await e2e.sb.requests()).map((r) => r.query as IDataObject);
		expect(queries[0]).toEqual({ merchantId: 'MER-1001', businessId: 'BUS-2001', pageNo: '1', pageSize: '2' });
		expect(queries.slice(1).every((q) => q.pageSize === '100')).toBe(true);
	});

	it('sends a bulk transfer from a CSV file, and refuses a file with bad rows', async () => {
		const good = `${HEADER}\r\n9999991112,"Obi, Ada",044,100.25,salary\r\n0123451112,Bo,058,200,\r\n`;
		const badCsv = `${HEADER}\n9999991112,Ada,044,100,\n12AB,,044,0,\n`;
		const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
		const batch = `e2e-bulk-${stamp}`;
		const execution = await run(
			'payout e2e: bulk from CSV',
			{
				resource: 'payout',
				operation: 'bulkTransfer',
				source: 'binary',
				binaryPropertyName: 'data',
				businessId: business('BUS-2001'),
				currency: 'NGN',
				reference: '={{ $json.reference }}',
			},
			[
				{ json: { reference: batch }, binary: { data: { data: b64(good), mimeType: 'text/csv', fileName: 'pay.csv' } } },
				{ json: { reference: `${batch}-bad` }, binary: { data: { data: b64(badCsv), mimeType: 'text/csv', fileName: 'bad.csv' } } },
			],
		);
		const out = nodeItems(execution, NODE);
		expect(out[0]).toMatchObject({ reference: batch, totalCount: 2, totalAmount: 300.25 });
		expect((out[0].transfers as IDataObject[]).map((t) => t.merchantReference)).toEqual([`${batch}-1`, `${batch}-2`]);
		expect((out[0].transfers as IDataObject[])[0]).toMatchObject({ beneficiaryAccountName: 'Obi, Ada', amount: 100.25 });
		expect(out[1].error).toContain(
			'Bulk transfer refused, nothing was sent: 3 problem(s) in the CSV (line 1 is the header): line 3 (row 2): "beneficiaryAccountNumber" must be 6 to 20 digits (got "12AB"); line 3 (row 2): "beneficiaryAccountName" is required; line 3 (row 2): "amount" must be greater than 0 (got "0") [item 1]',
		);
		const requests = await e2e.sb.requests();
		expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/api/v1/transfer-requests/bulk/bank-transfer', 200]]);
		expect(String((requests[0].headers as IDataObject)['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
	});

	/** Bulk Transfer from the input items of BUS-2001 in NGN. */
	const bulkFromItems = (reference: string): IDataObject => ({
		resource: 'payout',
		operation: 'bulkTransfer',
		source: 'items',
		businessId: business('BUS-2001'),
		currency: 'NGN',
		reference,
	});

	it('builds one bulk batch from all input items, paired with every item', async () => {
		const batch = `e2e-items-${stamp}`;
		const rows = [
			{ beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Ada', beneficiaryBankCode: '044', amount: 10, narration: 'a', reference: batch },
			{ beneficiaryAccountNumber: '0123451112', beneficiaryAccountName: 'Bo, Jr', beneficiaryBankCode: '058', amount: 20.5 },
			{ beneficiaryAccountNumber: '0123451113', beneficiaryAccountName: 'Cy', beneficiaryBankCode: '057', amount: 30 },
		];
		const params = bulkFromItems(`={{ $json.reference }}`);
		const execution = await run('payout e2e: bulk from items', params, rows.map((json) => ({ json })));
		const out = nodeItems(execution, NODE);
		expect(out).toHaveLength(1);
		expect(out[0]).toMatchObject({ reference: batch, totalCount: 3, totalAmount: 60.5 });
		const runData = (execution.data as { resultData: { runData: Record<string, Array<{ data: { main: Array<Array<{ pairedItem: unknown }>> } }>> } })
			.resultData.runData[NODE][0].data.main[0][0].pairedItem;
		expect(runData).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const ledger = await e2e.sb.ledger();
		const refs = (ledger.transfers as IDataObject[]).filter((t) => t.bulkReference === batch).map((t) => t.merchantReference);
		expect(refs.sort()).toEqual([`${batch}-1`, `${batch}-2`, `${batch}-3`]);

		await e2e.sb.clearRequests();
		const bad = await run('payout e2e: bulk from bad items', params, [
			{ json: { ...rows[0], reference: `${batch}-x` } },
			{ json: { ...rows[1], amount: 'ten' } },
		]);
		expect(nodeItems(bad, NODE)[0].error).toContain('item 2: "amount" must be a number such as 1500.50 (got "ten")');
		expect(await e2e.sb.requests()).toEqual([]);
	});

	it('refuses a bulk batch from items whose account number is a number (a spreadsheet dropped its leading 0): nothing is paid (rule 7, issue 36)', async () => {
		const batch = `e2e-numeric-${stamp}`;
		const params = bulkFromItems(batch);
		const before = ((await e2e.sb.ledger()).transfers as IDataObject[]).length;
		await e2e.sb.clearRequests();
		const execution = await run('payout e2e: bulk with a numeric account', params, [
			{ json: { beneficiaryAccountNumber: '0123451112', beneficiaryAccountName: 'Ada', beneficiaryBankCode: '058', amount: 10 } },
			// 0123451112 read from a spreadsheet column of numbers
			{ json: { beneficiaryAccountNumber: 123451112, beneficiaryAccountName: 'Bo', beneficiaryBankCode: '058', amount: 20 } },
		]);
		const error = String(nodeItems(execution, NODE)[0].error);
		expect(error).toContain('Bulk transfer refused, nothing was sent');
		expect(error).toMatch(
			/2\)?: "beneficiaryAccountNumber" must be text, not the number 123451112: a number loses leading zeros \(0123456789 becomes 123456789\), so keep it as text where it comes from \(format the spreadsheet column as Text, or put the value in quotes\)/,
		);
		expect(await e2e.sb.requests()).toEqual([]);
		const after = (await e2e.sb.ledger()).transfers as IDataObject[];
		expect(after).toHaveLength(before);
		expect(after.filter((t) => t.bulkReference === batch)).toEqual([]);
	});
});
