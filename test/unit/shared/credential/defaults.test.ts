/**
 * The one rule "a Merchant ID or Business ID left empty takes the
 * credential's default" (nodes/shared/credential/defaults.ts).
 */
import {
	merchantIdOf,
	orCredentialDefault,
	withCredentialDefaults,
} from '../../../../nodes/shared/credential/defaults';

const defaults = { merchantId: 'MER-2', businessId: 'BUS-2' };

describe("an empty field takes the credential's default", () => {
	it('orCredentialDefault: a set value is kept as it is; undefined, null and "" take the default', () => {
		expect(orCredentialDefault('MER-1', defaults, 'merchantId')).toBe('MER-1');
		expect(orCredentialDefault(' MER-1 ', defaults, 'merchantId')).toBe(' MER-1 ');
		expect(orCredentialDefault('', defaults, 'merchantId')).toBe('MER-2');
		expect(orCredentialDefault(undefined, defaults, 'businessId')).toBe('BUS-2');
		expect(orCredentialDefault(null, defaults, 'businessId')).toBe('BUS-2');
	});

	it('orCredentialDefault: without a default, an empty field stays unset (undefined)', () => {
		expect(orCredentialDefault('', {}, 'merchantId')).toBeUndefined();
		expect(orCredentialDefault(undefined, { merchantId: 'MER-2' }, 'businessId')).toBeUndefined();
		expect(orCredentialDefault('', { businessId: '' }, 'businessId')).toBeUndefined();
	});

	it("merchantIdOf: a node's Merchant ID parameter, trimmed, else the credential's default", () => {
		expect(merchantIdOf(' MER-1 ', defaults)).toBe('MER-1');
		expect(merchantIdOf('   ', defaults)).toBe('MER-2');
		expect(merchantIdOf('', defaults)).toBe('MER-2');
		expect(merchantIdOf(undefined, {})).toBeUndefined();
	});

	it('withCredentialDefaults: fills only the empty top-level merchantId / businessId the input has', () => {
		expect(withCredentialDefaults({ businessId: '', merchantId: null, amount: 5 }, defaults)).toEqual({
			businessId: 'BUS-2',
			merchantId: 'MER-2',
			amount: 5,
		});
		// A field the operation does not have is not added; a set one is kept untouched.
		expect(withCredentialDefaults({ businessId: ' BUS-1 ' }, defaults)).toEqual({ businessId: ' BUS-1 ' });
		// Filters inside a collection are not filled.
		expect(withCredentialDefaults({ filters: { businessId: '' } }, defaults)).toEqual({ filters: { businessId: '' } });
		// No default: the empty value stays as it was (validation reports it).
		expect(withCredentialDefaults({ businessId: '' }, {})).toEqual({ businessId: '' });
	});

	it('withCredentialDefaults: does not change its input', () => {
		const raw = { businessId: '' };
		withCredentialDefaults(raw, defaults);
		expect(raw).toEqual({ businessId: '' });
	});
});
