import { methodById, methodOfStep } from '../methods';
import { CheckoutInputError } from './input';
import { STEP_KIT } from './kit';
import { isExpired, nextView, notYet, paidView } from './nextView';
import { emitNotPaid } from './outcomes';
import { caughtUp } from './catchUp';
import { flashed, safeValues, shown, unflashed } from './flash';
import { refresh } from './refresh';
import type { CheckoutState } from './sealedState';
import { priceChanged, priceTerms, restarted } from './terms';
import { chooseMethod, start } from './start';
import type { CheckoutEnv, Latest, PollAnswer, View } from './types';
import { view } from './view';
import { settle } from '../service';

export { CheckoutInputError } from './input';
export type { AskMode, CheckoutEnv, PageConfig, PollAnswer, View, ViewKind } from './types';

/**
 * A checkout, free of n8n (unit-tested with a fake client): the three things
 * a buyer's request asks of it, each run on what PayOnUs says now.
 *  - show (GET with a sealed state): the page as it stands;
 *  - poll (GET ?poll=1): its status only;
 *  - step (POST): one step: the start form and the method (start.ts), the
 *    check and the test payment here, any other to the method whose step it
 *    is (../methods/: one module per method).
 * Each first re-reads the attempts (refresh.ts) and decides paid
 * (paid.ts); a checkout that is paid stays paid. Then a state sealed under
 * a price the page no longer asks starts again (terms.ts): nothing is
 * created at the old price. A step's answer is a redirect to a GET, and
 * what it has to say travels sealed to that GET (flash.ts); a GET shows
 * the last real step, even from an address saved earlier (catchUp.ts).
 */
export class Checkout {
	constructor(private readonly env: CheckoutEnv) {}

	/** A fresh checkout (the start form). */
	fresh(id: string): View {
		const now = this.env.now();
		const expiresIn = Math.round(this.env.config.expiryMinutes * 60_000);
		return view(this.env, 'start', { v: 1, id, iat: now, exp: now + expiresIn, p: priceTerms(this.env.config) });
	}

	/** GET with a sealed state: the page as it stands, with what the POST before had to say (old links: `notice=check`). */
	async show(opened: CheckoutState, notice?: string): Promise<View> {
		const { state, flash } = unflashed(opened);
		const r = await caughtUp(this.env, await refresh(this.env, state));
		if (r.paid) return paidView(this.env, r.state, r.paid);
		if (!isExpired(this.env, r.state) && priceChanged(this.env.config, r.state)) return restarted(this.env, r.state, r.latest);
		return shown(nextView(this.env, r.state, r.latest, notice === 'check' ? notYet(r.latest) : undefined), flash);
	}

	/** GET ?poll=1: the status only. */
	async poll(opened: CheckoutState): Promise<PollAnswer> {
		const r = await refresh(this.env, unflashed(opened).state);
		if (r.paid) return { state: 'paid' };
		if (isExpired(this.env, r.state)) {
			emitNotPaid(this.env, r.state, 'expired');
			return { state: 'expired' };
		}
		if (priceChanged(this.env.config, r.state)) return { state: 'changed' };
		const status = String(r.latest?.record?.paymentStatus ?? '');
		if (!r.latest) return { state: 'open' };
		if (!r.latest.record || status === 'FAILED') return { state: 'failed' };
		return { state: 'pending' };
	}

	/**
	 * POST: one step. A paid checkout stays paid (double submit, stale tab):
	 * nothing new is created; nor on a state sealed under a price the page
	 * no longer asks (it starts again). The view's sealed state carries what
	 * it has to say to the GET the POST is redirected to.
	 */
	async step(opened: CheckoutState, step: string, form: Record<string, string>): Promise<View> {
		return flashed(this.env, await this.run(unflashed(opened).state, step, form));
	}

	private async run(state: CheckoutState, step: string, form: Record<string, string>): Promise<View> {
		const r = await refresh(this.env, state);
		if (r.paid) return paidView(this.env, r.state, r.paid);
		const s = r.state;
		if (isExpired(this.env, s)) {
			emitNotPaid(this.env, s, 'expired');
			return view(this.env, 'expired', s);
		}
		if (priceChanged(this.env.config, s)) return restarted(this.env, s, r.latest, form);
		const settled = await settle(dispatch(this.env, s, step, form, r.latest));
		if (settled.ok) return settled.value;
		if (!(settled.error instanceof CheckoutInputError)) throw settled.error;
		// The buyer's input refused: the same page again, with the message (400).
		const page = nextView(this.env, s, r.latest, settled.error.message, 400);
		return { ...page, values: safeValues(form), fieldErrors: settled.error.fields };
	}
}

/** The step a POST names (`step`), on a checkout already re-read. */
async function dispatch(
	env: CheckoutEnv,
	s: CheckoutState,
	step: string,
	form: Record<string, string>,
	latest: Latest | undefined,
): Promise<View> {
	if (step === 'start') return await start(env, s, form);
	if (step === 'method') return await chooseMethod(env, s, form.method, latest);
	if (step === 'check') return nextView(env, s, latest, notYet(latest));
	if (step === 'simulate') {
		// TEST MODE: the open attempt's method finishes it as the customer would (each checks TEST MODE itself).
		const simulate = methodById(latest?.attempt.m)?.simulate;
		return simulate ? await simulate(env, s, form, latest, STEP_KIT) : nextView(env, s, latest);
	}
	const method = methodOfStep(step);
	if (method) return await method.steps[step](env, s, form, latest, STEP_KIT);
	return nextView(env, s, latest);
}
