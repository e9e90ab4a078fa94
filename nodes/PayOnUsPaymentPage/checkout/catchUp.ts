import type { IDataObject } from 'n8n-workflow';
import { findPayinByReference } from '../service';
import { adoptedAttempt } from './adopt';
import { methodOfChannel } from '../methods';
import { withAttempt } from './input';
import { refresh, type Refreshed } from './refresh';
import { attemptReference, MAX_ATTEMPTS, type CheckoutState } from './sealedState';
import type { CheckoutEnv } from './types';

/**
 * An address saved at an earlier step (the browser's Back, a bookmark, a
 * second tab left open) carries the state of that step: the attempts made
 * after it are not in it. Their payins are found by reference (attempt n of
 * checkout PP-<id> is PP-<id>-<n>), so the page shows the last real step,
 * or the receipt once the payment was made, instead of the earlier form.
 * One look-up per GET of a checkout (the page's own status poll does not
 * look), counted at the door like every call (rule 4).
 *
 * An attempt found this way is proven like any other (./paid.ts) against
 * the amount the address holds, or the fixed price it was sealed with; an
 * address from before the buyer chose an amount holds none, and shows its
 * form (sending it again adopts the payin that holds the reference: ./adopt.ts).
 */
export async function caughtUp(env: CheckoutEnv, r: Refreshed): Promise<Refreshed> {
	if (r.paid) return r;
	const price = knownPrice(r.state);
	if (!price) return r;
	let state = r.state;
	let found: IDataObject | undefined;
	for (let n = (state.a ?? []).reduce((max, a) => Math.max(max, a.n), 0) + 1; n <= MAX_ATTEMPTS; n++) {
		const payin = await findPayinByReference(env, env.config.businessId, attemptReference(state, n));
		const m = methodOfChannel(payin?.paymentChannel);
		if (!payin || typeof payin.onusReference !== 'string' || !m) break;
		state = withAttempt({ ...state, m }, { ...adoptedAttempt(n, m, payin), amt: price.amt, cur: price.cur });
		found = payin;
	}
	if (!found) return r;
	return await refresh(env, { ...state, amt: price.amt, cur: price.cur, ...customerOf(state, found) });
}

/** The amount and currency an address holds: the buyer's, or the fixed price it was sealed with. */
function knownPrice(state: CheckoutState): { amt: number; cur: string } | undefined {
	if (state.amt !== undefined && state.cur) return { amt: state.amt, cur: state.cur };
	const [mode, cur, amount] = (state.p ?? '').split('|');
	const amt = Number(amount);
	return mode === 'fixed' && cur && amount !== undefined && Number.isFinite(amt) ? { amt, cur } : undefined;
}

/** An address from before the buyer gave an e-mail: the e-mail the payin was made for, as the service holds it. */
function customerOf(state: CheckoutState, payin: IDataObject): Partial<CheckoutState> {
	if (state.em) return {};
	const customer = (payin.customer ?? {}) as IDataObject;
	const email = [payin.email, payin.customerEmail, customer.email].find((x) => typeof x === 'string' && x !== '');
	return email ? { em: email as string } : {};
}
