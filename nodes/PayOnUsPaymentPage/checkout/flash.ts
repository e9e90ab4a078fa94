import { PAGE_METHODS } from '../methods';
import type { CheckoutState, Flash } from './sealedState';
import type { CheckoutEnv, View } from './types';

/**
 * Post/redirect/get, errors included (pure but for sealing): every POST of
 * the page is answered with a 303 to a GET (request/answer.ts), so the
 * browser's Back and reload never re-send a form ("Confirm Form
 * Resubmission"). What a POST has to say (a refused form: its message, each
 * field's error and the values typed; a notice) travels to that GET sealed
 * in the state (`f`), like the rest of the checkout: never in the address in
 * clear, never sent to PayOnUs. The GET shows it on the view it was made
 * for; the forms of that view carry the state without it.
 */

/** Longest message and value a flash carries (the sealed state is bounded: sealedState.ts). */
const MAX_MESSAGE = 1000;
const MAX_VALUE = 200;

/** A view answering a POST: its sealed state with what it has to say, for the GET it is redirected to. */
export function flashed(env: Pick<CheckoutEnv, 'seal'>, view: View): View {
	if (view.message === undefined && view.fieldErrors === undefined && view.values === undefined) return view;
	const f: Flash = { k: view.kind };
	if (view.message !== undefined) f.m = view.message.slice(0, MAX_MESSAGE);
	if (view.notice) f.n = 1;
	if (view.fieldErrors) f.e = bounded(view.fieldErrors, MAX_MESSAGE);
	if (view.values) f.f = bounded(view.values, MAX_VALUE);
	if (view.status !== undefined && view.status !== 200) f.s = view.status;
	return { ...view, sealed: env.seal({ ...view.state, f }) };
}

/** A state as a GET or POST opened it: the checkout, and what the POST before had to say. */
export function unflashed(opened: CheckoutState): { state: CheckoutState; flash?: Flash } {
	const { f, ...state } = opened;
	return f && typeof f === 'object' && typeof f.k === 'string' ? { state, flash: f } : { state };
}

/** The view with what the POST before had to say, when it is the view that POST led to (a payment landed since: not shown). */
export function shown(view: View, flash: Flash | undefined): View {
	if (!flash || flash.k !== view.kind) return view;
	return {
		...view,
		...(flash.m !== undefined ? { message: flash.m } : {}),
		...(flash.n === 1 ? { notice: true } : {}),
		...(flash.e ? { fieldErrors: flash.e } : {}),
		...(flash.f ? { values: flash.f } : {}),
		...(flash.s !== undefined ? { status: flash.s } : {}),
	};
}

function bounded(values: Record<string, unknown>, max: number): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(values)) if (typeof v === 'string' && k.length < 40) out[k] = v.slice(0, max);
	return out;
}

/** The fields a refused form may show again: the start form's, and each method's own (never card data, PIN or codes). */
const ECHOED = ['amount', 'email', 'name', 'phone', 'method', ...PAGE_METHODS.flatMap((m) => m.echo)];

/** Form values safe to echo back into the page. */
export function safeValues(form: Record<string, string>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const k of ECHOED) {
		if (typeof form[k] === 'string') out[k] = form[k].slice(0, 254);
	}
	return out;
}
