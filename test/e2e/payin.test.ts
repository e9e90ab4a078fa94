/**
 * Payin operations of the PayOnUs node in a real n8n against the sandbox.
 *
 * Each test runs ONE workflow (Manual Trigger -> Code items -> PayOnUs) whose
 * items mix good inputs and bad ones (continueOnFail on): the good ones must
 * reach the sandbox with the documented request, each bad one must become an
 * error item naming the item and the field, and nothing of a bad item may
 * reach the sandbox. One more run without continueOnFail shows that a bad
 * item stops the execution before ANY request (even for the good items).
 *
 * Run: npm run build && npx jest --selectProjects e2e test/e2e/payin.test.ts -i
 */
import { constants, publicEncrypt } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeError, nodeItems, sharedN8n, type Execution } from '../harness/e2e';
import { sandboxAccessToken } from '../harness/fixtures';
import { SandboxClient } from '../../sandbox/client';
import { business, createPayOnUsCredential, NODE, payOnUsWorkflow } from './payout.fixtures';

const n8n = sharedN8n();
let handle: SandboxHandle;
let sb: SandboxClient;
let credentialId: string;
const workflowIds: string[] = [];

/** Runs PayOnUs over `items` with `parameters`; returns the execution. */
async function run(
	name: string,
	parameters: IDataObject,
	items: IDataObject[],
	opts: { continueOnFail?: boolean; credential?: string } = { continueOnFail: true },
): Promise<Execution> {
	await sb.clearRequests();
	const wf = payOnUsWorkflow(
		`payin e2e: ${name}`,
		opts.credential ?? credentialId,
		parameters,
		items.map((json) => ({ json })),
		{ continueOnFail: opts.continueOnFail },
	);
	const { id } = await n8n.createWorkflow(wf);
	workflowIds.push(id);
	return await n8n.runWorkflow(id, { timeoutMs: 120000 });
}

/** Output items of the node, errors separated. */
function outcome(execution: Execution): { ok: IDataObject[]; errors: string[] } {
	const items = nodeItems(execution, NODE);
	return {
		ok: items.filter((i) => i.error === undefined),
		errors: items.filter((i) => i.error !== undefined).map((i) => String(i.error)),
	};
}

const e = (field: string) => `={{ $json.${field} }}`;

const customerParams = {
	customerName: e('name'),
	customerEmail: e('email'),
};

const person = { name: 'Ada Obi', email: 'ada@example.com' };

let apiToken: string | undefined;
/** A direct sandbox API call for test setup (one token for the whole file: 3 token calls a minute). */
async function api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
	apiToken ??= await sandboxAccessToken(handle.url, 3);
	const res = await fetch(`${handle.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await res.json()) as { data: T };
	if (res.status >= 400) throw new Error(`sandbox ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
	return json.data;
}

async function encryptCard(pan: string): Promise<string> {
	const { publicKey } = await sb.control<{ publicKey: string }>('GET', '/public-key');
	return publicEncrypt(
		{ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
		Buffer.from(`${pan}|12|30|123`),
	).toString('base64');
}

beforeAll(async () => {
	handle = await startSandbox({ port: 0 });
	sb = new SandboxClient(handle.url);
	credentialId = await createPayOnUsCredential(n8n, handle.url, 'PayOnUs payin e2e');
});

afterAll(async () => {
	for (const id of workflowIds) await n8n.deleteWorkflow(id).catch(() => undefined);
	await handle?.stop();
});

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
		expect(nodeError(execution, NODE)).toBe('Item 2: "amount" must be greater than 0');
		expect(await sb.requests()).toEqual([]);
	});

	it('Create Dynamic Account: good items reach the sandbox, bad ones are error items naming item and field', async () => {
		const execution = await run('create dynamic account', dynamicParams, [
			{ ...person, businessId: 'BUS-2001', amount: 5000, reference: 'dyn-1', phone: '+2348012345678' },
			// empty business: the credential's Default Business ID (BUS-2001)
			{ ...person, businessId: '', amount: '2500.50', reference: 'dyn-2' },
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
		]);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'Item 3: "amount" must be greater than 0',
			'Item 4: "amount" must have at most 2 decimal places',
			'Item 5: "reference" must contain no spaces or special characters (letters, digits and symbols like - _ . / only)',
			'Item 6: "reference" is required',
			'Item 7: "customerEmail" must be an e-mail address such as name@example.com',
			'Item 8: "customerName" is required',
			'Item 9: "additionalFields.customerPhone" must be in international format: + followed by 7 to 15 digits, e.g. +2348012345678',
			'Item 10: "additionalFields.customerBvn" must be 11 digits',
			'Item 11: "businessId" must be an identifier without spaces or slashes, e.g. BUS-2001',
			'Item 12: "amount" must be a number',
		]);
		expect(ok).toHaveLength(2);
		expect(ok[0]).toMatchObject({ amount: 5000, merchantReference: 'dyn-1' });
		expect(ok[0].accountNumber).toMatch(/^\d{10}$/);
		expect(String(ok[0].onusReference)).toMatch(/^ONUS-NUB-/);
		expect(ok[0].nextStep).toContain(`transfer exactly 5000 NGN to account ${String(ok[0].accountNumber)}`);
		expect(ok[1]).toMatchObject({ amount: 2500.5, merchantReference: 'dyn-2' });

		const requests = await sb.requests();
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
			'Item 2: "accountNumber" must be 6 to 20 digits',
			'Item 3: "paymentStatus" must be one of SUCCESSFUL, FAILED',
			'Item 4: "onusReference" is required',
		]);
		expect(ok).toHaveLength(1);
		expect(ok[0]).toMatchObject({ onusReference: first.onusReference, simulated: true, paymentStatus: 'SUCCESSFUL' });
		const requests = await sb.requests();
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
			'Item 1: Simulate Dynamic Account Payment only works in the sandbox, and this PayOnUs credential points at production. Use a sandbox credential; nothing was sent.',
		]);
		expect(await sb.requests()).toEqual([]);
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
			'Item 2: "onusReference" is required',
			'Item 3: "onusReference" must be an identifier without spaces or slashes, e.g. ONUS-NUB-1234567890123-31052024-101500',
			'Item 4: "businessId" must be an identifier without spaces or slashes, e.g. BUS-2001',
		]);
		expect(ok).toHaveLength(1);
		expect(ok[0]).toMatchObject({ onusReference: first.onusReference, paymentStatus: 'SUCCESSFUL', businessId: 'BUS-2001' });
		const requests = await sb.requests();
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
			'Item 3: "limit" must be at least 1',
			'Item 4: "filters.fromDate" must be a date written YYYY-MM-DD, e.g. 2024-05-31',
			'Item 5: "filters.toDate" must not be before fromDate',
			'Item 6: "filters.status" must be one of PROCESSING, PENDING, SUCCESSFUL, FAILED',
		]);
		// item 1: the one SUCCESSFUL payin; item 2: one PENDING (of the two accounts + the stopped run's none)
		expect(ok.map((p) => [p.merchantReference, p.paymentStatus])).toEqual([
			['dyn-1', 'SUCCESSFUL'],
			['dyn-2', 'PENDING'],
		]);
		const requests = await sb.requests();
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
			'Item 2: "dob" must be a date written YYYY-MM-DD, e.g. 2024-05-31',
			'Item 3: "customerBvn" must be 11 digits',
			'Item 4: "addressLine1" is required',
			'Item 5: "addressCity" is required',
			'Item 6: "addressCountryCode" must be a 2-letter country code such as NG, KE or ZA',
		]);
		expect(ok).toHaveLength(1);
		expect(ok[0].accountNumber).toBeTruthy();
		const requests = await sb.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/virtual-accounts/fixed-account' });
		expect(requests[0].body).toEqual({
			customer: { name: 'Ada Obi', email: 'ada@example.com', bvn: '22212345678', address: { line1: '12 Marina', city: 'Lagos', countryCode: 'NG' } },
			dob: '1990-04-21',
			reference: 'fix-1',
			businessId: 'BUS-2001',
		});
	});

	it('Charge Card: encrypted card data only, nextStep for PIN/OTP/3DS; raw card numbers refused before sending', async () => {
		const cards = {
			SUCCESS: await encryptCard('4111111111111111'),
			PIN: await encryptCard('5399000000000008'),
			OTP: await encryptCard('5399000000000016'),
			THREE_DS: await encryptCard('4000000000003220'),
		};
		const execution = await run(
			'charge card',
			{
				resource: 'payin',
				operation: 'chargeCard',
				businessId: business('BUS-2001'),
				cardData: e('cardData'),
				amount: e('amount'),
				currency: e('currency'),
				reference: e('reference'),
				...customerParams,
				additionalFields: { redirectUrl: 'https://shop.example.com/back', narration: 'Order' },
			},
			[
				{ ...person, cardData: cards.SUCCESS, amount: 100, currency: 'NGN', reference: 'card-ok' },
				{ ...person, cardData: cards.PIN, amount: 100, currency: 'NGN', reference: 'card-pin' },
				{ ...person, cardData: cards.OTP, amount: 100, currency: 'NGN', reference: 'card-otp' },
				{ ...person, cardData: cards.THREE_DS, amount: 100, currency: 'NGN', reference: 'card-3ds' },
				{ ...person, cardData: '4111 1111 1111 1111', amount: 100, currency: 'NGN', reference: 'card-raw' },
				{ ...person, cardData: Buffer.from('4111111111111111|12|30|123').toString('base64'), amount: 100, currency: 'NGN', reference: 'card-plain' },
				{ ...person, cardData: cards.SUCCESS, amount: 100, currency: 'NAIRA', reference: 'card-cur' },
				{ ...person, cardData: cards.SUCCESS, amount: -1, currency: 'NGN', reference: 'card-neg' },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual([
			'Item 5: "cardData" looks like a raw card number: encrypt the card details with the PayOnUs RSA public key and give the Base64 result; never put raw card numbers in a workflow',
			'Item 6: "cardData" must be the card details RSA-encrypted with the PayOnUs public key and Base64-encoded (at least 88 characters of A-Z, a-z, 0-9, + and /)',
			'Item 7: "currency" must be a 3-letter currency code such as NGN, KES or ZAR',
			'Item 8: "amount" must be greater than 0',
		]);
		expect(ok.map((o) => [o.authTypeRequired ?? null, o.paymentStatus])).toEqual([
			[null, 'SUCCESSFUL'],
			['PIN', expect.any(String)],
			['OTP', expect.any(String)],
			['THREE_DS', expect.any(String)],
		]);
		expect(ok[0].nextStep).toBe('Nothing more to do: the card was charged.');
		expect(ok[1].nextStep).toMatch(/collect the PIN/);
		expect(ok[2].nextStep).toMatch(/OTP was sent/);
		expect(ok[3].nextStep).toContain(`Send the customer to ${String(ok[3].redirectUrl)}`);
		const output = JSON.stringify(nodeItems(execution, NODE));
		for (const blob of Object.values(cards)) expect(output).not.toContain(blob);
		expect(output).not.toContain('4111');

		const requests = await sb.requests();
		expect(requests.map((r) => (r.body as IDataObject).reference)).toEqual(['card-ok', 'card-pin', 'card-otp', 'card-3ds']);
		expect(requests[0].body).toMatchObject({
			amount: 100,
			currency: 'NGN',
			businessId: 'BUS-2001',
			narration: 'Order',
			redirectUrl: 'https://shop.example.com/back',
			customer: { name: 'Ada Obi', email: 'ada@example.com' },
		});
		expect(JSON.stringify(requests)).not.toContain('4111 1111');
	});

	it('Charge Tokenized Card: charges a stored card; every spec error becomes a plain message', async () => {
		// A token for BUS-2001 and one for BUS-2002, through the consent flow.
		const makeToken = async (businessId: string, ref: string, pan = '4111111111111111') => {
			const link = await api<IDataObject>('POST', '/api/v1/card-tokenization-links', {
				businessId,
				merchantReference: ref,
				customer: { name: 'Ada Obi', email: 'ada@example.com' },
			});
			const done = await sb.control<IDataObject>('POST', `/links/${String(link.id)}/submit`, { cardNumber: pan, expiry: '12/30', cvv: '123' });
			return String((done.link as IDataObject).cardTokenId);
		};
		const token = await makeToken('BUS-2001', 'tok-e2e-1');
		const otherBusiness = await makeToken('BUS-2002', 'tok-e2e-2');
		const deleted = await makeToken('BUS-2001', 'tok-e2e-3');
		await api('DELETE', `/api/v1/card-tokens/${deleted}?businessId=BUS-2001`);
		const expired = await makeToken('BUS-2001', 'tok-e2e-4');
		await sb.control('POST', `/tokens/${expired}/expire`);

		const execution = await run(
			'charge tokenized card',
			{
				resource: 'payin',
				operation: 'chargeTokenizedCard',
				businessId: business('BUS-2001'),
				cardTokenId: e('token'),
				amount: e('amount'),
				reference: e('reference'),
				additionalFields: { narration: 'Monthly plan' },
			},
			[
				{ token, amount: 1, reference: 'tk-1' },
				{ token: 'no-such-token', amount: 5, reference: 'tk-2' },
				{ token: otherBusiness, amount: 5, reference: 'tk-3' },
				{ token, amount: 5, reference: 'tk-1' },
				{ token: deleted, amount: 5, reference: 'tk-5' },
				{ token: expired, amount: 5, reference: 'tk-6' },
				{ token, amount: 0.5, reference: 'tk-7' },
				{ token: '', amount: 5, reference: 'tk-8' },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(ok).toHaveLength(1);
		expect(ok[0]).toMatchObject({ paymentStatus: 'SUCCESSFUL', authTypeRequired: null });
		expect(String(ok[0].onusReference)).toMatch(/^ONUS-TKPY-/);
		expect(errors[0]).toBe('Item 2: "cardTokenId" "no-such-token" was not found: no card token has this id. Check the id (Search Card Tokens lists them). Nothing was charged.');
		expect(errors[1]).toBe('Item 3: "cardTokenId" belongs to another business than BUS-2001: charge it with the business that stored the card. Nothing was charged.');
		expect(errors[2]).toMatch(/^Item 4: "reference" "tk-1" was already used for this business \(duplicate reference\): this charge was NOT made again\. The earlier payment is ONUS-TKPY-/);
		expect(errors[3]).toMatch(/^Item 5: "cardTokenId" was deleted and can no longer be charged/);
		expect(errors[4]).toMatch(/^Item 6: "cardTokenId" has expired/);
		expect(errors.slice(5)).toEqual(['Item 7: "amount" must be at least 1', 'Item 8: "cardTokenId" is required']);

		const charges = (await sb.requests()).filter((r) => r.path === '/api/v1/card-payments/with-token');
		expect(charges.map((r) => [(r.body as IDataObject).reference, r.status])).toEqual([
			['tk-1', 200],
			['tk-2', 404],
			['tk-3', 403],
			['tk-1', 409],
			['tk-5', 410],
			['tk-6', 422],
		]);
		expect(charges[0].body).toEqual({ businessId: 'BUS-2001', cardTokenId: token, amount: 1, reference: 'tk-1', narration: 'Monthly plan' });
	});

	it('Mobile Money Collection: network, initiating code, otpRequired with next step; bad fields refused', async () => {
		const execution = await run(
			'mobile money',
			{
				resource: 'payin',
				operation: 'mobileMoneyCollection',
				businessId: business('BUS-2001'),
				momoNetwork: e('network'),
				amount: e('amount'),
				reference: e('reference'),
				...customerParams,
				customerPhone: e('phone'),
				additionalFields: { initiatingCode: e('initiatingCode'), addressCountryCode: e('country') },
			},
			[
				{ ...person, network: 'MPESA_KE', amount: 50, reference: 'mm-1', phone: '+254700000001', country: 'KE' },
				{ ...person, network: 'AIRTEL_KE', amount: 60, reference: 'mm-2', phone: '+254700000002', country: 'KE' },
				{ ...person, network: 'VODAFONE_GH', amount: 70, reference: 'mm-3', phone: '+233200000003', initiatingCode: '4321', country: 'GH' },
				{ ...person, network: 'MPESA_KE', amount: 50, reference: 'mm-4', phone: '0700000001' },
				{ ...person, network: '', amount: 50, reference: 'mm-5', phone: '+254700000001' },
				{ ...person, network: 'MPESA_KE', amount: 50, reference: 'mm-6', phone: '+254700000001', country: 'Kenya' },
			],
		);
		const { ok, errors } = outcome(execution);
		// Item 3 is valid but BUS-2001 has no GHS wallet (seed): the service's 404 is an error item.
		expect(errors).toEqual([
			'Item 3: PayOnUs POST /api/v1/mobile-money/collection failed with 404: not found',
			'Item 4: "customerPhone" must be in international format: + followed by 7 to 15 digits, e.g. +2348012345678',
			'Item 5: "momoNetwork" is required',
			'Item 6: "additionalFields.addressCountryCode" must be a 2-letter country code such as NG, KE or ZA',
		]);
		expect(nodeItems(execution, NODE)[2].description).toContain('no GHS wallet is enabled for business BUS-2001');
		expect(ok.map((o) => [o.merchantReference, o.otpRequired])).toEqual([
			['mm-1', false],
			['mm-2', true],
		]);
		expect(ok[0].nextStep).toMatch(/approve the payment request sent to their phone/);
		expect(ok[1].nextStep).toMatch(/received an OTP/);
		const requests = await sb.requests();
		expect(requests.map((r) => [r.path, (r.body as IDataObject).momoNetwork, (r.body as IDataObject).initiatingCode])).toEqual([
			['/api/v1/mobile-money/collection', 'MPESA_KE', undefined],
			['/api/v1/mobile-money/collection', 'AIRTEL_KE', undefined],
			['/api/v1/mobile-money/collection', 'VODAFONE_GH', '4321'],
		]);
		expect((requests[0].body as IDataObject).customer).toEqual({
			name: 'Ada Obi',
			email: 'ada@example.com',
			phone: '+254700000001',
			address: { countryCode: 'KE' },
		});
	});

	it('EFT Payment returns the bank page to send the customer to; bad fields refused', async () => {
		const execution = await run(
			'eft payment',
			{
				resource: 'payin',
				operation: 'eftPayment',
				businessId: business('BUS-2001'),
				bank: e('bank'),
				amount: e('amount'),
				reference: e('reference'),
				...customerParams,
				additionalFields: { narration: 'Invoice 9', addressCountryCode: 'ZA' },
			},
			[
				{ ...person, bank: '632005', amount: 300, reference: 'eft-1' },
				{ ...person, bank: '', amount: 300, reference: 'eft-2' },
				{ ...person, bank: '632005', amount: 300, reference: 'x'.repeat(101) },
			],
		);
		const { ok, errors } = outcome(execution);
		expect(errors).toEqual(['Item 2: "bank" is required', 'Item 3: "reference" must be at most 100 characters']);
		expect(ok).toHaveLength(1);
		expect(String(ok[0].redirectUrl)).toMatch(/^https?:\/\//);
		expect(ok[0].nextStep).toContain(`Send the customer to ${String(ok[0].redirectUrl)}`);
		const requests = await sb.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toEqual({
			amount: 300,
			reference: 'eft-1',
			narration: 'Invoice 9',
			businessId: 'BUS-2001',
			bank: '632005',
			customer: { name: 'Ada Obi', email: 'ada@example.com', address: { countryCode: 'ZA' } },
		});
	});

	it('List EFT Banks gives one item per bank', async () => {
		const execution = await run('list eft banks', { resource: 'payin', operation: 'listEftBanks' }, [{}]);
		const { ok } = outcome(execution);
		expect(ok.length).toBeGreaterThan(0);
		expect(ok).toContainEqual({ code: '632005', name: 'ABSA Bank' });
		expect((await sb.requests()).map((r) => [r.method, r.path])).toEqual([['GET', '/api/v1/eft-payment/banks']]);
	});

	it('loads the dropdowns from the API in n8n (businesses, currencies, EFT banks, networks, banks)', async () => {
		const node = {
			name: 'PayOnUs',
			type: 'n8n-nodes-payonus.payOnUs',
			typeVersion: 1,
			position: [0, 0],
			credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs payin e2e' } },
		};
		const load = async (methodName: string, currentNodeParameters: IDataObject) =>
			await n8n.rest<Array<{ name: string; value: string }>>('POST', '/dynamic-node-parameters/options', {
				nodeTypeAndVersion: { name: node.type, version: 1 },
				methodName,
				path: 'parameters',
				currentNodeParameters,
				credentials: node.credentials,
			});
		const currencies = await load('getCurrencies', { resource: 'payin', operation: 'chargeCard', businessId: { __rl: true, mode: 'id', value: 'BUS-2002' } });
		expect(currencies.map((c) => c.value)).toEqual(['NGN', 'ZAR']);
		const eft = await load('getEftBanks', { resource: 'payin', operation: 'eftPayment' });
		expect(eft.map((b) => b.value)).toContain('632005');
		const networks = await load('getMobileMoneyNetworks', { resource: 'payin', operation: 'mobileMoneyCollection' });
		expect(networks.map((b) => b.value)).toEqual(expect.arrayContaining(['MPESA_KE', 'VODAFONE_GH']));
		const banks = await load('getBanks', { currency: 'NGN' });
		expect(banks.length).toBeGreaterThan(0);
		const search = await n8n.rest<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/dynamic-node-parameters/resource-locator-results',
			{
				nodeTypeAndVersion: { name: node.type, version: 1 },
				methodName: 'searchBusinesses',
				path: 'parameters.businessId',
				currentNodeParameters: { resource: 'payin', operation: 'getPayment' },
				credentials: node.credentials,
				filter: 'logistics',
			},
		);
		expect(search.results).toEqual([{ name: 'Acme Logistics (BUS-2002)', value: 'BUS-2002' }]);
	});
});
