import { listWallets as op } from '../../../../nodes/PayOnUs/resources/wallet/listWallets';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from '../payin/helpers';

const wallets = [
	{ id: 'W1', currency: 'NGN', entityId: 'BUS-2001', availableBalance: 10, lienAmount: 0, payoutAllowed: true },
	{ id: 'W2', currency: 'KES', entityId: 'BUS-2001', availableBalance: 20, lienAmount: 1, payoutAllowed: true },
	{ id: 'W3', currency: 'NGN', entityId: 'BUS-2002', availableBalance: 30, lienAmount: 0, payoutAllowed: false },
];

describe('wallet: list wallets', () => {
	it('reads the merchant wallets and returns one record per wallet', async () => {
		const client = new FakeClient().respond('GET', '/api/v1/merchants/MER-1001/wallets', wallets);
		expect(await op.execute(context(client), parsed(op.schema, { merchantId: 'MER-1001', filters: {} }))).toEqual(wallets);
		expect(client.requests[0]).toEqual({ method: 'GET', path: '/api/v1/merchants/MER-1001/wallets' });
	});

	it.each([
		[{ businessId: 'BUS-2001' }, ['W1', 'W2']],
		[{ currency: 'ngn' }, ['W1', 'W3']],
		[{ businessId: 'BUS-2002', currency: 'NGN' }, ['W3']],
		[{ businessId: 'BUS-9999' }, []],
	])('filters %j', async (filters, ids) => {
		const client = new FakeClient().respond('GET', '/api/v1/merchants/MER-1001/wallets', wallets);
		const out = (await op.execute(context(client), parsed(op.schema, { merchantId: 'MER-1001', filters }))) as Array<{ id: string }>;
		expect(out.map((w) => w.id)).toEqual(ids);
	});

	it.each([
		[{ merchantId: '' }, '"merchantId" is required'],
		[{ merchantId: 'MER/1' }, '"merchantId" must be an identifier'],
		[{ merchantId: 'MER-1001', filters: { currency: 'NG' } }, '"filters.currency" must be a 3-letter currency code'],
		[{ merchantId: 'MER-1001', filters: { businessId: 'a b' } }, '"filters.businessId" must be an identifier'],
	])('refuses %j', (input, message) => {
		expect(problem(op.schema, input)).toContain(message);
	});
});
