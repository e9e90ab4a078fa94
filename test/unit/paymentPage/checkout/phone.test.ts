/**
 * Issue 31 point 7: phone numbers as buyers type them, by the page's
 * currency (checkout/phone.ts). Local formats were refused before
 * ("international format, + and 7 to 15 digits"), and every page showed a
 * Nigerian example.
 */
import { internationalPhone, phoneError, phoneHint } from '../../../../nodes/PayOnUsPaymentPage/checkout/phone';
import { withCustomer } from '../../../../nodes/PayOnUsPaymentPage/checkout/input';
import { pageConfig } from '../fakes';

describe('internationalPhone', () => {
	it.each([
		['0722 123 456', 'KES', '+254722123456'],
		['0722-123-456', 'KES', '+254722123456'],
		['254722123456', 'KES', '+254722123456'],
		['+254 722 123 456', 'KES', '+254722123456'],
		['+254 0722 123 456', 'KES', '+254722123456'],
		['00254722123456', 'KES', '+254722123456'],
		['0240000003', 'GHS', '+233240000003'],
		['0803 123 4567', 'NGN', '+2348031234567'],
		['082 123 4567', 'ZAR', '+27821234567'],
		['+44 20 7946 0958', 'KES', '+442079460958'],
		['+1 202 555 0123', 'USD', '+12025550123'],
	])('%s on a %s page is %s', (raw, currency, expected) => {
		expect(internationalPhone(raw, currency)).toBe(expected);
	});

	it.each([
		['0722 123 45', 'KES'],
		['+254 722 123 4567', 'KES'],
		['0722123456', 'USD'],
		['12', 'NGN'],
		['phone', 'KES'],
	])('%s on a %s page is refused', (raw, currency) => {
		expect(internationalPhone(raw, currency)).toBeUndefined();
	});
});

describe('the hint and the error', () => {
	it("a KES page shows a Kenyan example, not a Nigerian one; the error points at the hint without repeating it", () => {
		expect(phoneHint('KES')).toBe('e.g. 0712 345 678 or +254 712 345 678');
		expect(phoneHint('NGN')).toContain('+234');
		expect(phoneHint('KES')).not.toContain('+234');
		expect(phoneError('Phone', 'KES')).toBe("Phone: enter a Kenyan number as in the example below, or another country's with its + code");
		expect(phoneError('Phone', 'KES')).not.toMatch(/\d{3}/);
	});

	it('the start form takes a local number and keeps it in international format', () => {
		const state = { v: 1 as const, id: 'a'.repeat(24), iat: 0, exp: 1 };
		const next = withCustomer(pageConfig({ currency: 'KES', askPhone: 'required' }), state, { email: 'a@example.com', phone: '0722 123 456' });
		expect(next.ph).toBe('+254722123456');
	});
});
