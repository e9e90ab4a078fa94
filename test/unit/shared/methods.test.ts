import { Expression, Workflow, type IHttpRequestOptions, type ILoadOptionsFunctions, type INodeTypes } from 'n8n-workflow';
import { listSearch, loadOptions } from '../../../nodes/shared/methods';
import { PayOnUs } from '../../../nodes/PayOnUs/PayOnUs.node';

/**
 * A load-options context (the real transport underneath): its current
 * parameters are `params` (dotted paths read like n8n), each call is
 * recorded and answered from `answer`.
 */
function ctx(params: Record<string, unknown>, answer: unknown = [], credential: Record<string, unknown> = {}) {
	const calls: IHttpRequestOptions[] = [];
	const get = (path: string) =>
		path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), params);
	const context = {
		getCurrentNodeParameter: (path: string) => get(path),
		getNode: () => ({ name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, parameters: {}, id: '1', position: [0, 0] }),
		getCredentials: async () => ({
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:1',
			clientId: 'methods-test-client',
			clientSecret: 'secret',
			merchantId: 'MER-1001',
			businessId: 'BUS-2001',
			...credential,
		}),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				calls.push(options);
				return { status: 200, message: 'Successful', data: answer };
			},
		},
	} as unknown as ILoadOptionsFunctions;
	return { context, calls };
}

const WALLETS = [
	{ entityId: 'BUS-2001', currency: 'NGN' },
	{ entityId: 'BUS-2001', currency: 'KES' },
	{ entityId: 'BUS-2002', currency: 'ZAR' },
	{ entityId: 'BUS-2002', currency: 'NGN' },
];

describe('bank dropdown', () => {
	it('says to pick a currency first (its one entry, not a red error), and sends nothing', async () => {
		const { context, calls } = ctx({});
		await expect(loadOptions.getBanks.call(context)).resolves.toEqual([{ name: 'Pick a Currency first', value: '' }]);
		expect(calls).toHaveLength(0);
	});

	it('lists the banks of the chosen currency', async () => {
		const { context, calls } = ctx({ currency: 'KES' }, [{ code: '01', name: 'Kenya Commercial Bank' }]);
		await expect(loadOptions.getBanks.call(context)).resolves.toEqual([{ name: 'Kenya Commercial Bank (01)', value: '01' }]);
		expect(calls).toHaveLength(1);
		expect(String(calls[0].url)).toContain('/api/v1/banks');
		expect(calls[0].qs).toEqual({ key: 'KES' });
	});
});

describe('dropdowns before the user reached their prerequisites: no red error', () => {
	it('currency without any merchant to read wallets from: the documented currencies, saying how to narrow them', async () => {
		const { context, calls } = ctx({ businessId: { __rl: true, mode: 'list', value: '' } }, WALLETS, { merchantId: '' });
		const options = await loadOptions.getCurrencies.call(context);
		expect(options.map((o) => o.value)).toEqual(['GHS', 'KES', 'NGN', 'USD', 'ZAR']);
		expect(options[0].description).toContain('Default Merchant ID');
		expect(calls).toHaveLength(0);
	});

	it("currency with no business picked: the wallets of the credential's default business", async () => {
		const options = await loadOptions.getCurrencies.call(ctx({ businessId: { __rl: true, mode: 'list', value: '' } }, WALLETS).context);
		expect(options.map((o) => o.value)).toEqual(['KES', 'NGN']);
	});

	it("business list without a merchant: the credential's default business", async () => {
		const { context, calls } = ctx({}, WALLETS, { merchantId: '' });
		await expect(listSearch.searchBusinesses.call(context)).resolves.toEqual({
			results: [{ name: 'Default business of the credential (BUS-2001)', value: 'BUS-2001' }],
		});
		expect(calls).toHaveLength(0);
	});
});

describe('currency filter of List Wallets', () => {
	it('lists every currency of the merchant when no business filter is set (not only the default business)', async () => {
		const options = await loadOptions.getFilterCurrencies.call(ctx({ filters: {} }, WALLETS).context);
		expect(options.map((o) => o.value)).toEqual(['KES', 'NGN', 'ZAR']);
	});

	it('lists the currencies of the business typed in Filters > Business ID', async () => {
		const options = await loadOptions.getFilterCurrencies.call(ctx({ filters: { businessId: 'BUS-2002' } }, WALLETS).context);
		expect(options.map((o) => o.value)).toEqual(['NGN', 'ZAR']);
	});
});

describe('canvas subtitle', () => {
	const subtitle = new PayOnUs().description.subtitle as string;
	const nodeTypes = { getByName: () => new PayOnUs(), getByNameAndVersion: () => new PayOnUs(), getKnownTypes: () => ({}) } as unknown as INodeTypes;

	function render(parameters: Record<string, string>): unknown {
		const workflow = new Workflow({
			nodes: [{ id: '1', name: 'PayOnUs', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, position: [0, 0], parameters }],
			connections: {},
			active: false,
			nodeTypes,
		});
		const expression = new Expression(workflow);
		return expression.getSimpleParameterValue(workflow.getNode('PayOnUs')!, subtitle, 'manual', {});
	}

	it('reads "<Resource>: <Operation>" in the words of the dropdowns', () => {
		expect(render({ resource: 'payout', operation: 'createTransfer' })).toBe('Payout: Create Transfer');
		expect(render({ resource: 'cardTokenization', operation: 'createLink' })).toBe('Card Tokenization: Create Link');
	});

	it('falls back to the raw operation for an unknown pair', () => {
		expect(render({ resource: 'payout', operation: 'somethingNew' })).toBe('somethingNew');
	});
});

describe('issue 31 point 1: every dropdown of a fresh node says what it waits for, never an error', () => {
	/** Every loadOptions and listSearch method of the node, called as n8n does. */
	const everyDropdown = async (context: ILoadOptionsFunctions) => {
		const out: Record<string, Array<{ name: string; value: unknown }>> = {};
		for (const [name, load] of Object.entries(loadOptions)) out[name] = await (load as (this: ILoadOptionsFunctions) => Promise<Array<{ name: string; value: unknown }>>).call(context);
		out.searchBusinesses = (await listSearch.searchBusinesses.call(context)).results;
		return out;
	};

	it('a fresh node whose credential is not set yet: "Choose a PayOnUs API credential first" (banks: "Pick a Currency first"); nothing sent', async () => {
		const { context, calls } = ctx({}, WALLETS);
		const noCredential = {
			...context,
			getCredentials: async () => {
				throw new Error('Node does not have any credentials set for "payOnUsApi"');
			},
		} as unknown as ILoadOptionsFunctions;
		const out = await everyDropdown(noCredential);
		expect(Object.keys(out).sort()).toEqual(['getBanks', 'getCurrencies', 'getEftBanks', 'getFilterCurrencies', 'getMobileMoneyNetworks', 'searchBusinesses']);
		for (const [name, options] of Object.entries(out)) {
			expect([name, options.map((o) => [o.name, o.value])]).toEqual([name, [[name === 'getBanks' ? 'Pick a Currency first' : 'Choose a PayOnUs API credential first', '']]]);
		}
		expect(calls).toHaveLength(0);
	});

	it('Currency before a Business is picked, with a credential without defaults: "Pick a Business first", nothing sent', async () => {
		const { context, calls } = ctx({ businessId: { __rl: true, mode: 'list', value: '' } }, WALLETS, { merchantId: '', businessId: '' });
		await expect(loadOptions.getCurrencies.call(context)).resolves.toEqual([{ name: 'Pick a Business first', value: '' }]);
		expect(calls).toHaveLength(0);
	});

	it('a fresh node (no parameter set) with a credential without defaults: no dropdown fails, each says what it waits for or lists', async () => {
		const { context, calls } = ctx({}, [], { merchantId: '', businessId: '' });
		const out = await everyDropdown(context);
		expect(out.getCurrencies).toEqual([{ name: 'Pick a Business first', value: '' }]);
		expect(out.getBanks).toEqual([{ name: 'Pick a Currency first', value: '' }]);
		expect(out.getFilterCurrencies.map((o) => o.value)).toEqual(['GHS', 'KES', 'NGN', 'USD', 'ZAR']);
		expect(out.searchBusinesses).toEqual([{ name: 'Set a Default Merchant ID in the PayOnUs credential (or choose By ID) first', value: '' }]);
		// Lists that need nothing but the credential ask the service (EFT banks, networks).
		expect(calls.map((c) => String(c.url).replace(/^.*\/api/, '/api'))).toEqual(['/api/v1/eft-payment/banks', '/api/v1/mobile-money/networks']);
	});
});

describe('a dropdown whose field is still empty keeps an entry for it once its list loads (issue 38)', () => {
	// n8n marks a value missing from the options as 'The value "" is not supported!' and keeps its last label
	// ("Pick a Currency first"); the first entry is that empty value, named for what to do.
	const CHOOSE = { name: 'Choose a bank', value: '', description: 'Nothing is chosen yet: pick one from the list' };

	it('Bank of a transfer and of an account name lookup, once the currency is set', async () => {
		const banks = [{ code: '01', name: 'Kenya Commercial Bank' }];
		for (const field of ['beneficiaryBankCode', 'institutionCode']) {
			const { context } = ctx({ currency: 'KES', [field]: '' }, banks);
			await expect(loadOptions.getBanks.call(context)).resolves.toEqual([CHOOSE, { name: 'Kenya Commercial Bank (01)', value: '01' }]);
		}
	});

	it('a bank chosen earlier: the list as it is (a bank of another currency still shows as not supported)', async () => {
		const { context } = ctx({ currency: 'KES', beneficiaryBankCode: '044' }, [{ code: '01', name: 'Kenya Commercial Bank' }]);
		await expect(loadOptions.getBanks.call(context)).resolves.toEqual([{ name: 'Kenya Commercial Bank (01)', value: '01' }]);
	});

	it('Currency once the business is set, EFT bank, mobile money network', async () => {
		const currency = await loadOptions.getCurrencies.call(ctx({ businessId: { __rl: true, mode: 'id', value: 'BUS-2001' }, currency: '' }, WALLETS).context);
		expect(currency.map((o) => [o.name, o.value])).toEqual([['Choose a currency', ''], ['KES', 'KES'], ['NGN', 'NGN']]);
		const eft = await loadOptions.getEftBanks.call(ctx({ eftBank: '' }, [{ code: '632005', name: 'ABSA' }]).context);
		expect(eft.map((o) => o.name)).toEqual(['Choose a bank', 'ABSA (632005)']);
		const networks = await loadOptions.getMobileMoneyNetworks.call(ctx({ momoNetwork: '' }, [{ code: 'MPESA_KE', name: 'M-Pesa', currency: 'KES', countryCode: 'KE' }]).context);
		expect(networks.map((o) => o.name)).toEqual(['Choose a network', 'M-Pesa (KES, KE)']);
	});
});
