import type { IDataObject } from 'n8n-workflow';
import type { View } from '../checkout/types';
import { CARD_JS } from './assets';
import { phoneHint } from '../checkout/phone';
import {
	alertBox,
	checkForm,
	esc,
	expiryText,
	header,
	hidden,
	layoutBody,
	METHOD_LABELS,
	money,
	otherMethods,
	pollBlock,
	type Body,
	type RenderOptions,
} from './parts';

/** One view of a checkout step each (renderView in html.ts picks the one for a view's kind). */

/** The start form: amount (when the customer chooses it), email, name and phone as asked, the method. */
export function startView(o: RenderOptions, view: View): string {
	const c = o.config;
	const v = view.values ?? {};
	const s = view.state;
	const errors = view.fieldErrors ?? {};
	const marks = fieldMarks(errors);
	return `${header(o, c.amountMode === 'fixed' ? money(c.amount, c.currency) : undefined)}
<section class="card" aria-labelledby="details-h"><h2 id="details-h">Your details</h2>
${Object.keys(errors).length > 0 ? errorSummary(errors) : alertBox(view.message)}
<form method="post" action="?c=${esc(view.sealed)}" novalidate>
${hidden(view.sealed, 'start')}
${c.amountMode === 'customer' ? amountField(o, view, marks) : ''}
<label for="email">Email</label>${marks.error('email')}<input id="email" name="email" type="email" autocomplete="email" required value="${esc(v.email ?? s.em ?? '')}"${marks.aria('email')}>
${customerField(view, marks, 'name', c.askName, 'Full name', 'text', 'name')}
${customerField(view, marks, 'phone', c.askPhone, 'Phone', 'tel', 'tel', phoneHint(c.currency))}
${methodChoice(o, view)}
<button type="submit">Continue</button>
</form></section>`;
}

interface FieldMarks {
	/** The field's own error, under its label. */
	error(name: string): string;
	/** aria-describedby (its error, its hint) and aria-invalid. */
	aria(name: string, hint?: boolean): string;
}

/** Each field's own error sits under its label, is announced with the field (aria-describedby) and marks it invalid (aria-invalid). */
function fieldMarks(errors: Record<string, string>): FieldMarks {
	return {
		error: (name) => (errors[name] ? `<p class="field-error" id="${name}-error">${esc(errors[name])}</p>` : ''),
		aria: (name, hint = false) => {
			const ids = [errors[name] ? `${name}-error` : '', hint ? `${name}-hint` : ''].filter((x) => x).join(' ');
			return `${ids ? ` aria-describedby="${ids}"` : ''}${errors[name] ? ' aria-invalid="true"' : ''}`;
		},
	};
}

function amountField(o: RenderOptions, view: View, marks: FieldMarks): string {
	const c = o.config;
	const s = view.state;
	return `<label for="amount">Amount (${esc(c.currency)})</label>${marks.error('amount')}<input id="amount" name="amount" inputmode="decimal" required value="${esc(
		view.values?.amount ?? (s.amt !== undefined ? String(s.amt) : ''),
	)}"${marks.aria('amount', true)}><p id="amount-hint" class="muted">Between ${esc(money(c.minAmount, c.currency))} and ${esc(
		money(c.maxAmount, c.currency),
	)}</p>`;
}

/** Name or phone, as the page asks it ('no': not shown). */
function customerField(
	view: View,
	marks: FieldMarks,
	name: 'name' | 'phone',
	mode: string,
	label: string,
	type: string,
	auto: string,
	hint = '',
): string {
	if (mode === 'no') return '';
	const s = view.state;
	return `<label for="${name}">${label}${mode === 'optional' ? ' <span class="opt">(optional)</span>' : ''}</label>${marks.error(name)}<input id="${name}" name="${name}" type="${type}" autocomplete="${auto}"${
		mode === 'required' ? ' required' : ''
	} value="${esc(view.values?.[name] ?? (name === 'name' ? s.nm : s.ph) ?? '')}"${marks.aria(name, hint !== '')}>${hint ? `<p id="${name}-hint" class="muted">${esc(hint)}</p>` : ''}`;
}

/** The methods to choose from (one method: named, and sent as a hidden field). */
function methodChoice(o: RenderOptions, view: View): string {
	const c = o.config;
	if (c.methods.length <= 1) {
		return `<input type="hidden" name="method" value="${c.methods[0]}"><p class="muted">Pay by ${esc(METHOD_LABELS[c.methods[0]].name.toLowerCase())}.</p>`;
	}
	const chosen = view.values?.method ?? view.state.m ?? c.methods[0];
	return `<fieldset><legend>Pay with</legend>${c.methods
		.map(
			(m) =>
				`<label class="choice"><input type="radio" name="method" value="${m}"${m === chosen ? ' checked' : ''} required><span><b>${esc(
					METHOD_LABELS[m].name,
				)}</b><span class="muted">${esc(METHOD_LABELS[m].hint)}</span></span></label>`,
		)
		.join('')}</fieldset>`;
}

/** Every input error of the form at once, each a link to its field. */
function errorSummary(errors: Record<string, string>): string {
	const items = Object.entries(errors)
		.map(([field, message]) => `<li><a href="#${esc(field)}">${esc(message)}</a></li>`)
		.join('');
	const count = Object.keys(errors).length;
	return `<div class="alert" role="alert" id="form-error"><p><b>${count === 1 ? 'Please correct this:' : `Please correct these ${count} things:`}</b></p><ul>${items}</ul></div>`;
}

/** The form of the method the customer chose (the page's first method until they choose). */
export function detailsView(o: RenderOptions, view: View): Body {
	const s = view.state;
	const amount = money(s.amt, s.cur);
	const m = s.m ?? o.config.methods[0];
	let form: string;
	const scripts: string[] = [];
	if (m === 'card') {
		form = cardForm(o, view, amount);
		scripts.push(CARD_JS);
	} else if (m === 'momo') form = momoForm(o, view);
	else if (m === 'eft') form = eftForm(o, view);
	else form = bankForm(view);
	return layoutBody(
		o,
		amount,
		`<section class="card" aria-labelledby="pay-h">${form}${otherMethods(o, view, m)}</section>`,
		scripts,
	);
}

/** Card: the inputs have no name (never submitted); the script sends them encrypted as `cardData`. */
function cardForm(o: RenderOptions, view: View, amount: string): string {
	return `<h2 id="pay-h">Card details</h2>
${alertBox(view.message)}
<noscript><p class="alert">Card payments need JavaScript: your card details are encrypted in this browser before they are sent. Turn JavaScript on, or choose another method.</p></noscript>
<p id="card-nojs" class="muted">Loading the secure card form…</p>
<form id="card-form" method="post" action="?c=${esc(view.sealed)}" hidden novalidate>
${hidden(view.sealed, 'card')}<input type="hidden" name="cardData" id="cardData" value="">
<label for="cc-number">Card number</label><input id="cc-number" inputmode="numeric" autocomplete="cc-number" required aria-describedby="card-error">
<div class="row"><div><label for="cc-exp">Expiry (MM/YY)</label><input id="cc-exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required></div>
<div><label for="cc-csc">Security code</label><input id="cc-csc" inputmode="numeric" autocomplete="cc-csc" required></div></div>
<div class="alert" role="alert" id="card-error" hidden></div>
<p class="muted">Your card details are encrypted in this browser; only PayOnUs can read them.</p>
<button type="submit" data-label="Pay ${esc(amount)}">Pay ${esc(amount)}</button>
</form>
<script type="text/plain" id="card-key">${esc(o.config.cardPublicKey)}</script>`;
}

function momoForm(o: RenderOptions, view: View): string {
	const v = view.values ?? {};
	return `<h2 id="pay-h">Mobile money</h2>
${alertBox(view.message)}
<form method="post" action="?c=${esc(view.sealed)}">
${hidden(view.sealed, 'momo')}
<label for="network">Network</label><select id="network" name="network" required>${o.config.networks
		.map((n) => `<option value="${esc(n.code)}"${v.network === n.code ? ' selected' : ''}>${esc(n.name)}</option>`)
		.join('')}</select>
<label for="momo-phone">Mobile money number</label><input id="momo-phone" name="phone" type="tel" autocomplete="tel" required value="${esc(
		v.phone ?? view.state.ph ?? '',
	)}" aria-describedby="momo-hint"><p id="momo-hint" class="muted">${esc(phoneHint(o.config.currency))}</p>
<button type="submit">Send the payment prompt</button>
</form>`;
}

function eftForm(o: RenderOptions, view: View): string {
	const v = view.values ?? {};
	return `<h2 id="pay-h">Pay by EFT</h2>
${alertBox(view.message)}
<form method="post" action="?c=${esc(view.sealed)}">
${hidden(view.sealed, 'eft')}
<label for="bank">Your bank</label><select id="bank" name="bank" required>${o.config.eftBanks
		.map((b) => `<option value="${esc(b.code)}"${v.bank === b.code ? ' selected' : ''}>${esc(b.name)}</option>`)
		.join('')}</select>
<p class="muted">You will authorise the payment on your bank's page, then come back here.</p>
<button type="submit">Continue to your bank</button>
</form>`;
}

/** Bank transfer chosen again after another method: one button for its account. */
function bankForm(view: View): string {
	return `<h2 id="pay-h">Bank transfer</h2>${alertBox(view.message)}<form method="post" action="?c=${esc(view.sealed)}">${hidden(
		view.sealed,
		'method',
	)}<button type="submit" name="method" value="bank">Get the account details</button></form>`;
}

export function bankView(o: RenderOptions, view: View): Body {
	const s = view.state;
	const a = view.attempt;
	const acct = a?.acct ?? {
		no: String(view.record?.accountNumber ?? ''),
		bank: String(view.record?.bankName ?? ''),
		name: String(view.record?.accountName ?? ''),
	};
	return layoutBody(
		o,
		money(s.amt, s.cur),
		`<section class="card" aria-labelledby="bank-h"><h2 id="bank-h">Transfer exactly ${esc(money(s.amt, s.cur))}</h2>
${view.message ? `<div class="notice" role="status">${esc(view.message)}</div>` : ''}
<p>Send this exact amount from your banking app to the account below. It is for this payment only${
			view.record?.businessName ? `, to <b id="seller">${esc(view.record.businessName)}</b>` : ''
		}.</p>
${deadline(s.exp, now(o))}
<dl><dt>Account number</dt><dd class="big"><span id="account-number">${esc(acct.no)}</span> <button type="button" class="copy secondary" data-copy="account-number" hidden>Copy<span class="sr"> account number</span></button></dd><dt>Bank</dt><dd id="bank-name">${esc(acct.bank)}</dd><dt>Account name</dt><dd class="words" id="account-name">${wholeWords(acct.name)}</dd><dt>Amount</dt><dd>${esc(money(s.amt, s.cur))}</dd><dt>Pay before</dt><dd><time datetime="${new Date(s.exp).toISOString()}" data-local>${esc(expiryText(s.exp))}</time></dd></dl><p id="copy-status" class="muted" aria-live="polite"></p>
${pollBlock(view.sealed)}
${checkForm(view.sealed, 'I have paid')}
${o.testMode ? simulateForm(view.sealed) : ''}
${otherMethods(o, view, 'bank')}
</section>`,
	);
}

export function codeView(
	o: RenderOptions,
	view: View,
	step: string,
	title: string,
	text: string,
	label: string,
	secret: boolean,
): Body {
	const s = view.state;
	const described = view.message ? ' aria-describedby="form-error"' : '';
	return layoutBody(
		o,
		money(s.amt, s.cur),
		`<section class="card" aria-labelledby="code-h"><h2 id="code-h">${esc(title)}</h2>
${alertBox(view.message)}
<p>${esc(text)}</p>
<form method="post" action="?c=${esc(view.sealed)}" autocomplete="off">
${hidden(view.sealed, step)}
<label for="authData">${esc(label)}</label><input id="authData" name="authData" type="${secret ? 'password' : 'text'}" inputmode="numeric" autocomplete="${
			secret ? 'off' : 'one-time-code'
		}" required maxlength="8"${described}>
<button type="submit">Confirm</button>
</form></section>`,
	);
}

/** What a wait view shows: its title, what it says (HTML lines), and the forms after "Check the payment" (HTML). */
export interface Wait {
	title: string;
	lines: string[];
	forms?: string[];
}

/** The one view of a payment waiting to be confirmed (3-D Secure, EFT, mobile money, processing): the check, polled. */
export function waitView(o: RenderOptions, view: View, wait: Wait): Body {
	const s = view.state;
	return layoutBody(
		o,
		money(s.amt, s.cur),
		`<section class="card" aria-labelledby="wait-h"><h2 id="wait-h">${esc(wait.title)}</h2>
${view.message ? `<div class="notice" role="status">${esc(view.message)}</div>` : ''}
${[...wait.lines, pollBlock(view.sealed), checkForm(view.sealed, 'Check the payment'), ...(wait.forms ?? [])].join('\n')}
</section>`,
	);
}

/** A wait that says one thing, with a link (to the bank) when there is one. */
export function plainWait(title: string, text: string, link?: { href: string; label: string }): Wait {
	return { title, lines: [`<p>${esc(text)}</p>`, link ? `<a class="button" href="${esc(link.href)}">${esc(link.label)}</a>` : ''] };
}

export function paidView(o: RenderOptions, view: View): Body {
	const s = view.state;
	const record = view.record ?? ({} as IDataObject);
	return layoutBody(
		o,
		money(s.amt, s.cur),
		`<section class="card" aria-labelledby="paid-h"><h2 id="paid-h">Payment received</h2>
<div class="success" role="status"><p>${esc(o.config.successMessage || 'Thank you: your payment was received.')}</p></div>
<dl><dt>Amount</dt><dd>${esc(money(s.amt, s.cur))}</dd><dt>Reference</dt><dd id="payment-reference" class="ref">${breakable(String(record.onusReference ?? ''))}</dd></dl>
</section>`,
	);
}

/** A long reference that may wrap only after its hyphens, never inside a number. */
function breakable(reference: string): string {
	return reference
		.split('-')
		.map((part) => `<span class="nowrap">${esc(part)}</span>`)
		.join('-<wbr>');
}

/** The clock the page was rendered by (the request's; falls back to the wall clock). */
function now(o: RenderOptions): number {
	return o.now ?? Date.now();
}

/** Time left to pay, counted down by the page's script (minutes and seconds; static without JavaScript). */
function deadline(exp: number, at: number): string {
	const left = Math.max(0, Math.floor((exp - at) / 1000));
	const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
	return `<p class="deadline">Time left to pay: <b><span id="time-left" data-until="${esc(new Date(exp).toISOString())}">${text}</span></b> <span class="muted">(minutes:seconds)</span></p>`;
}

/**
 * TEST MODE only (a sandbox credential; never rendered in production): the
 * builder finishes a test checkout by having the sandbox pretend the
 * customer paid (the spec's simulate endpoint: simulatePayment, nodes/shared/payins/calls.ts).
 */
function simulateForm(sealed: string): string {
	return `<form method="post" action="?c=${esc(sealed)}" class="testonly" aria-labelledby="simulate-h"><h3 id="simulate-h">TEST MODE</h3><p>No real money moves here. Pretend the customer paid this account in full, as a test of your workflow.</p>${hidden(
		sealed,
		'simulate',
	)}<button type="submit" class="secondary" id="simulate">Simulate the customer paying</button></form>`;
}

/** The mobile money wait: the number and network prompted, how long a prompt lasts, and a resend (bounded per phone). */
export function momoWait(o: RenderOptions, view: View): Wait {
	const s = view.state;
	const a = view.attempt;
	const network = o.config.networks.find((n) => n.code === a?.net)?.name ?? a?.net ?? 'your network';
	const number = a?.ph ?? s.ph ?? '';
	return {
		title: 'Approve on your phone',
		lines: [
			`<p>We sent a payment request for <b>${esc(money(s.amt, s.cur))}</b> to <b id="momo-number" class="nowrap">${esc(number)}</b> (<span id="momo-network">${esc(network)}</span>). Approve it on that phone with your mobile money PIN.</p>`,
			'<p class="muted">A request stays on the phone for a short time only (the network decides, often about a minute). If it did not arrive or has gone, send it again.</p>',
		],
		forms: [
			a?.ph && a.net
				? `<form method="post" action="?c=${esc(view.sealed)}">${hidden(view.sealed, 'momo')}<input type="hidden" name="network" value="${esc(a.net)}"><input type="hidden" name="phone" value="${esc(a.ph)}"><button type="submit" class="secondary" id="resend">Send the request again</button></form>`
				: '',
			`<form method="post" action="?c=${esc(view.sealed)}">${hidden(view.sealed, 'method')}<button type="submit" name="method" value="momo" class="secondary">Use another number</button></form>`,
		],
	};
}

/** A name that may wrap only between its words, never inside one (each word kept on one line). */
function wholeWords(name: string): string {
	return name
		.split(/\s+/)
		.filter((w) => w !== '')
		.map((w) => `<span class="nowrap">${esc(w)}</span>`)
		.join(' ');
}
