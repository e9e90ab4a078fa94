/**
 * The buyer's amount and name on the payment page, read by the shared
 * readers (rule 7, docs/reliability.md; issue 36). On main "150,50" became
 * a payin of 15050 (commas were stripped) and "1,500" one of 1500.
 */
import { amountFrom, CheckoutInputError, withCustomer } from '../../../../nodes/PayOnUsPaymentPage/checkout/input';
import { pageConfig } from '../fakes';

const chosen = pageConfig({ amountMode: 'customer', minAmount: 1, maxAmount: 100000, currency: 'ZAR' });

const message = (fn: () => unknown): string => {
	try {
		fn();
	} catch (error) {
		if (error instanceof CheckoutInputError) return error.message;
		throw error;
	}
	throw new Error('accepted');
};

describe('the buyer-chosen amount is read one way', () => {
	it('"150,50" (a decimal comma) is refused, telling the buyer to write 150.50; never 15050', () => {
		expect(message(() => amountFrom(chosen, '150,50'))).toBe(
			'Amount: write 150.50 (not "150,50"), with a point before the cents and no thousands separators',
		);
	});

	it.each([
		['1,500', 'Amount: "1,500" can be read as 1500 or 1.50: write the one you mean'],
		['1.500', 'Amount: "1.500" can be read as 1500 or 1.50: write the one you mean'],
		['1 500', 'Amount: write 1500 (not "1 500")'],
		['1,500.50', 'Amount: write 1500.50 (not "1,500.50")'],
		['1.500,50', 'Amount: write 1500.50 (not "1.500,50")'],
	])('%j is refused naming the form to write', (raw, start) => {
		expect(message(() => amountFrom(chosen, raw))).toMatch(new RegExp(`^${start.replace(/[.()]/g, '\\$&')}`));
	});

	it('plain amounts are taken as written, within the page bounds', () => {
		expect(amountFrom(chosen, '150.50')).toBe(150.5);
		expect(amountFrom(chosen, ' 1500 ')).toBe(1500);
		expect(message(() => amountFrom(chosen, 'abc'))).toBe('Amount: enter a number with at most 2 decimals');
		expect(message(() => amountFrom(chosen, '100000.01'))).toBe('Amount: choose between 1 and 100000 ZAR');
	});

	it('the start form shows the amount message at its field and keeps nothing of it', () => {
		let error: unknown;
		try {
			withCustomer(chosen, { v: 1 } as never, { amount: '150,50', email: 'ada@example.com' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(CheckoutInputError);
		expect((error as CheckoutInputError).fields?.amount).toContain('write 150.50');
	});
});

describe("the buyer's name never starts like a spreadsheet formula", () => {
	it.each(['=HYPERLINK("http://evil.example","x")', '+1', '-x', '@SUM(1)'])('%j is refused at the Name field', (name) => {
		const cfg = pageConfig({ askName: 'required' });
		let error: unknown;
		try {
			withCustomer(cfg, { v: 1 } as never, { email: 'ada@example.com', name });
		} catch (e) {
			error = e;
		}
		expect((error as CheckoutInputError).fields?.name).toBe(`Name: start with a letter (not "${name[0]}")`);
	});
	it('an ordinary name is kept', () => {
		const cfg = pageConfig({ askName: 'required' });
		expect(withCustomer(cfg, { v: 1 } as never, { email: 'ada@example.com', name: "Ada O'Brien-Obi" }).nm).toBe("Ada O'Brien-Obi");
	});
});
