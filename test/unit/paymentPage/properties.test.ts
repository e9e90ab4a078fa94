/**
 * Issue 38, the from-scratch walk-through of a payment page
 * (scripts/page-walkthrough.ts): what the builder had to look up outside the
 * editor is said by the node's own panel (nodes/PayOnUsPaymentPage/properties.ts):
 * which of the three Webhook URLs to share and what /notify is for, what TEST
 * MODE is and the button that finishes a test payment, and what the Paid item
 * holds. The notice's words are checked against what the page and the node
 * really have (the button's label, the webhooks, the simplified fields), so
 * a renamed button or field fails here. Fails on the code before (one notice,
 * no /notify, no TEST MODE, no item).
 */
import { paymentPageProperties } from '../../../nodes/PayOnUsPaymentPage/properties';
import { simulateForm } from '../../../nodes/PayOnUsPaymentPage/render/views';
import { PayOnUsPaymentPage } from '../../../nodes/PayOnUsPaymentPage/PayOnUsPaymentPage.node';
import { SIMPLIFIED_FIELDS } from '../../../nodes/shared/triggerSimplify';

const notices = paymentPageProperties.filter((p) => p.type === 'notice').map((p) => p.displayName);
const said = notices.join('\n');

describe('the Payment Page panel says what a builder starting from scratch needs', () => {
	it('which Webhook URL to share, and what the /notify one is for (a URL the node really has)', () => {
		const paths = (new PayOnUsPaymentPage().description.webhooks ?? []).map((w) => `${w.httpMethod} ${String(w.path)}`);
		expect(paths.some((p) => p.startsWith('GET'))).toBe(true);
		expect(paths.some((p) => p.startsWith('POST') && p.includes('"/notify"'))).toBe(true);
		expect(said).toMatch(/Production URL: share the first one \(GET: the page\)/);
		expect(said).toMatch(/ending in \/notify is for buyers who close the tab/);
		expect(said).toContain('Buyers who close the tab');
	});

	it('what TEST MODE is, and the button the page shows to finish a test payment, by its label', () => {
		const label = /<button[^>]*id="simulate">([^<]+)<\/button>/.exec(simulateForm('s', 'w'))?.[1];
		expect(label).toBeTruthy();
		expect(said).toContain('TEST MODE');
		expect(said).toContain(`"${label}"`);
	});

	it('what the Paid item holds: each field named is one the simplified item has', () => {
		const named = ['amount', 'currency', 'customerEmail', 'merchantCheckoutReference', 'onusReference', 'paymentMethod'];
		for (const field of named) {
			expect(said).toContain(field);
			expect(SIMPLIFIED_FIELDS.pagePaid).toContain(field);
		}
	});
});
