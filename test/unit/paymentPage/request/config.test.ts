/** Payment Page: the page settings checked before a page is served (request/config.ts). */
import { generateKeyPairSync } from 'node:crypto';
import { checkParameters } from '../../../../nodes/PayOnUsPaymentPage/request/config';
import { usablePublicKey } from '../../../../nodes/PayOnUsPaymentPage/methods/card';
import { PEM } from '../fakes';

describe('page settings', () => {
	it('refuses settings that cannot take a payment', () => {
		const base = {
			title: 'T', description: '', businessId: 'B', currency: 'NGN', amountMode: 'fixed', amount: 10, minAmount: 0, maxAmount: 0,
			methods: ['bank'], askName: 'no', askPhone: 'no', onSuccess: 'message', successMessage: '', redirectUrl: '', expiryMinutes: 30,
			cardPublicKey: '', narration: '',
		};
		expect(() => checkParameters(base)).not.toThrow();
		expect(() => checkParameters({ ...base, amount: 10.001 })).toThrow(/2 decimals/);
		expect(() => checkParameters({ ...base, amountMode: 'customer', minAmount: 50, maxAmount: 10 })).toThrow(/minimum/);
		expect(() => checkParameters({ ...base, businessId: '' })).toThrow(/business/);
		expect(() => checkParameters({ ...base, onSuccess: 'redirect', redirectUrl: 'javascript:alert(1)' })).toThrow(/Redirect URL/);
	});

	it('accepts an RSA public key of 2048 bits or more only', () => {
		expect(usablePublicKey(PEM)).toBe(PEM);
		expect(usablePublicKey('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----')).toBe('');
		const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
		expect(usablePublicKey(small)).toBe('');
	});
});
