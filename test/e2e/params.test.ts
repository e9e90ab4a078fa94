/**
 * Issue 22 in a real n8n: parameters the way n8n hands them. Dry Run and
 * Verify Beneficiary Name First set by an expression arrive as text
 * ("true", " TRUE ", "", undefined); a clear yes/no is honoured, anything
 * else stops the run naming the item and the value, and nothing is sent.
 * Dry Run that differs between items is refused. Also: amounts the service
 * answers as text come out as numbers, payout statuses the spec does not
 * list pass through as not final, and Reconcile reports references held
 * twice on either side, and across businesses, in categories of their own.
 * Rule 5: Business (or Country Code) from an expression that gives nothing
 * is an error naming the field and the result, never the default.
 */
import type { IDataObject } from 'n8n-workflow';
import { itemsNode, manualWorkflow, business, NODE, PAYONUS } from '../../dev/workflows';
import { sandboxCredentialData } from '../../dev/sandboxCredential';
import { nodeError, nodeErrorItem, nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { until } from '../../dev/wait';

jest.setTimeout(300_000);

const MONEY = /transfer-requests\/(bank-transfer|bulk)|card-payments|mobile-money\/collection|eft-payment$/;

describe('PayOnUs parameters from expressions in n8n', () => {
	const e2e = useSandboxAndN8n('params', { clearRequestsBeforeEach: true });
	let seq = 0;
	const ref = (label: string) => `prm-${label}-${Date.now().toString(36)}-${++seq}`;

	async function run(parameters: IDataObject, items: IDataObject[], credential = e2e.credentialId) {
		const workflow = manualWorkflow(`params ${Date.now()} ${seq}`, [
			itemsNode(items.map((json) => ({ json }))),
			{ name: NODE, type: PAYONUS, typeVersion: 1, parameters, credentials: { payOnUsApi: { id: credential, name: 'PayOnUs e2e' } } },
		]);
		return await e2e.runWorkflow(workflow);
	}
	const moneyCalls = async () => (await e2e.sb.requests()).filter((r) => r.method === 'POST' && MONEY.test(String(r.path))).length;

	const transfer = (over: IDataObject = {}): IDataObject => ({
		resource: 'payout',
		operation: 'createTransfer',
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		businessId: business('BUS-2001'),
		amount: 10,
		currency: 'NGN',
		countryCode: 'NG',
		reference: '={{ $json.reference }}',
		beneficiaryBankCode: '044',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: '={{ $json.name ?? "Sandbox Success Beneficiary" }}',
		narration: 'e2e params',
		dryRun: '={{ $json.dryRun }}',
		// The tests name beneficiaries freely: no name enquiry unless a test turns it on.
		verifyBeneficiaryName: false,
		...over,
	});

	it.each(['true', 'TRUE', ' true '])('Dry Run from an expression giving the text %j is a dry run: nothing sent', async (text) => {
		const execution = await run(transfer(), [{ reference: ref('dry'), dryRun: text }]);
		expect(nodeError(execution, NODE)).toBeUndefined();
		expect(nodeItems(execution, NODE)[0].dryRun).toMatchObject({ moneyMoved: false });
		expect(await moneyCalls()).toBe(0);
	});

	it.each([
		['yes', 'the text "yes"'],
		['', 'empty text ""'],
		[undefined, 'nothing (undefined'],
	])('Dry Run from an expression giving %j stops the run naming item and value: nothing sent', async (value, shown) => {
		const json: IDataObject = { reference: ref('dry-bad') };
		if (value !== undefined) json.dryRun = value;
		const execution = await run(transfer(), [json]);
		const error = nodeError(execution, NODE) ?? '';
		expect(error).toContain('"dryRun" (Dry Run) must be true or false, got');
		expect(nodeErrorItem(execution, NODE)).toBe(0);
		expect(error).toContain(shown);
		expect(await moneyCalls()).toBe(0);
	});

	it('Dry Run true for one item and false for another is refused: nothing sent', async () => {
		const execution = await run(transfer(), [
			{ reference: ref('mix-a'), dryRun: false },
			{ reference: ref('mix-b'), dryRun: 'true' },
		]);
		expect(nodeError(execution, NODE)).toContain('"dryRun" (Dry Run) differs between items: true here, false on item 0');
		expect(nodeErrorItem(execution, NODE)).toBe(1);
		expect(await moneyCalls()).toBe(0);
	});

	it('Dry Run false from an expression sends the transfer', async () => {
		const execution = await run(transfer(), [{ reference: ref('real'), dryRun: 'false' }]);
		expect(nodeItems(execution, NODE)[0]).toMatchObject({ paymentStatus: 'PENDING' });
		expect(await moneyCalls()).toBe(1);
	});

	it('Verify Beneficiary Name First from an expression: "FALSE" is off, "" stops the item, nothing sent', async () => {
		const params = transfer({ dryRun: false, verifyBeneficiaryName: '={{ $json.verify }}' });
		const off = await run(params, [{ reference: ref('vb-off'), verify: ' FALSE ' }]);
		expect(nodeItems(off, NODE)[0]).toMatchObject({ paymentStatus: 'PENDING' });
		expect((await e2e.sb.requests()).map((r) => r.path)).not.toContain('/api/v1/transfer-requests/name-enquiry');
		await e2e.sb.clearRequests();

		const empty = await run(params, [{ reference: ref('vb-empty'), verify: '', name: 'Somebody Else' }]);
		expect(nodeError(empty, NODE)).toContain('"verifyBeneficiaryName" (Verify Beneficiary Name First) must be true or false, got empty text');
		expect(nodeErrorItem(empty, NODE)).toBe(0);
		expect(await moneyCalls()).toBe(0);
	});

	it('Allow Duplicate Rows true for item 1 and false for item 2 of one bulk batch is refused: nothing sent', async () => {
		const batch = ref('bulk');
		const row = { beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Ada', beneficiaryBankCode: '044', amount: 10, narration: 'a' };
		const execution = await run(
			{
				resource: 'payout',
				operation: 'bulkTransfer',
				source: 'items',
				businessId: business('BUS-2001'),
				currency: 'NGN',
				reference: batch,
				allowDuplicateRows: '={{ $json.allow }}',
			},
			[
				{ ...row, allow: true },
				{ ...row, allow: 'false' },
			],
		);
		expect(nodeError(execution, NODE)).toContain('"allowDuplicateRows" differs between items: false here, true on item 0');
		expect(nodeErrorItem(execution, NODE)).toBe(1);
		expect(await moneyCalls()).toBe(0);
	});

	describe('rule 5: a value an expression left empty is never filled by a default', () => {
		const mapped = { __rl: true, mode: 'id', value: '={{ $json.businessId }}' };

		it('Business {{ $json.businessId }} on an item lacking the field stops the item, naming field and result; nothing sent', async () => {
			const execution = await run(transfer({ businessId: mapped, dryRun: false }), [{ reference: ref('nobiz'), businessId: 'BUS-2001' }, { reference: ref('nobiz') }]);
			expect(nodeError(execution, NODE)).toBe('"Business" came out empty: {{ $json.businessId }} gave nothing (undefined: the expression gave no value)');
			expect(nodeErrorItem(execution, NODE)).toBe(1);
			expect(await moneyCalls()).toBe(0);
		});

		it('with Continue On Fail, the item lacking the field is an error item and the others are paid from their own business', async () => {
			const workflow = manualWorkflow(`params rule 5 ${Date.now()}`, [
				itemsNode([{ json: { reference: ref('cof-a'), businessId: 'BUS-2002' } }, { json: { reference: ref('cof-b'), businessId: '' } }]),
				{
					name: NODE,
					type: PAYONUS,
					typeVersion: 1,
					parameters: transfer({ businessId: mapped, dryRun: false }),
					credentials: { payOnUsApi: { id: e2e.credentialId, name: 'PayOnUs e2e' } },
					onError: 'continueRegularOutput',
				},
			]);
			const out = nodeItems(await e2e.runWorkflow(workflow), NODE);
			expect(String(out[1].error)).toBe('"Business" came out empty: {{ $json.businessId }} gave empty text "" [item 1]');
			const sent = (await e2e.sb.requests()).filter((r) => r.method === 'POST' && MONEY.test(String(r.path)));
			expect(sent.map((r) => (r.body as IDataObject).businessId)).toEqual(['BUS-2002']);
		});

		it("left empty in the editor, Business is the credential's Default Business ID; Country Code empty is the currency's, from an expression giving nothing an error", async () => {
			const empty = await run(transfer({ businessId: { __rl: true, mode: 'list', value: '' }, countryCode: '', dryRun: false }), [{ reference: ref('default') }]);
			expect(nodeError(empty, NODE)).toBeUndefined();
			const [sent] = (await e2e.sb.requests()).filter((r) => r.method === 'POST' && MONEY.test(String(r.path)));
			expect(sent.body).toMatchObject({ businessId: 'BUS-2001', countryCode: 'NG' });
			await e2e.sb.clearRequests();
			const country = await run(transfer({ countryCode: '={{ $json.country }}', dryRun: false }), [{ reference: ref('nocountry') }]);
			expect(nodeError(country, NODE)).toBe('"Country Code" came out empty: {{ $json.country }} gave nothing (undefined: the expression gave no value)');
			expect(await moneyCalls()).toBe(0);
		});
	});

	describe('statuses and amounts the spec does not list', () => {
		afterEach(async () => {
			await e2e.sb.setProfiles([]);
		});

		it('an amount the service answers as text comes out as a number', async () => {
			await e2e.sb.setProfiles(['text-amounts']);
			const execution = await run(transfer({ dryRun: false, amount: 1500 }), [{ reference: ref('txt') }]);
			const [out] = nodeItems(execution, NODE);
			expect(out.amount).toBe(1500);
			expect(typeof out.fee).toBe('number');
		});

		it('PROCESSING and REJECTED payouts come out as they are, kept by a search without a status filter', async () => {
			await e2e.sb.setProfiles(['unlisted-payout-statuses']);
			const processing = ref('proc');
			const rejected = ref('rej');
			const pay = async (reference: string, account: string) =>
				nodeItems(
					await run(transfer({ dryRun: false, beneficiaryAccountNumber: account, amount: 10 }), [{ reference, name: 'Anyone' }]),
					NODE,
				)[0];
			expect(await pay(processing, '9999991111')).toMatchObject({ paymentStatus: 'PROCESSING' });
			await pay(rejected, '9999991122');
			await until('the rejected transfer settles', 30_000, async () =>
				(await e2e.sb.ledger()).transfers.some((t) => t.merchantReference === rejected && t.paymentStatus === 'FAILED') ? true : undefined,
			);
			const found = nodeItems(await run({ resource: 'payout', operation: 'searchTransfers', returnAll: true }, [{}]), NODE);
			const status = (r: string) => found.find((t) => t.merchantReference === r)?.paymentStatus;
			expect(status(processing)).toBe('PROCESSING');
			expect(status(rejected)).toBe('REJECTED');
		});
	});

	describe('Reconcile: references held more than once', () => {
		const pay = async (reference: string, businessId: string, amount = 20) =>
			await e2e.sb.api<IDataObject>('POST', '/api/v1/transfer-requests/bank-transfer', {
				transferType: 'WALLET_TO_BANK_ACCOUNT',
				amount,
				currency: 'NGN',
				countryCode: 'NG',
				reference,
				narration: 'reconcile params e2e',
				businessId,
				beneficiaryAccountNumber: '9999991112',
				beneficiaryAccountName: 'Sandbox Success Beneficiary',
				beneficiaryBankCode: '044',
			});
		const reconcile = (businessId: string) => ({
			resource: 'reconciliation',
			operation: 'reconcile',
			records: 'payouts',
			businessId,
			fromDate: '={{ $now.toUTC().toFormat("yyyy-MM-dd") }}',
			toDate: '={{ $now.toUTC().plus({ days: 1 }).toFormat("yyyy-MM-dd") }}',
		});

		it('our ledger holding a reference twice is duplicateOnOurSide, not matched twice', async () => {
			const twice = ref('twice');
			await pay(twice, 'BUS-2001');
			const out = nodeItems(await run(reconcile('BUS-2001'), [{ reference: twice, amount: 20 }, { reference: twice, amount: 20 }]), NODE);
			expect(out.filter((o) => o.reference === twice).map((o) => o.category)).toEqual(['duplicateOnOurSide', 'duplicateOnOurSide']);
		});

		it('without a Business ID, a reference held in two businesses is ambiguousBusiness: the unbooked payment shows', async () => {
			const both = ref('both');
			await pay(both, 'BUS-2001');
			await pay(both, 'BUS-2002');
			// A credential without a default business: an empty Business ID then means every business.
			const data = sandboxCredentialData(e2e.handle.url, { businessId: '' });
			const { id } = await e2e.n8n.createCredential({ name: `PayOnUs params no business ${Date.now()}`, type: 'payOnUsApi', data });
			const out = nodeItems(await run(reconcile(''), [{ reference: both, amount: 20 }], id), NODE).filter((o) => o.reference === both);
			expect(out.map((o) => o.category)).toEqual(['ambiguousBusiness', 'ambiguousBusiness', 'ambiguousBusiness']);
			expect(out.filter((o) => o.service !== null).map((o) => (o.service as IDataObject).businessId).sort()).toEqual(['BUS-2001', 'BUS-2002']);
			expect(out.some((o) => o.category === 'matched')).toBe(false);
		});
	});
});
