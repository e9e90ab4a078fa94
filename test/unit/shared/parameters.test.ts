import { booleanParameter, describeValue, numberParameter, parseBoolean, parseNumber, readBoolean, readOption } from '../../../nodes/shared/parameters';

/** Strict reading of parameters the way n8n hands them (nodes/shared/parameters.ts). */
describe('strict parameter reading', () => {
	it('booleans: true/false and their text, trimmed and any case; nothing else', () => {
		for (const v of [true, 'true', 'TRUE', ' True ']) expect(parseBoolean(v)).toBe(true);
		for (const v of [false, 'false', ' FALSE\n']) expect(parseBoolean(v)).toBe(false);
		for (const v of ['yes', '', '1', 1, 0, undefined, null, 'on', {}, []]) expect(parseBoolean(v)).toBeUndefined();
	});

	it('an unreadable switch is an error naming the parameter and the value, never the default', () => {
		expect(() => readBoolean('yes', 'dryRun', 'Dry Run')).toThrow('"dryRun" (Dry Run) must be true or false, got the text "yes"');
		expect(() => readBoolean('', 'dryRun')).toThrow('"dryRun" must be true or false, got empty text ""');
		expect(() => readBoolean(undefined, 'dryRun')).toThrow('got nothing (undefined');
		expect(() => booleanParameter(() => '1', 'confirmWithService', true)).toThrow('"confirmWithService" must be true or false, got the text "1"');
		expect(booleanParameter((_, fallback) => fallback, 'confirmWithService', true)).toBe(true);
	});

	it('numbers: finite numbers and plain decimal text', () => {
		expect(parseNumber(' 1500.00 ')).toBe(1500);
		expect(parseNumber(-2)).toBe(-2);
		for (const v of ['', '1,5', 'abc', '1e3', NaN, Infinity, undefined, null, true]) expect(parseNumber(v)).toBeUndefined();
		expect(() => numberParameter(() => '', 'limit', 50)).toThrow('"limit" must be a number, got empty text ""');
	});

	it('options: one of the values, text trimmed', () => {
		expect(readOption(' payins ', ['payins', 'payouts'], 'records')).toBe('payins');
		expect(() => readOption('PAYINS', ['payins', 'payouts'], 'records')).toThrow('"records" must be one of "payins", "payouts", got the text "PAYINS"');
	});

	it('describes values without dumping them', () => {
		expect(describeValue('x'.repeat(100))).toContain('...');
		expect(describeValue({ secret: 'no' })).toBe('an object');
	});
});
