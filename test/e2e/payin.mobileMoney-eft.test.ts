/**
 * Mobile money and EFT payins, the EFT bank list, and the dropdowns the node
 * loads from the API (businesses, currencies, EFT banks, networks, banks).
 *
 * Payin operations of the PayOnUs node in a real n8n against the sandbox
 * (set-up in payin.fixtures.ts). Each test runs ONE workflow (Manual Trigger
 * -> Code items -> PayOnUs) whose items mix good inputs and bad ones
 * (continueOnFail on): the good ones must reach the sandbox with the
 * documented request, each bad one must become an error item naming the item
 * and the field, and nothing of a bad item may reach the sandbox.
 *
 * Run: npm run build && npx jest --selectProjects e2e test/e2e/payin.mobileMoney-eft.test.ts -i
 */
import type { IDataObject } from 'n8n-workflow';
import { nodeItems } from '../harness/e2e';
import { business, NODE } from '../../dev/workflows';
import { customerParams, e, payinSuite, person } from './payin.fixtures';

const payin = payinSuite();
const { n8n, run, outcome } = payin;

describe('payin in real n8n', () => {
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
			'GHS wallet not found for business "BUS-2001" [item 2]',
			'"Customer Phone" must be in international format: + followed by 7 to 15 digits, e.g. +2348012345678 [item 3]',
			'"Network" is required [item 4]',
			'"Country Code" must be a 2-letter country code such as NG, KE or ZA [item 5]',
		]);
		expect(nodeItems(execution, NODE)[2].description).toContain('no GHS wallet is enabled for business BUS-2001');
		expect(ok.map((o) => [o.merchantReference, o.otpRequired])).toEqual([
			['mm-1', false],
			['mm-2', true],
		]);
		expect(ok[0].nextStep).toMatch(/approve the payment request sent to their phone/);
		expect(ok[1].nextStep).toMatch(/received an OTP/);
		const requests = await payin.requestsByReference();
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
		expect(errors).toEqual(['"Bank" is required [item 1]', '"Reference" must be at most 100 characters [item 2]']);
		expect(ok).toHaveLength(1);
		expect(String(ok[0].redirectUrl)).toMatch(/^https?:\/\//);
		expect(ok[0].nextStep).toContain(`Send the customer to ${String(ok[0].redirectUrl)}`);
		const requests = await payin.sb.requests();
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
		expect((await payin.sb.requests()).map((r) => [r.method, r.path])).toEqual([['GET', '/api/v1/eft-payment/banks']]);
	});

	it('loads the dropdowns from the API in n8n (businesses, currencies, EFT banks, networks, banks)', async () => {
		const node = {
			name: 'PayOnUs',
			type: 'n8n-nodes-payonus.payOnUs',
			typeVersion: 1,
			position: [0, 0],
			credentials: { payOnUsApi: { id: payin.credentialId, name: 'PayOnUs payin e2e' } },
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
