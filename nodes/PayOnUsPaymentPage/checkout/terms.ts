import { safeValues } from './flash';
import { PENDING } from './input';
import type { Attempt, CheckoutState } from './sealedState';
import type { CheckoutEnv, Latest, PageConfig, View } from './types';
import { view } from './view';

/**
 * A sealed state never outlives the page it was sealed for (pure but for
 * sealing). A checkout creates its payins at the amount and currency the
 * page asks now: the state carries the page's price terms (`p`) from the
 * moment it was sealed, and each attempt the amount and currency its payin
 * was created for. When the merchant changed the price (a fixed amount, the
 * currency, the business, or bounds that no longer hold the buyer's amount), a tab opened
 * before starts again with a plain notice and creates nothing at the old
 * price (Checkout in ./index.ts checks it before any step). Its earlier
 * attempts stay in the state, marked `x`: they are still read on every
 * request, so money a buyer already paid to one is recognised, and the Paid
 * item says the price changed (`pagePriceChanged`, ./outcomes.ts).
 */

/** The page's price terms as sealed: `fixed|<currency>|<amount>|<business>` or `chosen|<currency>||<business>`. */
export function priceTerms(cfg: Pick<PageConfig, 'amountMode' | 'currency' | 'amount' | 'businessId'>): string {
	return cfg.amountMode === 'fixed' ? `fixed|${cfg.currency}|${cfg.amount}|${cfg.businessId}` : `chosen|${cfg.currency}||${cfg.businessId}`;
}

/** Whether an amount in a currency is one the page asks now (a fixed price, or within its bounds). */
export function askedNow(cfg: Pick<PageConfig, 'amountMode' | 'currency' | 'amount' | 'minAmount' | 'maxAmount'>, amount: number | undefined, currency: string | undefined): boolean {
	if (amount === undefined) return true;
	if (currency !== cfg.currency) return false;
	return cfg.amountMode === 'fixed' ? amount === cfg.amount : amount >= cfg.minAmount && amount <= cfg.maxAmount;
}

/**
 * Whether the page changed under this state: its sealed terms are not the
 * page's now, or the amount it holds is not one the page asks now. A state
 * sealed before terms existed (no `p`) is judged by its amount alone.
 */
export function priceChanged(cfg: PageConfig, state: CheckoutState): boolean {
	if (state.p !== undefined && state.p !== priceTerms(cfg)) return true;
	return !askedNow(cfg, state.amt, state.cur);
}

/** The amount and currency an attempt's payin was created for (the checkout's for an attempt sealed before attempts carried them). */
export function attemptPrice(state: CheckoutState, attempt: Attempt): { amt?: number; cur?: string } {
	return { amt: attempt.amt ?? state.amt, cur: attempt.cur ?? state.cur };
}

/** The price a state was sealed with, in words ("NGN 5,000.00"), when it is known. */
function wasPrice(state: CheckoutState): string | undefined {
	if (state.amt !== undefined && state.cur) return moneyText(state.amt, state.cur);
	const [mode, currency, amount] = (state.p ?? '').split('|');
	if (mode === 'fixed' && currency && amount !== undefined && Number.isFinite(Number(amount))) return moneyText(Number(amount), currency);
	return undefined;
}

function moneyText(amount: number, currency: string): string {
	return `${currency} ${amount.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** What the page asks now, in words. */
function nowPrice(cfg: PageConfig): string {
	return cfg.amountMode === 'fixed'
		? moneyText(cfg.amount, cfg.currency)
		: `an amount between ${moneyText(cfg.minAmount, cfg.currency)} and ${moneyText(cfg.maxAmount, cfg.currency)}`;
}

/**
 * The checkout started again after the page changed: the same checkout (its
 * reference, the buyer's fields, its earlier attempts marked `x`), the page's
 * terms now, a new expiry, the start form with a plain notice. Nothing is
 * sent to PayOnUs. `form`: the form the buyer was sending, shown again.
 */
export function restarted(env: CheckoutEnv, state: CheckoutState, latest: Latest | undefined, form: Record<string, string> = {}): View {
	const cfg = env.config;
	const now = env.now();
	const attempts = (state.a ?? []).map((a) => ({ ...a, ...attemptPrice(state, a), b: a.b ?? cfg.businessId, x: 1 as const }));
	const next: CheckoutState = {
		v: 1,
		id: state.id,
		iat: now,
		exp: now + Math.round(cfg.expiryMinutes * 60_000),
		p: priceTerms(cfg),
		...(state.em ? { em: state.em } : {}),
		...(state.nm ? { nm: state.nm } : {}),
		...(state.ph ? { ph: state.ph } : {}),
		...(attempts.length > 0 ? { a: attempts } : {}),
	};
	const was = wasPrice(state);
	const waiting = latest?.record && !latest.attempt.x && PENDING.has(String(latest.record.paymentStatus));
	const notice = [
		`The price of this payment changed while this page was open: it is now ${nowPrice(cfg)}${was ? ` (it was ${was})` : ''}.`,
		'Nothing was charged at the earlier price. Check your details and continue.',
		waiting && was
			? `If you already sent ${was}, do not pay again: it still counts. Reload this page in a minute to see your receipt.`
			: '',
	]
		.filter((x) => x)
		.join(' ');
	const values = safeValues(form);
	delete values.amount;
	return view(env, 'start', next, { message: notice, notice: true, values });
}
