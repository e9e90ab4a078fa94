/**
 * Rule 7 (docs/reliability.md), amounts: a form with two readings is refused
 * naming the form to write, never guessed (nodes/shared/values/amount.ts).
 * Each refusal case failed on main before issue 36 (a generic "plain digits"
 * message, or "1.500" told only "at most 2 decimal places"); the page took
 * "150,50" as 15050 (test/unit/paymentPage/checkout/input.test.ts).
 */
import { amountReadings, parseAmount } from '../../../../nodes/shared/values/amount';

const refusal = (value: unknown) => {
	const r = parseAmount(value);
	if (r.ok) throw new Error(`accepted ${JSON.stringify(value)} as ${r.value}`);
	return r;
};

describe('amounts with a decimal comma or thousands separators are refused, naming the form to write', () => {
	it.each([
		// a decimal comma: one reading, named
		['150,50', ['150.50'], 'write 150.50 (not "150,50")'],
		['150,5', ['150.5'], 'write 150.5'],
		// one separator before 3 digits: two readings, both named
		['1,500', ['1500', '1.50'], '"1,500" can be read as 1500 or 1.50: write the one you mean'],
		['1.500', ['1500', '1.50'], '"1.500" can be read as 1500 or 1.50: write the one you mean'],
		['2,000', ['2000', '2.00'], 'can be read as 2000 or 2.00'],
		// thousands separators of every kind
		['1 500', ['1500'], 'write 1500 (not "1 500")'],
		['1\u00a0500', ['1500'], 'write 1500'],
		['1\u202f500,25', ['1500.25'], 'write 1500.25'],
		["1'500.50", ['1500.50'], 'write 1500.50'],
		['1,500.50', ['1500.50'], 'write 1500.50 (not "1,500.50")'],
		['1.500,50', ['1500.50'], 'write 1500.50 (not "1.500,50")'],
		['1,500,000', ['1500000'], 'write 1500000'],
		['1.500.000', ['1500000'], 'write 1500000'],
		['1,50,000', ['150000'], 'write 150000'],
		['0.500', ['0.50'], 'write 0.50'],
	])('%j: %j', (text, write, hint) => {
		const r = refusal(text);
		expect(r.write).toEqual(write);
		expect(r.message).toMatch(/^must be a number with a point before the decimals and no thousands separators: /);
		expect(r.message).toContain(hint);
	});

	it('3 decimals that may be a thousands group say both: 1.234 is at most 2 decimals, or 1234', () => {
		const r = refusal('1.234');
		expect(r.message).toBe('must have at most 2 decimal places, or be written 1234 if the point separates thousands');
		expect(r.write).toEqual(['1234']);
	});

	it('what no separator convention explains keeps the plain-notation message', () => {
		for (const text of ['1.2.3', '1 50', '12,34,5', '₦1500', 'NGN 1500', '1500.505']) {
			const r = refusal(text);
			expect(r.write).toBeUndefined();
			expect(r.message).toMatch(/^must (be a number|have at most 2 decimal places)/);
		}
		expect(amountReadings('1500')).toBeUndefined();
	});
});

describe('what is certain is taken as written', () => {
	it.each([
		['1500', 1500],
		['1500.5', 1500.5],
		['1500.50', 1500.5],
		[' 1500.50 ', 1500.5],
		['0100', 100],
		[1500.5, 1500.5],
		[1500, 1500],
	])('%j is %j', (value, expected) => {
		const r = parseAmount(value);
		expect(r).toMatchObject({ ok: true, value: expected });
	});

	it('a JS number is never read as text with separators (it has one reading)', () => {
		expect(parseAmount(1.5)).toMatchObject({ ok: true, value: 1.5 });
		expect(parseAmount(1500)).toMatchObject({ ok: true, value: 1500 });
	});
});
