import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { CheckoutInputError, offeredMethod, PENDING, safeValues, withCustomer } from './input';
import { mismatches, notPaidItem, notPaidKey, paidItem } from './items';
import { bank, card, completeCard, eft, momo, momoOtp, type CheckoutSteps } from './payments';
import { findPayinByReference, getPayin, settle } from './service';
import {
	attemptReference,
	checkoutReference,
	MAX_ATTEMPTS,
	type Attempt,
	type CheckoutState,
} from './token';
import type { CheckoutEnv, Latest, PageConfig, PollAnswer, View, ViewKind } from './types';

export { CheckoutInputError } from './input';
export type { AskMode, CheckoutEnv, PageConfig, PollAnswer, View, ViewKind } from './types';

/**
 * The checkout state machine, free of n8n (unit-tested with a fake client).
 *
 * Every request: open the token, re-read the attempts' payins from PayOnUs
 * (Get Payment by onusReference, or the payment list by merchant reference
 * when the onusReference is not known yet), then act. A checkout is paid only
 * when Get Payment answers SUCCESSFUL for one of its attempts, with the
 * checkout's amount, currency, business and reference; the browser's word
 * (a return URL's `status=`, a click on "I have paid") is never taken.
 *
 * Every payin is created through the existing operation handlers
 * (service.ts; the steps per method in payments.ts), with the same
 * validation and money-moving safety: never resent blindly; a duplicate
 * reference returns the record that holds it. An attempt's reference is
 * `<checkout reference>-<n>`: a double submit, a reload or a second tab
 * re-sends the same reference and gets the same payin back.
 */

export class Checkout implements CheckoutSteps {
	constructor(private readonly env: CheckoutEnv) {}

	get cfg(): PageConfig {
		return this.env.config;
	}

	get client(): PayOnUsClient {
		return this.env.client;
	}

	view(kind: ViewKind, state: CheckoutState, extra: Partial<View> = {}): View {
		return { kind, state, token: this.env.seal(state), ...extra };
	}

	/** A fresh checkout (the start form). */
	fresh(id: string): View {
		const now = this.env.now();
		const state: CheckoutState = {
			v: 1,
			id,
			iat: now,
			exp: now + Math.round(this.cfg.expiryMinutes * 60_000),
		};
		return this.view('start', state);
	}

	expired(state: CheckoutState): boolean {
		return this.env.now() > state.exp;
	}

	// ---------- reading the service ----------

	/** The payin of one attempt, or undefined when PayOnUs has none. */
	async readAttempt(
		state: CheckoutState,
		attempt: Attempt,
	): Promise<IDataObject | undefined> {
		const reference = attemptReference(state, attempt.n);
		let onusReference = attempt.r;
		if (!onusReference) {
			const listed = await findPayinByReference(this.env.client, this.cfg.businessId, reference);
			if (!listed || typeof listed.onusReference !== 'string') return undefined;
			onusReference = listed.onusReference;
			attempt.r = onusReference;
		}
		return await getPayin(this.env.client, this.cfg.businessId, onusReference);
	}

	/** Is this record the paid payin of this checkout? (amount, currency, business, reference) */
	private confirms(state: CheckoutState, attempt: Attempt, record: IDataObject): boolean {
		if (record.paymentStatus !== 'SUCCESSFUL') return false;
		const problems = mismatches(state, attempt, record, this.cfg.businessId);
		if (problems.length > 0) {
			this.env.warn(
				`PayOnUs Payment Page: payin ${String(record.onusReference)} of checkout ${checkoutReference(state)} is SUCCESSFUL but does not match the checkout (${problems.join(', ')}); not treated as paid`,
			);
			return false;
		}
		return true;
	}

	/**
	 * Re-reads every attempt. Returns the paid one (emitting the workflow
	 * item if this request is the first to see it) and the latest one.
	 */
	private async refresh(state: CheckoutState): Promise<{
		state: CheckoutState;
		paid?: { attempt: Attempt; record: IDataObject };
		latest?: Latest;
	}> {
		const attempts = (state.a ?? []).map((a) => ({ ...a }));
		const next: CheckoutState = { ...state, a: attempts };
		let latest: Latest | undefined;
		for (const attempt of attempts) {
			const record = await this.readAttempt(next, attempt);
			if (record && this.confirms(next, attempt, record)) {
				this.emitPaid(next, attempt, record);
				return {
					state: next,
					paid: { attempt, record },
					latest: { attempt, record },
				};
			}
			if (record?.paymentStatus === 'FAILED') this.emitNotPaid(next, 'failed', attempt, record);
			latest = { attempt, record };
		}
		return { state: next, latest };
	}

	private emitPaid(state: CheckoutState, attempt: Attempt, record: IDataObject): void {
		this.env.emit(paidItem(state, attempt, record, this.env.now()), checkoutReference(state));
	}

	/**
	 * A failed attempt, or an expired checkout the customer had filled in (a
	 * visitor who never gave an e-mail is not a checkout). Only as far as a
	 * request sees it: a checkout nobody opens again is never looked at (the
	 * node has no timers; PENDING payins with references PP-... can be found
	 * with List Payments).
	 */
	private emitNotPaid(
		state: CheckoutState,
		outcome: 'failed' | 'expired',
		attempt?: Attempt,
		record?: IDataObject,
	): void {
		if (!this.env.emitNotPaid || state.amt === undefined) return;
		const item = notPaidItem(state, this.cfg.businessId, outcome, this.env.now(), attempt, record);
		this.env.emitNotPaid(item, notPaidKey(state, outcome, attempt));
	}

	private paidView(state: CheckoutState, paid: { attempt: Attempt; record: IDataObject }): View {
		const done: CheckoutState = {
			...state,
			a: state.a?.map((a) => (a.n === paid.attempt.n ? { ...a, s: 'paid' } : a)),
		};
		if (this.cfg.onSuccess === 'redirect' && this.cfg.redirectUrl) {
			const u = new URL(this.cfg.redirectUrl);
			u.searchParams.set('merchantCheckoutReference', checkoutReference(state));
			return this.view('paid', done, {
				redirect: u.toString(),
				attempt: paid.attempt,
				record: paid.record,
			});
		}
		return this.view('paid', done, {
			attempt: paid.attempt,
			record: paid.record,
		});
	}

	/** What the page shows for a state after a refresh. */
	async current(state: CheckoutState, message?: string, status?: number): Promise<View> {
		const r = await this.refresh(state);
		if (r.paid) return this.paidView(r.state, r.paid);
		return this.afterRefresh(r.state, r.latest, message, status);
	}

	afterRefresh(
		state: CheckoutState,
		latest: Latest | undefined,
		message?: string,
		status?: number,
	): View {
		if (this.expired(state)) {
			this.emitNotPaid(state, 'expired');
			return this.view('expired', state);
		}
		if (state.amt === undefined) return this.view('start', state, { message, status });
		if (!latest) return this.view('details', state, { message, status });
		const { attempt, record } = latest;
		// The customer chose another method after this attempt (e.g. card
		// instead of an open bank transfer): its form. The open attempt is
		// still read on every request, so paying it still counts.
		if (state.m && state.m !== attempt.m) return this.view('details', state, { message, status });
		const payinStatus = String(record?.paymentStatus ?? '');
		if (!record || payinStatus === 'FAILED') {
			const why = record
				? String(record.providerResponse ?? record.message ?? 'The payment did not go through.')
				: 'The payment did not go through.';
			if ((state.a?.length ?? 0) >= MAX_ATTEMPTS)
				return this.view('closed', state, { message: why });
			return this.view(
				'details',
				{ ...state, m: state.m ?? attempt.m },
				{ message: message ?? `${why} You can try again.`, attempt, status },
			);
		}
		if (PENDING.has(payinStatus) || payinStatus === 'SUCCESSFUL') {
			return this.stepView(state, attempt, record, message, status);
		}
		return this.view('processing', state, { attempt, record, message, status });
	}

	private stepView(
		state: CheckoutState,
		attempt: Attempt,
		record: IDataObject,
		message?: string,
		status?: number,
	): View {
		const base = { attempt, record, message, status };
		switch (attempt.s) {
			case 'bank':
				return this.view('bank', state, base);
			case 'pin':
				return this.view('pin', state, base);
			case 'otp':
				return this.view('otp', state, base);
			case '3ds':
				return this.view('threeDs', state, base);
			case 'momoOtp':
				return this.view('momoOtp', state, base);
			case 'momoWait':
				return this.view('momoWait', state, base);
			case 'eft':
				return this.view('eft', state, base);
			default:
				return this.view('processing', state, base);
		}
	}

	// ---------- entry points ----------

	/** GET with a token: the page as it stands. */
	async show(state: CheckoutState, notice?: string): Promise<View> {
		const r = await this.refresh(state);
		if (r.paid) return this.paidView(r.state, r.paid);
		// After "I have paid" (post/redirect/get carries `notice=check`).
		return this.afterRefresh(
			r.state,
			r.latest,
			notice === 'check' ? this.notYet(r.latest) : undefined,
		);
	}

	/** GET ?poll=1: the status only. */
	async poll(state: CheckoutState): Promise<PollAnswer> {
		const r = await this.refresh(state);
		if (r.paid) return { state: 'paid' };
		if (this.expired(state)) {
			this.emitNotPaid(r.state, 'expired');
			return { state: 'expired' };
		}
		const status = String(r.latest?.record?.paymentStatus ?? '');
		if (!r.latest) return { state: 'open' };
		if (!r.latest.record || status === 'FAILED') return { state: 'failed' };
		return { state: 'pending' };
	}

	/** POST: one step of the checkout. */
	async step(state: CheckoutState, step: string, form: Record<string, string>): Promise<View> {
		// Whatever the step, a checkout that is paid stays paid (double submit,
		// stale tab): nothing new is created.
		const r = await this.refresh(state);
		if (r.paid) return this.paidView(r.state, r.paid);
		const s = r.state;
		if (this.expired(s)) {
			this.emitNotPaid(s, 'expired');
			return this.view('expired', s);
		}
		const settled = await settle(this.dispatch(s, step, form, r.latest));
		if (settled.ok) return settled.value;
		if (settled.error instanceof CheckoutInputError) {
			const view = this.afterRefresh(s, r.latest, settled.error.message, 400);
			return { ...view, values: safeValues(form), fieldErrors: settled.error.fields };
		}
		throw settled.error;
	}

	private async dispatch(
		s: CheckoutState,
		step: string,
		form: Record<string, string>,
		latest: Latest | undefined,
	): Promise<View> {
		switch (step) {
			case 'start':
				return await this.start(s, form);
			case 'method':
				return await this.chooseMethod(s, form.method, latest);
			case 'card':
				return await card(this, s, form);
			case 'pin':
			case 'otp':
				return await completeCard(this, s, step, form, latest);
			case 'momo':
				return await momo(this, s, form);
			case 'momoOtp':
				return await momoOtp(this, s, form, latest);
			case 'eft':
				return await eft(this, s, form);
			case 'check':
				return this.afterRefresh(s, latest, this.notYet(latest));
			default:
				return this.afterRefresh(s, latest);
		}
	}

	private notYet(
		latest: Latest | undefined,
	): string | undefined {
		const status = String(latest?.record?.paymentStatus ?? '');
		return PENDING.has(status)
			? 'We have not received the payment yet. It can take a minute; this page checks again by itself.'
			: undefined;
	}

	private async start(state: CheckoutState, form: Record<string, string>): Promise<View> {
		if (state.amt !== undefined && (state.a?.length ?? 0) > 0) {
			// The start form sent again (double submit, back button): show where the checkout is.
			return await this.current(state);
		}
		const next = withCustomer(this.cfg, state, form);
		return await this.chooseMethod(
			next,
			form.method || (this.cfg.methods.length === 1 ? this.cfg.methods[0] : ''),
			undefined,
		);
	}

	nextAttempt(state: CheckoutState): number {
		const n = (state.a ?? []).reduce((max, a) => Math.max(max, a.n), 0) + 1;
		if (n > MAX_ATTEMPTS)
			throw new CheckoutInputError(
				'This checkout has had too many attempts. Please start a new one.',
			);
		return n;
	}

	private async chooseMethod(
		state: CheckoutState,
		value: string | undefined,
		latest: Latest | undefined,
	): Promise<View> {
		if (state.amt === undefined) throw new CheckoutInputError('Fill in the form first');
		const m = offeredMethod(this.cfg, value);
		// An open bank transfer is not thrown away: choosing it again shows it.
		if (
			m === 'bank' &&
			latest?.attempt.m === 'bank' &&
			latest.record &&
			PENDING.has(String(latest.record.paymentStatus))
		) {
			return this.stepView({ ...state, m: 'bank' }, latest.attempt, latest.record);
		}
		const next: CheckoutState = { ...state, m };
		if (m === 'bank') return await bank(this, next);
		return this.view('details', next);
	}

	returnUrl(state: CheckoutState): string {
		const u = new URL(this.env.pageUrl);
		u.searchParams.set('c', this.env.seal(state));
		return u.toString();
	}
}
