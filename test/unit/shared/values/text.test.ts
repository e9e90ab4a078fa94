/**
 * Rule 7 (docs/reliability.md), text: a number where text is expected is
 * refused saying to keep it as text (its leading zeros may be gone); text
 * that reaches a bank never starts like a spreadsheet formula; reports are
 * neutralised instead (nodes/shared/values/text.ts). Issue 36.
 */
import { formulaProblem, lookAlike, notTextMessage, scientificNotation, spreadsheetSafe, spreadsheetSafeDeep } from '../../../../nodes/shared/values/text';

describe('a number where text is expected', () => {
	it('says the leading zeros may be gone and how to keep the value as text', () => {
		const m = notTextMessage(123456789);
		expect(m).toMatch(/^must be text, not the number 123456789: /);
		expect(m).toContain('0123456789 becomes 123456789');
		expect(m).toContain('format the spreadsheet column as Text, or put the value in quotes');
	});
	it('objects, lists and booleans keep their messages', () => {
		expect(notTextMessage({ a: 1 })).toBe('must be text, not an object');
		expect(notTextMessage([1])).toBe('must be text, not a list');
		expect(notTextMessage(true)).toBe('must be text, not true');
	});
	it('a spreadsheet\'s scientific notation of an account number is named', () => {
		expect(scientificNotation('1.23457E+11')).toContain('scientific notation');
		expect(scientificNotation('1234567890')).toBeUndefined();
	});
});

describe('text that starts like a formula', () => {
	it.each(['=HYPERLINK("http://x","click")', '+2+3', '-1+1', '@SUM(A1)', '\tx', '\rx', '\nx'])('%j is refused where it reaches a bank', (text) => {
		expect(formulaProblem(text)).toMatch(/^must not start with ("."|a tab|a line break): a spreadsheet opening it .* would run it as a formula/);
	});
	it.each(['Ada Obi', 'Invoice 1-2', 'a=b', "O'Brien", ''])('%j is not', (text) => {
		expect(formulaProblem(text)).toBeUndefined();
	});
	it("is neutralised with ' in reports, everything else kept", () => {
		expect(spreadsheetSafe('=1+1')).toBe("'=1+1");
		expect(spreadsheetSafe('-5')).toBe("'-5");
		expect(spreadsheetSafe('Ada')).toBe('Ada');
		expect(spreadsheetSafeDeep({ a: '@x', b: [{ c: '+1' }], n: -5, z: null, t: true })).toEqual({ a: "'@x", b: [{ c: "'+1" }], n: -5, z: null, t: true });
	});
});

describe('look-alike characters in a reference are named', () => {
	it.each([
		['REF-\u0410', '"\u0410" (U+0410)'],
		['REF\u200b1', 'an invisible character (U+200B)'],
		['REF-\uff11', '"\uff11" (U+FF11)'],
	])('%j', (text, named) => {
		expect(lookAlike(text)).toBe(named);
	});
	it('plain ASCII has none', () => {
		expect(lookAlike('REF-1_a.b/c')).toBeUndefined();
	});
});
