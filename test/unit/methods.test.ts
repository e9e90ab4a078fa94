import { Expression, Workflow, type IHttpRequestOptions, type ILoadOptionsFunctions, type INodeTypes } from 'n8n-workflow';
import { loadOptions } from '../../nodes/PayOnUs/methods';
import { PayOnUs } from '../../nodes/PayOnUs/PayOnUs.node';

/**
 * A load-options context (the real transport underneath): its current
 * parameters are `params` (dotted paths read like n8n), each call is
 * recorded and answered from `answer`.
 */
function ctx(params: Record<string, unknown>, answer: unknown = []) {
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
	it('says to choose a currency first instead of an empty list, and sends nothing', async () => {
		const { context, calls } = ctx({});
		await expect(loadOptions.getBanks.call(context)).rejects.toThrow('Choose a Currency first');
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
