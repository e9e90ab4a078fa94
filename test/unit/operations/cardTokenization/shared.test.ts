import { withoutCardData } from '../../../../nodes/PayOnUs/resources/cardTokenization/shared';

describe('withoutCardData (the tokenization operations\' shared.ts)', () => {
	it('withoutCardData drops card keys deep and masks bare card numbers', () => {
		expect(withoutCardData({ a: [{ pan: '4111111111111111', note: '5500000000000004', ok: '12345' }], cardData: 'enc' })).toEqual({
			a: [{ note: '****0004', ok: '12345' }],
		});
	});
});
