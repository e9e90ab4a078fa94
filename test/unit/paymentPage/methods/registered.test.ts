/**
 * Payment Page: every registered payment method (methods/index.ts) has all
 * its parts (methods/types.ts), and they fit the page: an option in the
 * node's Payment Methods, its parameters shown only when chosen, a payin
 * call and a proof of its service references, steps and views unique to it,
 * a view for every step its attempts can be on, a form that posts a step it
 * answers. A method registered without one of them fails here.
 */
import { PAYMENT_METHOD_PARTS, PAGE_METHODS } from '../../../../nodes/PayOnUsPaymentPage/methods';
import { paymentPageProperties } from '../../../../nodes/PayOnUsPaymentPage/properties';
import { renderView } from '../../../../nodes/PayOnUsPaymentPage/render/html';
import type { View } from '../../../../nodes/PayOnUsPaymentPage/checkout';
import { pageConfig } from '../fakes';
import { resources } from '../../../../nodes/PayOnUs/resources';
import { isAttempt } from '../../../../nodes/PayOnUsPaymentPage/request/bounds';

const PAGE_VIEWS = ['start', 'details', 'processing', 'paid', 'expired', 'closed'];
const PAGE_STEPS = ['start', 'method', 'check', 'simulate'];
const state = { v: 1 as const, id: 'c'.repeat(24), iat: 0, exp: Date.UTC(2026, 0, 1, 12, 30), amt: 10, cur: 'NGN', em: 'a@example.com' };

function unique(values: string[]): void {
	expect(values.filter((v, i) => values.indexOf(v) !== i)).toEqual([]);
}

describe.each(PAGE_METHODS.map((m) => [m.id, m] as const))('the payment method %s', (id, method) => {
	it('has every part', () => {
		const parts = method as unknown as Record<string, unknown>;
		const missing = PAYMENT_METHOD_PARTS.filter((part) => parts[part] === undefined || parts[part] === null || parts[part] === '');
		expect(missing).toEqual([]);
		expect(Object.keys(method.views).length).toBeGreaterThan(0);
		expect(Object.keys(method.stepViews).length).toBeGreaterThan(0);
		expect(method.steps).toBeDefined();
		expect(Object.keys(method.steps).length + (method.start ? 1 : 0)).toBeGreaterThan(0);
		expect(typeof method.payin).toBe('function');
		expect(typeof method.offer).toBe('function');
		expect(typeof method.form).toBe('function');
		expect(typeof method.adopted).toBe('function');
		expect(method.call.proof.types?.length).toBeGreaterThan(0);
		expect(method.needs.what).not.toBe('');
		expect(method.needs.needs).not.toBe('');
		expect(method.label.name).not.toBe('');
		expect(method.label.hint).not.toBe('');
	});

	it("makes the money-moving call a PayOnUs payin operation declares, and the page's bounds count it as an attempt", () => {
		const declared = resources.flatMap((r) => r.operations).filter((op) => op.moneyCall === method.call);
		expect(declared.map((op) => op.resource)).toEqual(['payin']);
		expect(isAttempt({ method: 'POST', path: method.call.path })).toBe(true);
	});

	it("is an option of the node's Payment Methods, its parameters shown only when it is chosen", () => {
		const option = paymentPageProperties.find((p) => p.name === 'methods')?.options?.find((o) => 'value' in o && o.value === id);
		expect(option).toEqual({ name: method.option.name, value: id, description: method.option.description });
		for (const property of method.properties) {
			expect(paymentPageProperties).toContainEqual(property);
			expect(property.displayOptions?.show?.methods).toEqual([id]);
		}
	});

	it('has a view for every step its attempts can be on, and renders each', () => {
		for (const [step, kind] of Object.entries(method.stepViews)) {
			expect([step, typeof method.views[kind]]).toEqual([step, 'function']);
			const view: View = { kind, state: { ...state, m: id }, sealed: '1.s', attempt: { n: 1, m: id, r: 'ONUS-X-1', s: step } };
			expect(renderView({ nonce: 'n', config: pageConfig({ methods: [id] }) }, view)).not.toContain('Something went wrong');
		}
		for (const kind of Object.keys(method.views)) expect(Object.values(method.stepViews)).toContain(kind);
	});

	it('has a form that posts a step it answers (or the method choice, for one that starts at once)', () => {
		const view: View = { kind: 'details', state: { ...state, m: id }, sealed: '1.s' };
		const html = method.form({ nonce: 'n', config: pageConfig({ methods: [id] }) }, view, 'NGN 10.00').html;
		expect(html).toContain('id="pay-h"');
		const posted = /name="step" value="([^"]+)"/.exec(html)?.[1] ?? '';
		expect(posted === 'method' ? method.start !== undefined : Object.keys(method.steps).includes(posted)).toBe(true);
	});
});

describe('the registered methods together', () => {
	it('have unique ids, channels, options, steps and views, apart from the page’s own', () => {
		unique(PAGE_METHODS.map((m) => m.id));
		unique(PAGE_METHODS.map((m) => m.channel));
		unique(PAGE_METHODS.map((m) => m.option.name));
		const steps = PAGE_METHODS.flatMap((m) => Object.keys(m.steps));
		unique([...steps, ...PAGE_STEPS]);
		const views = PAGE_METHODS.flatMap((m) => Object.keys(m.views));
		unique([...views, ...PAGE_VIEWS]);
		unique(PAGE_METHODS.flatMap((m) => Object.keys(m.stepViews)));
	});
});
