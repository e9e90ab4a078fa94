/**
 * Rule 7 (docs/reliability.md), phone numbers: E.164 only; a local number,
 * 00 or digits without + (where the country is not certain) refused, naming
 * E.164 (nodes/shared/values/phone.ts). Issue 36.
 */
import { readPhone } from '../../../../nodes/shared/values/phone';

describe('phone numbers are read one way', () => {
	it.each([
		['+2348012345678', '+2348012345678'],
		['+234 801 234 5678', '+2348012345678'],
		['+254 700-000000', '+254700000000'],
	])('E.164 %j is %j', (raw, value) => {
		expect(readPhone(raw)).toEqual({ ok: true, value });
	});

	it.each(['08012345678', '2348012345678', '+44 (0)20 7946 0000', '+234.801.234.5678', 'call me'])('%j (country not certain) is refused naming E.164', (raw) => {
		const r = readPhone(raw);
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toMatch(/^must be in international format: \+ followed by 7 to 15 digits, e\.g\. \+2348012345678/);
	});

	it('00 is refused, saying the + form to write', () => {
		expect(readPhone('002348012345678')).toMatchObject({ ok: false, message: expect.stringContaining('(write +2348012345678)') });
	});

	it('where the country is named, its code without + is its one reading; a local number is told its + form', () => {
		expect(readPhone('254700000000', { country: 'KE' })).toEqual({ ok: true, value: '254700000000' });
		expect(readPhone('0700000001', { country: 'KE' })).toMatchObject({ ok: false, message: expect.stringContaining('(write +254700000001)') });
		// another country's digits without + are not read as this one's
		expect(readPhone('233244123456', { country: 'KE' }).ok).toBe(false);
		expect(readPhone('254700000000', { country: 'XX' }).ok).toBe(false);
	});

	it('a number is refused: keep it as text', () => {
		expect(readPhone(2348012345678)).toMatchObject({ ok: false, message: expect.stringMatching(/^must be text, not the number 2348012345678/) });
	});
});
