import { computeWebhookHash, signedFieldText, verifyWebhookHash } from '../../../nodes/shared/signature';

/**
 * Vectors computed outside this code base (Python hashlib) from the spec's
 * rule: hex SHA-256 of accountNumber + onusReference + paymentStatus + key,
 * UTF-8, no separators.
 */
const VECTORS: Array<{ name: string; fields: { accountNumber: unknown; onusReference: unknown; paymentStatus: unknown }; key: string; hash: string }> = [
	{
		name: 'basic collection',
		fields: { accountNumber: '1234567890', onusReference: 'ONUS-NUB-1234567890123-01012025-101010', paymentStatus: 'SUCCESSFUL' },
		key: 'sandbox-webhook-key',
		hash: '49ff8139d9d6a43709187428e41d1a9dfeae27ed8a76a0e308875c03a8d989a3',
	},
	{
		name: 'all fields empty',
		fields: { accountNumber: '', onusReference: '', paymentStatus: '' },
		key: 'k',
		hash: '8254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a',
	},
	{
		name: 'empty account number',
		fields: { accountNumber: '', onusReference: 'ONUS-TRNF-0000000000001-02022025-020202', paymentStatus: 'FAILED' },
		key: 'key-2',
		hash: '9e71566c222f6426f72fd6df505e4bb9e8ed4ba14e14b8591af141d65caf30f1',
	},
	{
		name: 'unicode key',
		fields: { accountNumber: '0123456789', onusReference: 'ONUS-MMO-9999999999999-31122024-235959', paymentStatus: 'SUCCESSFUL' },
		key: 'clé-secrète-🔑',
		hash: 'b1a826edc3bc8e09e7520f5fb59bfacb3d95440fc35a631558917be8dfe71f85',
	},
	{
		name: 'unicode field',
		fields: { accountNumber: 'Ñandú-01', onusReference: 'ONUS-EFT-1111111111111-15062025-120000', paymentStatus: 'PROCESSING' },
		key: 'k3',
		hash: '44bd676eec338ffe78fe3e8f492267d015a9a12c70d36639c7c8093ec1803bc0',
	},
	{
		name: 'account number sent as a JSON number',
		fields: { accountNumber: 9999991112, onusReference: 'ONUS-TRNF-2222222222222-03032025-030303', paymentStatus: 'SUCCESSFUL' },
		key: 'key',
		hash: 'bedbee4ed0950302c24f7687cdd8989ad0557cd0577010ee36bb0e6d150e2621',
	},
];

describe('webhook hash (spec rule)', () => {
	it.each(VECTORS)('computes the vector: $name', ({ fields, key, hash }) => {
		expect(computeWebhookHash(fields, key)).toBe(hash);
		expect(verifyWebhookHash(fields, hash, key)).toBe(true);
	});

	it('accepts upper-case hex and surrounding spaces in the header', () => {
		const v = VECTORS[0];
		expect(verifyWebhookHash(v.fields, `  ${v.hash.toUpperCase()} `, v.key)).toBe(true);
	});

	it('accepts a header given once as an array, not twice', () => {
		const v = VECTORS[0];
		expect(verifyWebhookHash(v.fields, [v.hash], v.key)).toBe(true);
		expect(verifyWebhookHash(v.fields, [v.hash, v.hash], v.key)).toBe(false);
	});

	it('rejects a missing, empty, short, long or non-hex header', () => {
		const v = VECTORS[0];
		for (const bad of [undefined, '', v.hash.slice(0, 63), v.hash + '0', 'z'.repeat(64), v.hash.slice(0, 32)]) {
			expect(verifyWebhookHash(v.fields, bad, v.key)).toBe(false);
		}
	});

	it('rejects every single-field change and a wrong key', () => {
		const v = VECTORS[0];
		expect(verifyWebhookHash({ ...v.fields, accountNumber: '1234567891' }, v.hash, v.key)).toBe(false);
		expect(verifyWebhookHash({ ...v.fields, onusReference: 'ONUS-NUB-1234567890124-01012025-101010' }, v.hash, v.key)).toBe(false);
		expect(verifyWebhookHash({ ...v.fields, paymentStatus: 'FAILED' }, v.hash, v.key)).toBe(false);
		expect(verifyWebhookHash(v.fields, v.hash, v.key + 'x')).toBe(false);
	});

	it('never verifies with an empty key, even against the hash of the fields alone', () => {
		const fields = VECTORS[0].fields;
		const hashWithoutKey = computeWebhookHash(fields, '');
		expect(verifyWebhookHash(fields, hashWithoutKey, '')).toBe(false);
	});

	it('moving text between fields gives the same concatenation (a property of the rule, not of this code)', () => {
		const a = computeWebhookHash({ accountNumber: '12', onusReference: '3', paymentStatus: 'X' }, 'k');
		const b = computeWebhookHash({ accountNumber: '1', onusReference: '23', paymentStatus: 'X' }, 'k');
		expect(a).toBe(b);
	});

	it('treats missing, null, object and non-finite values as empty text', () => {
		for (const v of [undefined, null, {}, [], NaN, Infinity, true]) expect(signedFieldText(v)).toBe('');
		expect(signedFieldText(0)).toBe('0');
		expect(signedFieldText(12.5)).toBe('12.5');
		expect(computeWebhookHash({}, 'k')).toBe(VECTORS[1].hash);
	});
});
