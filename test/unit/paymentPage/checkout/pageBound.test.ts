import { boundAttemptOf, isThisPagesCheckout, newPageCheckoutId } from '../../../../nodes/PayOnUsPaymentPage/checkout/pageBound';
import { deriveKey } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';

const pageA = deriveKey('secret', 'wf-1|node-a');
const pageB = deriveKey('secret', 'wf-1|node-b');

describe('checkout ids bound to their page', () => {
	it("a page's id is its own and no other page's; a changed digit is no page's", () => {
		const id = newPageCheckoutId(pageA);
		expect(id).toMatch(/^[0-9a-f]{32}$/);
		expect(isThisPagesCheckout(id, pageA)).toBe(true);
		expect(isThisPagesCheckout(id, pageB)).toBe(false);
		const flipped = `${id.slice(0, 31)}${id[31] === '0' ? '1' : '0'}`;
		expect(isThisPagesCheckout(flipped, pageA)).toBe(false);
		expect(isThisPagesCheckout(`${id.slice(0, 15)}${id[15] === '0' ? '1' : '0'}${id.slice(16)}`, pageA)).toBe(false);
	});

	it('ids are new each time; an unbound (24 hex) or malformed id is no page\'s', () => {
		expect(newPageCheckoutId(pageA)).not.toBe(newPageCheckoutId(pageA));
		for (const id of ['ab'.repeat(12), 'AB'.repeat(16), '', 'x'.repeat(32)]) expect(isThisPagesCheckout(id, pageA)).toBe(false);
	});

	it('reads an attempt reference PP-<32 hex>-<n> (n from 1 to the most attempts); anything else is none', () => {
		const id = 'a'.repeat(32);
		expect(boundAttemptOf(`PP-${id}-1`)).toEqual({ id, n: 1 });
		expect(boundAttemptOf(`PP-${id}-5`)).toEqual({ id, n: 5 });
		for (const ref of [`PP-${id}-6`, `PP-${id}-0`, `PP-${id}-01`, `PP-${id}`, `PP-${'a'.repeat(24)}-1`, ` PP-${id}-1`, 7, undefined]) expect(boundAttemptOf(ref)).toBeUndefined();
	});
});
