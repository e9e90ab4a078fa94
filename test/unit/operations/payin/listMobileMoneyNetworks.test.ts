import { listMobileMoneyNetworks as op } from '../../../../nodes/PayOnUs/resources/payin/listMobileMoneyNetworks';
import { context, FakeClient } from '../../fakes';
import { parsed, problem } from './helpers';

const PATH = '/api/v1/mobile-money/networks';
const networks = [
	{ code: 'MTN_GH', name: 'MTN Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: false, initiatingCodeRequired: false },
	{ code: 'VODAFONE_GH', name: 'Vodafone Ghana', currency: 'GHS', countryCode: 'GH', otpRequired: true, initiatingCodeRequired: true },
];

describe('List Mobile Money Networks', () => {
	it('is a read-only operation of the payin resource, without paging', () => {
		expect(op.value).toBe('listMobileMoneyNetworks');
		expect(op.effect).toBe('read');
		expect(op.paging).toBe(false);
		expect(op.money).toBeUndefined();
	});

	it('lists every network when no filter is given (no query sent)', async () => {
		const client = new FakeClient().respond('GET', PATH, networks);
		expect(await op.execute(context(client), parsed(op.schema, { filters: {} }))).toEqual(networks);
		expect(client.requests).toEqual([{ method: 'GET', path: PATH }]);
	});

	it('sends the currency and country filters given (country and currency upper-cased)', async () => {
		const client = new FakeClient().respond('GET', PATH, networks);
		await op.execute(context(client), parsed(op.schema, { filters: { currency: 'ghs', countryCode: 'gh' } }));
		expect(client.requests).toEqual([{ method: 'GET', path: PATH, qs: { currency: 'GHS', countryCode: 'GH' } }]);
	});

	it('reads a paged answer too, and no answer as no networks', async () => {
		const paged = new FakeClient().respond('GET', PATH, { content: networks });
		expect(await op.execute(context(paged), parsed(op.schema, {}))).toEqual(networks);
		const empty = new FakeClient().respond('GET', PATH, null);
		expect(await op.execute(context(empty), parsed(op.schema, {}))).toEqual([]);
	});

	it('refuses a currency PayOnUs does not document and a malformed country before sending', () => {
		expect(problem(op.schema, { filters: { currency: 'EUR' } })).toMatch(/^"filters.currency" must be one of the currencies/);
		expect(problem(op.schema, { filters: { countryCode: 'Ghana' } })).toBe('"filters.countryCode" must be a 2-letter country code such as NG, KE or ZA');
	});
});
