import { simulatePaid } from './bank';
import { card, completeCard } from './card';
import { eft } from './eft';
import { CheckoutInputError, safeValues } from './input';
import { momo, momoOtp } from './momo';
import { isExpired, nextView, notYet, paidView } from './nextView';
import { emitNotPaid } from './outcomes';
import { refresh } from './refresh';
import type { CheckoutState } from './sealedState';
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
 *  - step (POST): one step, dispatched to its file in this folder: the start
 *    form and the method (start.ts), then one file per method (bank.ts,
 *    card.ts, momo.ts, eft.ts).
 * Each first re-reads the attempts (refresh.ts) and decides paid
 * (paid.ts); a checkout that is paid stays paid.
 */
export class Checkout {
	constructor(private readonly env: CheckoutEnv) {}

	/** A fresh checkout (the start form). */
	fresh(id: string): View {
		const now = this.env.now();
		const expiresIn = Math.round(this.env.config.expiryMinutes * 60_000);
		return view(this.env, 'start', { v: 1, id, iat: now, exp: now + expiresIn });
	}

	/** GET with a sealed state: the page as it stands (after "I have paid": `notice=check`). */
	async show(state: CheckoutState, notice?: string): Promise<View> {
		const r = await refresh(this.env, state);
		if (r.paid) return paidView(this.env, r.state, r.paid);
		return nextView(this.env, r.state, r.latest, notice === 'check' ? notYet(r.latest) : undefined);
	}

	/** GET ?poll=1: the status only. */
	async poll(state: CheckoutState): Promise<PollAnswer> {
		const r = await refresh(this.env, state);
		if (r.paid) return { state: 'paid' };
		if (isExpired(this.env, state)) {
			emitNotPaid(this.env, r.state, 'expired');
			return { state: 'expired' };
		}
		const status = String(r.latest?.record?.paymentStatus ?? '');
		if (!r.latest) return { state: 'open' };
		if (!r.latest.record || status === 'FAILED') return { state: 'failed' };
		return { state: 'pending' };
	}

	/** POST: one step. A paid checkout stays paid (double submit, stale tab): nothing new is created. */
	async step(state: CheckoutState, step: string, form: Record<string, string>): Promise<View> {
		const r = await refresh(this.env, state);
		if (r.paid) return paidView(this.env, r.state, r.paid);
		const s = r.state;
		if (isExpired(this.env, s)) {
			emitNotPaid(this.env, s, 'expired');
			return view(this.env, 'expired', s);
		}
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
	switch (step) {
		case 'start':
			return await start(env, s, form);
		case 'method':
			return await chooseMethod(env, s, form.method, latest);
		case 'card':
			return await card(env, s, form);
		case 'pin':
		case 'otp':
			return await completeCard(env, s, step, form, latest);
		case 'momo':
			return await momo(env, s, form);
		case 'momoOtp':
			return await momoOtp(env, s, form, latest);
		case 'eft':
			return await eft(env, s, form);
		case 'simulate':
			return await simulatePaid(env, s, latest);
		case 'check':
			return nextView(env, s, latest, notYet(latest));
		default:
			return nextView(env, s, latest);
	}
}
