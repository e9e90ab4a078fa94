/**
 * Bank transfer payins: dynamic and fixed virtual accounts, simulated funding,
 * Get Payment and List Payments (one sandbox: later tests read the payins
 * earlier ones made), and a bad item stopping the execution before ANY
 * request when continueOnFail is off.
 *
 * Payin operations of the PayOnUs node in a real n8n against the sandbox
 * (set-up in payin.fixtures.ts). Each test runs ONE workflow (Manual Trigger
 * -> Code items -> PayOnUs) whose items mix good inputs and bad ones
 * (continueOnFail on): the good ones must reach the sandbox with the
 * documented request, each bad one must become an error item naming the item
 * and the field, and nothing of a bad item may reach the sandbox.
 *
 * Run: npm run build && npx jest --selectProjects e2e test/e2e/payin.accounts.test.ts -i
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeError } from '../harness/e2e';
import { business, NODE } from '../../dev/workflows';
import { customerParams, e, payinSuite, person } from './payin.fixtures';

const payin = payinSuite();
const { n8n, run, outcome } = payin;

const dynamicParams = {
	resource: 'payin',
	operation: 'createDynamicAccount',
	businessId: business(e('businessId')),
	amount: e('amount'),
	reference: e('reference'),
	...customerParams,
	additionalFields: { customerPhone: e('phone'), customerBvn: e('bvn') },
};

let dynamicAccounts: IDataObject[] = [];

describe('payin in real n8n', () => {
	it('a bad item stops the whole execution before any request (no continueOnFail)', async () => {
		const execution = await run(
			'dynamic account, item 2 bad',
			dynamicParams,
			[
				{ ...person, businessId: 'BUS-2001', amount: 100, reference: 'stop-1' },
				{ ...person, businessId: 'BUS-2001', amount: 0, reference: 'stop-2' },
			],
			{ continueOnFail: false },
		);
		expect(execution.status).toBe('error');
		expect(nodeError(execution, NODE)).toBe('"Amount" must be greater than 0');
		expect(await payin.sb.requests()).toEqual([]);
	});

	it('Create Dynamic Account: good items reach the sandbox, bad ones are error items naming item and field', async () => {
		const execution = await run('create dynamic account', dynamicParams, [
			{ ...person, businessId: 'BUS-2001', amount: 5000, reference: 'dyn-1', phone: '+2348012345678' },
			{ ...person, businessId: 'BUS-2001', amount: '2500.50', reference: 'dyn-2' },
			{ ...person, businessId: 'BUS-2001', amount: 0, reference: 'bad-3' },
			{ ...person, businessId: 'BUS-2001', amount: 10.123, reference: 'bad-4' },
			{ ...person, businessId: 'BUS-2001', amount: 10, reference: 'has space' },
			{ ...person, businessId: 'BUS-2001', amount: 10, reference: '' },
			{ ...person, email: 'not-an-email', businessId: 'BUS-2001', amount: 10, reference: 'bad-7' },
			{ ...person, name: '', businessId: 'BUS-2001', amount: 10, reference: 'bad-8' },
			{ ...person, businessId: 'BUS-2001', amount: 10, reference: 'bad-9', phone: '08012345678' },
			{ ...person, businessId: 'BUS-2001', amount: 10, reference: 'bad-10', bvn: '123' },
			{ ...person, businessId: 'BUS 2001', amount: 10, reference: 'bad-11' },
			{ ...person, businessId: 'BUS-2001', amount: 'ten', reference: 'bad-12' },
			// an expression that gives nothing is never filled by the credential's Default Business ID (rule 5)
			{ ...person, businessId: '', amount: 10, reference: 'bad-13' },
		]);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'"Amount" must be greater than 0 [item 2]',
			'"Amount" must have at most 2 decimal places [item 3]',
			'"Reference" must contain no spaces or special characters (letters, digits and symbols like - _ . / only) [item 4]',
			'"Reference" is required [item 5]',
			'"Customer Email" must be an e-mail address such as name@example.com [item 6]',
			'"Customer Name" is required [item 7]',
			'"Customer Phone" must be in international format: + followed by 7 to 15 digits, e.g. +2348012345678 [item 8]',
			'"Customer BVN" must be 11 digits [item 9]',
			'"Business" must be an identifier without spaces or slashes, e.g. BUS-2001 [item 10]',
			'"Amount" must be a number [item 11]',
			'"Business" came out empty: {{ $json.businessId }} gave empty text "" [item 12]',
		]);
		expect(ok).toHaveLength(2);
		expect(ok[0]).toMatchObject({ amount: 5000, merchantReference: 'dyn-1' });
		expect(ok[0].accountNumber).toMatch(/^\d{10}$/);
		expect(String(ok[0].onusReference)).toMatch(/^ONUS-NUB-/);
		expect(ok[0].nextStep).toContain(`transfer exactly 5000 NGN to account ${String(ok[0].accountNumber)}`);
		expect(ok[1]).toMatchObject({ amount: 2500.5, merchantReference: 'dyn-2' });

		const requests = await payin.requestsByReference();
		expect(requests.map((r) => [r.method, r.path, (r.body as IDataObject).reference])).toEqual([
			['POST', '/api/v1/virtual-accounts/dynamic', 'dyn-1'],
			['POST', '/api/v1/virtual-accounts/dynamic', 'dyn-2'],
		]);
		expect(requests[0].body).toEqual({
			amount: 5000,
			reference: 'dyn-1',
			businessId: 'BUS-2001',
			customer: { name: 'Ada Obi', email: 'ada@example.com', phone: '+2348012345678' },
		});
		expect((requests[1].body as IDataObject).businessId).toBe('BUS-2001');
		dynamicAccounts = ok;
	});

	it('Simulate Dynamic Account Payment funds the account; bad fields are refused', async () => {
		const [first] = dynamicAccounts;
		const execution = await run(
			'simulate payment',
			{
				resource: 'payin',
				operation: 'simulatePayment',
				onusReference: e('onusReference'),
				accountNumber: e('accountNumber'),
				amount: e('amount'),
				paymentStatus: e('paymentStatus'),
				forDynamicAccount: true,
			},
			[
				{ onusReference: first.onusReference, accountNumber: first.accountNumber, amount: first.amount, paymentStatus: 'SUCCESSFUL' },
				{ onusReference: first.onusReference, accountNumber: 'ABC', amount: 1, paymentStatus: 'SUCCESSFUL' },
				{ onusReference: first.onusReference, accountNumber: first.accountNumber, amount: 1, paymentStatus: 'DONE' },
				{ onusReference: '', accountNumber: first.accountNumber, amount: 1, paymentStatus: 'SUCCESSFUL' },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'"Account Number" must be 6 to 20 digits [item 1]',
			'"Payment Status" must be one of SUCCESSFUL, FAILED [item 2]',
			'"PayOnUs Reference" is required [item 3]',
		]);
		expect(ok).toHaveLength(1);
		expect(ok[0]).toMatchObject({ onusReference: first.onusReference, simulated: true, paymentStatus: 'SUCCESSFUL' });
		const requests = await payin.sb.requests();
		expect(requests.map((r) => [r.method, r.path])).toEqual([['POST', '/api/v1/fund-ngn-account']]);
		expect(requests[0].body).toEqual({
			onusReference: first.onusReference,
			accountNumber: first.accountNumber,
			amount: first.amount,
			paymentStatus: 'SUCCESSFUL',
			forDynamicAccount: true,
		});
	});

	it('Simulate Dynamic Account Payment is refused with a production credential, nothing sent', async () => {
		// The editor's REST endpoint (the public API's schema check trips over the hidden fields here).
		const { id: production } = await n8n.rest<{ id: string }>('POST', '/credentials', {
			name: 'PayOnUs production e2e',
			type: 'payOnUsApi',
			data: {
				environment: 'production',
				clientId: 'prod-client',
				clientSecret: 'prod-secret',
				webhookVerificationKey: 'prod-key',
				merchantId: 'MER-1001',
				businessId: 'BUS-2001',
			},
		});
		const execution = await run(
			'simulate payment in production',
			{ resource: 'payin', operation: 'simulatePayment', onusReference: 'ONUS-NUB-1', accountNumber: '9900000001', amount: 10, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true },
			[{}],
			{ continueOnFail: true, credential: production },
		);
		expect(outcome(execution).errors).toEqual([
			'Simulate Dynamic Account Payment only works in the sandbox, and this PayOnUs credential points at production. Use a sandbox credential; nothing was sent. [item 0]',
		]);
		expect(await payin.sb.requests()).toEqual([]);
		await n8n.rest('DELETE', `/credentials/${production}`).catch(() => undefined);
	});

	it('Get Payment reads the funded payin by onusReference; bad references are refused', async () => {
		const [first] = dynamicAccounts;
		const execution = await run(
			'get payment',
			{ resource: 'payin', operation: 'getPayment', businessId: business(e('businessId')), onusReference: e('onusReference') },
			[
				{ businessId: 'BUS-2001', onusReference: first.onusReference },
				{ businessId: 'BUS-2001', onusReference: '' },
				{ businessId: 'BUS-2001', onusReference: 'ONUS NUB' },
				{ businessId: 'BUS/2001', onusReference: first.onusReference },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'"PayOnUs Reference" is required [item 1]',
			'"PayOnUs Reference" must be an identifier without spaces or slashes, e.g. ONUS-NUB-1234567890123-31052024-101500 [item 2]',
			'"Business" must be an identifier without spaces or slashes, e.g. BUS-2001 [item 3]',
		]);
		expect(ok).toHaveLength(1);
		expect(ok[0]).toMatchObject({ onusReference: first.onusReference, paymentStatus: 'SUCCESSFUL', businessId: 'BUS-2001' });
		const requests = await payin.sb.requests();
		expect(requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/api/v1/payment-requests/businesses/BUS-2001', { onusReference: first.onusReference }],
		]);
	});

	it('List Payments: filters, Return All and Limit; bad filters are refused', async () => {
		const execution = await run(
			'list payments',
			{
				resource: 'payin',
				operation: 'listPayments',
				returnAll: e('returnAll'),
				limit: e('limit'),
				filters: { status: e('status'), businessId: e('businessId'), fromDate: e('fromDate'), toDate: e('toDate') },
			},
			[
				{ returnAll: true, status: 'SUCCESSFUL', businessId: 'BUS-2001' },
				{ returnAll: false, limit: 1, status: 'PENDING' },
				{ returnAll: false, limit: 0 },
				{ returnAll: true, fromDate: '2024-13-01' },
				{ returnAll: true, fromDate: '2024-05-02', toDate: '2024-05-01' },
				{ returnAll: true, status: 'DONE' },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'"Limit" must be at least 1 [item 2]',
			'"From Date" must be a date written YYYY-MM-DD, e.g. 2024-05-31 [item 3]',
			'"To Date" must not be before "From Date" [item 4]',
			'"Status" must be one of PROCESSING, PENDING, SUCCESSFUL, FAILED [item 5]',
		]);
		// item 1: the one SUCCESSFUL payin; item 2: one PENDING (of the two accounts + the stopped run's none)
		expect(ok.map((p) => [p.merchantReference, p.paymentStatus])).toEqual([
			['dyn-1', 'SUCCESSFUL'],
			['dyn-2', 'PENDING'],
		]);
		const requests = await payin.sb.requests();
		expect(requests.map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/api/v1/payment-requests', { status: 'SUCCESSFUL', businessId: 'BUS-2001', page: '0', size: '100' }],
			['GET', '/api/v1/payment-requests', { status: 'PENDING', page: '0', size: '1' }],
		]);
	});

	it('Create Fixed Account sends customer, address, bvn and dob; bad fields are refused', async () => {
		const execution = await run(
			'create fixed account',
			{
				resource: 'payin',
				operation: 'createFixedAccount',
				businessId: business('BUS-2001'),
				reference: e('reference'),
				dob: e('dob'),
				...customerParams,
				customerBvn: e('bvn'),
				addressLine1: e('line1'),
				addressCity: e('city'),
				addressCountryCode: e('country'),
				additionalFields: {},
			},
			[
				{ ...person, reference: 'fix-1', dob: '1990-04-21', bvn: '22212345678', line1: '12 Marina', city: 'Lagos', country: 'NG' },
				{ ...person, reference: 'fix-2', dob: '1990-02-30', bvn: '22212345678', line1: '12 Marina', city: 'Lagos', country: 'NG' },
				{ ...person, reference: 'fix-3', dob: '1990-04-21', bvn: '2221234', line1: '12 Marina', city: 'Lagos', country: 'NG' },
				{ ...person, reference: 'fix-4', dob: '1990-04-21', bvn: '22212345678', line1: '', city: 'Lagos', country: 'NG' },
				{ ...person, reference: 'fix-5', dob: '1990-04-21', bvn: '22212345678', line1: '12 Marina', city: '', country: 'NG' },
				{ ...person, reference: 'fix-6', dob: '1990-04-21', bvn: '22212345678', line1: '12 Marina', city: 'Lagos', country: 'Nigeria' },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'"Date of Birth" must be a date written YYYY-MM-DD, e.g. 2024-05-31 [item 1]',
			'"Customer BVN" must be 11 digits [item 2]',
			'"Address Line 1" is required [item 3]',
			'"City" is required [item 4]',
			'"Country Code" must be a 2-letter country code such as NG, KE or ZA [item 5]',
		]);
		expect(ok).toHaveLength(1);
		expect(ok[0].accountNumber).toBeTruthy();
		const requests = await payin.sb.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/virtual-accounts/fixed-account' });
		expect(requests[0].body).toEqual({
			customer: { name: 'Ada Obi', email: 'ada@example.com', bvn: '22212345678', address: { line1: '12 Marina', city: 'Lagos', countryCode: 'NG' } },
			dob: '1990-04-21',
			reference: 'fix-1',
			businessId: 'BUS-2001',
		});
	});
});
