import { namesMatch, normaliseName } from '../../../../nodes/PayOnUs/resources/payout/shared';

describe('name matching rule', () => {
	it('ignores case and spacing only', () => {
		expect(normaliseName('  Ada   OBI ')).toBe('ada obi');
		expect(namesMatch('Ada Obi', 'ADA\tobi')).toBe(true);
		expect(namesMatch('Ada Obi', 'Obi Ada')).toBe(false);
		expect(namesMatch('Ada Obi', 'Ada Obi.')).toBe(false);
	});
});
