/**
 * What the buyer sees on the Payment Page (pure rendering and form rules):
 * every input error at once, each at its own field; TEST MODE on sandbox
 * checkouts; a copy button for the account number; the deadline in the
 * buyer's time zone; a receipt reference that wraps only between its parts.
 * The same is checked in Chromium (test/e2e/payment-page.ux.test.ts).
 */
import type { PageConfig } from '../../../../nodes/PayOnUsPaymentPage/checkout/types';
import { renderView } from '../../../../nodes/PayOnUsPaymentPage/render/html';
import { CheckoutInputError, withCustomer } from '../../../../nodes/PayOnUsPaymentPage/checkout/input';
import { takesTestPayments } from '../../../../nodes/PayOnUsPaymentPage/credential';
import type { CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import type { View } from '../../../../nodes/PayOnUsPaymentPage/checkout/types';
import { pageConfig } from '../fakes';

function config(over: Partial<PageConfig> = {}): PageConfig {
	return pageConfig({ description: '', methods: ['bank'], askName: 'required', askPhone: 'optional', cardPublicKey: '', ...over });
}

const state: CheckoutState = { v: 1, id: 'a'.repeat(24), iat: 0, exp: Date.parse('2026-01-15T17:30:00Z'), amt: 5000, cur: 'NGN' };
const view = (over: Partial<View>): View => ({ kind: 'start', state, sealed: 'tok', ...over });

function inputError(fn: () => unknown): CheckoutInputError {
	try {
		fn();
	} catch (error) {
		return error as CheckoutInputError;
	}
	throw new Error('no error');
}

describe('Payment Page form errors', () => {
	it('reports every wrong field at once, by field', () => {
		const error = inputError(() => withCustomer(config(), state, { email: 'not-an-address', name: '', phone: '12' }));
		expect(error).toBeInstanceOf(CheckoutInputError);
		expect(Object.keys(error.fields ?? {})).toEqual(['email', 'name', 'phone']);
		expect(error.fields?.name).toBe('Name: required');
		expect(error.message).toContain('Email:');
		expect(error.message).toContain('Phone:');
	});

	it("ties each message to its own field with aria-invalid, never the Name error to the Email field", () => {
		const html = renderView(
			{ nonce: 'n', config: config() },
			view({ message: 'Name: required', fieldErrors: { name: 'Name: required' }, values: { email: 'ada@example.com' } }),
		);
		const input = (id: string) => new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
		expect(input('name')).toContain('aria-invalid="true"');
		expect(input('name')).toContain('aria-describedby="name-error"');
		expect(input('email')).not.toContain('aria-invalid');
		expect(input('email')).not.toContain('aria-describedby');
		expect(html).toContain('<p class="field-error" id="name-error">Name: required</p>');
		// The summary links to the field.
		expect(html).toContain('<a href="#name">Name: required</a>');
	});
});

describe('Payment Page: test mode, bank transfer, receipt', () => {
	it('says TEST MODE on sandbox checkouts only', () => {
		expect(renderView({ nonce: 'n', config: config(), testMode: true }, view({}))).toContain('TEST MODE');
		expect(renderView({ nonce: 'n', config: config() }, view({}))).not.toContain('TEST MODE');
		expect(takesTestPayments({ environment: 'sandbox', baseUrl: '' })).toBe(true);
		expect(takesTestPayments({ environment: 'production', baseUrl: '' })).toBe(false);
		expect(takesTestPayments({ environment: 'custom', baseUrl: 'http://127.0.0.1:4010' })).toBe(true);
		expect(takesTestPayments({ environment: 'custom', baseUrl: 'https://payments.example.com' })).toBe(false);
	});

	it('offers a copy button for the account number (shown by the script) and the deadline as a machine-readable time', () => {
		const html = renderView(
			{ nonce: 'n', config: config() },
			view({ kind: 'bank', record: { accountNumber: '9912345678', bankName: 'Sandbox Bank', accountName: 'PayOnUs/Ticket' } }),
		);
		expect(html).toContain('<span id="account-number">9912345678</span>');
		expect(html).toMatch(/<button type="button" class="copy secondary" data-copy="account-number"[^>]*hidden>Copy<span class="sr"> account number<\/span><\/button>/);
		expect(html).toContain('<time datetime="2026-01-15T17:30:00.000Z" data-local>2026-01-15 17:30 UTC</time>');
	});

	it('lets the receipt reference wrap only after a hyphen', () => {
		const ref = 'ONUS-NUB-1000000000042-15012026-100000';
		const html = renderView({ nonce: 'n', config: config() }, view({ kind: 'paid', record: { onusReference: ref } }));
		expect(html).toContain(
			'<dd id="payment-reference" class="ref"><span class="nowrap">ONUS</span>-<wbr><span class="nowrap">NUB</span>-<wbr><span class="nowrap">1000000000042</span>-<wbr><span class="nowrap">15012026</span>-<wbr><span class="nowrap">100000</span></dd>',
		);
	});
});
