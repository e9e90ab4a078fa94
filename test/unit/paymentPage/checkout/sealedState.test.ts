/** Payment Page: the sealed checkout state (checkout/sealedState.ts). */
import { deriveKey, newCheckoutId, open, seal, type CheckoutState } from '../../../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { KEY } from '../fakes';

describe('the sealed checkout state', () => {
	it('opens what it sealed, and nothing altered or sealed for another node', () => {
		const state: CheckoutState = { v: 1, id: newCheckoutId(), iat: 1, exp: 2, em: 'a@b.co' };
		const token = seal(state, KEY);
		expect(open(token, KEY)).toEqual(state);
		expect(token).not.toContain('a@b.co');
		const flipped = token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21);
		expect(open(flipped, KEY)).toBeUndefined();
		expect(open(token, deriveKey('secret-1', 'wf|other-node'))).toBeUndefined();
		expect(open('garbage', KEY)).toBeUndefined();
	});
});
