/** Payment Page, step "route the request" (request/route.ts): what one request asks for. */
import { routeOf } from '../../../../nodes/PayOnUsPaymentPage/request/route';

describe('routeOf', () => {
	it('GET without a sealed state starts a checkout; a POST without one has expired', () => {
		expect(routeOf({ method: 'GET', query: {}, form: {} })).toEqual({ kind: 'start' });
		expect(routeOf({ method: 'GET', query: { c: '' }, form: {} })).toEqual({ kind: 'start' });
		expect(routeOf({ method: 'POST', query: {}, form: { step: 'start' } })).toEqual({ kind: 'expired' });
	});

	it('GET with one shows the checkout (with the notice of "I have paid"), or answers the poll', () => {
		expect(routeOf({ method: 'GET', query: { c: 'S' }, form: {} })).toEqual({ kind: 'show', sealed: 'S', notice: undefined });
		expect(routeOf({ method: 'GET', query: { c: 'S', notice: 'check' }, form: {} })).toEqual({ kind: 'show', sealed: 'S', notice: 'check' });
		expect(routeOf({ method: 'GET', query: { c: 'S', poll: '1' }, form: {} })).toEqual({ kind: 'poll', sealed: 'S' });
		// a sealed state that is not text (?c=a&c=b) is none
		expect(routeOf({ method: 'GET', query: { c: ['a', 'b'] }, form: {} })).toEqual({ kind: 'start' });
	});

	it("a POST runs the step its form names, on the form's sealed state first, else the address's", () => {
		const form = { c: 'FORM', step: 'card', cardData: 'x' };
		expect(routeOf({ method: 'POST', query: { c: 'URL', poll: '1' }, form })).toEqual({ kind: 'step', sealed: 'FORM', step: 'card', form });
		expect(routeOf({ method: 'POST', query: { c: 'URL' }, form: { step: 'check' } })).toEqual({
			kind: 'step',
			sealed: 'URL',
			step: 'check',
			form: { step: 'check' },
		});
		expect(routeOf({ method: 'POST', query: { c: 'URL' }, form: {} })).toMatchObject({ kind: 'step', step: '' });
	});
});
