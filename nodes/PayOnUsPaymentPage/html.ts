import type { IDataObject } from 'n8n-workflow';
import type { PageConfig, View } from './checkout';
import type { Method } from './token';

/**
 * The page's HTML: one self-contained document per answer (inline CSS and
 * JS only, no third-party assets), usable without JavaScript except for card
 * entry (the card details are encrypted in the browser before they leave it)
 * and the automatic status refresh (a "check" button does the same).
 *
 * Accessibility: every input has a <label>, errors are linked with
 * aria-describedby and announced (role="alert"), status text sits in a live
 * region, focus is visible, colours meet WCAG AA contrast (4.5:1 or more),
 * layout is one column that fits a 320 px screen.
 */

export function esc(value: unknown): string {
	return String(value ?? '')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

export function money(amount: number | undefined, currency: string | undefined): string {
	if (amount === undefined) return '';
	try {
		return new Intl.NumberFormat('en', {
			style: 'currency',
			currency: currency ?? 'NGN',
			currencyDisplay: 'code',
		})
			.format(amount)
			.replace(/\s/g, ' ');
	} catch {
		return `${currency ?? ''} ${amount.toFixed(2)}`;
	}
}

const METHOD_LABELS: Record<Method, { name: string; hint: string }> = {
	bank: {
		name: 'Bank transfer',
		hint: 'Transfer to a one-time account from your banking app',
	},
	card: { name: 'Card', hint: 'Visa, Mastercard or Verve' },
	momo: { name: 'Mobile money', hint: 'Approve a prompt on your phone' },
	eft: { name: 'EFT', hint: 'Pay from your bank account at your bank' },
};

const CSS = `
:root{--ink:#1b1f24;--muted:#4a525c;--line:#c9ced6;--bg:#f4f6f8;--card:#fff;--accent:#0b5cad;--accent-ink:#fff;--ok:#1d6b36;--err:#a4231b;--focus:#f2a900}
*{box-sizing:border-box}
html{font-size:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{max-width:30rem;margin:0 auto;padding:1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1.25rem;margin-top:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 .5rem}
h2{font-size:1.125rem;margin:0 0 .75rem}
p{margin:.5rem 0}
.muted{color:var(--muted)}
.amount{font-size:1.75rem;font-weight:700;margin:.25rem 0 0}
label,legend{display:block;font-weight:600;margin:.875rem 0 .25rem}
.opt{font-weight:400;color:var(--muted)}
input,select{width:100%;font:inherit;padding:.625rem .75rem;border:1px solid #6b7480;border-radius:.5rem;background:#fff;color:var(--ink);min-height:2.75rem}
fieldset{border:0;padding:0;margin:0}
.choice{display:flex;gap:.75rem;align-items:flex-start;border:1px solid var(--line);border-radius:.5rem;padding:.75rem;margin:.5rem 0;font-weight:400;cursor:pointer}
.choice input{width:1.25rem;min-height:1.25rem;margin:.15rem 0 0}
.choice b{display:block}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button,.button{display:inline-block;width:100%;margin-top:1.25rem;padding:.75rem 1rem;font:inherit;font-weight:700;border-radius:.5rem;border:2px solid var(--accent);background:var(--accent);color:var(--accent-ink);text-align:center;text-decoration:none;cursor:pointer;min-height:2.75rem}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button[disabled]{opacity:.7;cursor:wait}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.alert{border-left:4px solid var(--err);background:#fdecea;color:var(--err);padding:.75rem;border-radius:.25rem;margin:.75rem 0}
.notice{border-left:4px solid var(--accent);background:#e8f1fb;padding:.75rem;border-radius:.25rem;margin:.75rem 0}
.success{border-left:4px solid var(--ok);background:#e7f4ea;color:var(--ok);padding:.75rem;border-radius:.25rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.375rem 1rem;margin:.75rem 0}
dt{color:var(--muted)}dd{margin:0;font-weight:600;word-break:break-all}
.big{font-size:1.375rem;letter-spacing:.05em}
.foot{font-size:.875rem;color:var(--muted);text-align:center;margin:1.5rem 0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (min-width:48rem){main{padding:2rem 1rem}h1{font-size:1.75rem}}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`;

/** Shared script: one click per form (double submit guard) and the status poll. */
const COMMON_JS = `
document.querySelectorAll('form').forEach(function(f){f.addEventListener('submit',function(){if(f.dataset.sent){return}f.dataset.sent='1';var b=f.querySelector('button[type=submit]');if(b){setTimeout(function(){b.disabled=true;b.textContent='Please wait\\u2026'},0)}})});
var poll=document.getElementById('poll');
if(poll&&window.fetch){var url=poll.getAttribute('data-url');var tries=0;var tick=function(){tries++;fetch(url+'&poll=1',{headers:{accept:'application/json'},cache:'no-store'}).then(function(r){return r.json()}).then(function(s){if(s.state!=='pending'){location.replace(url);return}setTimeout(tick,tries<40?3000:10000)}).catch(function(){setTimeout(tick,10000)})};setTimeout(tick,3000)}
`;

/** Card script: encrypts PAN|MM|YY|CVV with the page's RSA public key (RSA-OAEP, SHA-256). */
const CARD_JS = `
(function(){
var form=document.getElementById('card-form');if(!form)return;
var err=document.getElementById('card-error');
var show=function(t){err.textContent=t;err.hidden=!t};
var digits=function(v){return String(v||'').replace(/[\\s-]/g,'')};
var luhn=function(p){var s=0;for(var i=0;i<p.length;i++){var d=+p[p.length-1-i];if(i%2){d*=2;if(d>9)d-=9}s+=d}return s%10===0};
var b64=function(buf){var s='';var a=new Uint8Array(buf);for(var i=0;i<a.length;i++)s+=String.fromCharCode(a[i]);return btoa(s)};
form.hidden=false;var ns=document.getElementById('card-nojs');if(ns)ns.hidden=true;
form.addEventListener('submit',function(e){
 if(form.dataset.ready==='1')return;
 e.preventDefault();e.stopImmediatePropagation();
 var pan=digits(document.getElementById('cc-number').value);
 var exp=String(document.getElementById('cc-exp').value).replace(/\\s/g,'');
 var cvv=digits(document.getElementById('cc-csc').value);
 var m=/^(\\d{1,2})\\/(\\d{2}|\\d{4})$/.exec(exp);
 if(!/^\\d{12,19}$/.test(pan)||!luhn(pan)){show('Check the card number.');document.getElementById('cc-number').focus();return}
 if(!m||+m[1]<1||+m[1]>12){show('Enter the expiry date as MM/YY.');document.getElementById('cc-exp').focus();return}
 if(!/^\\d{3,4}$/.test(cvv)){show('Enter the 3 or 4 digit security code.');document.getElementById('cc-csc').focus();return}
 if(!window.crypto||!crypto.subtle){show('This browser cannot encrypt card details here (the page needs HTTPS). Choose another method.');return}
 show('');var btn=form.querySelector('button[type=submit]');btn.disabled=true;btn.textContent='Please wait\\u2026';
 var pem=document.getElementById('card-key').textContent;
 var der=Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g,'').replace(/\\s+/g,'')),function(c){return c.charCodeAt(0)});
 var mm=('0'+m[1]).slice(-2);var yy=m[2].slice(-2);
 crypto.subtle.importKey('spki',der,{name:'RSA-OAEP',hash:'SHA-256'},false,['encrypt']).then(function(key){
  return crypto.subtle.encrypt({name:'RSA-OAEP'},key,new TextEncoder().encode(pan+'|'+mm+'|'+yy+'|'+cvv));
 }).then(function(ct){
  document.getElementById('cardData').value=b64(ct);
  ['cc-number','cc-exp','cc-csc'].forEach(function(id){document.getElementById(id).value=''});
  form.dataset.ready='1';form.dataset.sent='1';form.submit();
 }).catch(function(){btn.disabled=false;btn.textContent=btn.getAttribute('data-label');show('The card details could not be encrypted. Reload the page and try again.')});
});
})();
`;

export interface RenderOptions {
	nonce: string;
	config: PageConfig;
}

function layout(o: RenderOptions, title: string, body: string, scripts: string[] = []): string {
	const js = [COMMON_JS, ...scripts].join('\n');
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<style nonce="${o.nonce}">${CSS}</style>
</head>
<body>
<main>
${body}
<p class="foot">Secured by PayOnUs</p>
</main>
<script nonce="${o.nonce}">${js}</script>
</body>
</html>`;
}

function header(o: RenderOptions, amountText?: string): string {
	const c = o.config;
	return `<header><h1>${esc(c.title)}</h1>${c.description ? `<p class="muted">${esc(c.description)}</p>` : ''}${
		amountText ? `<p class="amount">${esc(amountText)}</p>` : ''
	}</header>`;
}

function alertBox(message: string | undefined, id = 'form-error'): string {
	return message ? `<div class="alert" role="alert" id="${id}">${esc(message)}</div>` : '';
}

function hidden(token: string, step: string): string {
	return `<input type="hidden" name="c" value="${esc(token)}"><input type="hidden" name="step" value="${esc(step)}">`;
}

function pollBlock(token: string): string {
	return `<div id="poll" data-url="?c=${esc(token)}" aria-live="polite" class="muted"><p>This page checks the payment by itself every few seconds.</p></div>`;
}

function checkForm(token: string, label: string): string {
	return `<form method="post" action="?c=${esc(token)}">${hidden(token, 'check')}<button type="submit" class="secondary">${esc(label)}</button></form>`;
}

function otherMethods(o: RenderOptions, view: View, current?: Method): string {
	const others = o.config.methods.filter((m) => m !== current);
	if (others.length === 0 || view.state.amt === undefined) return '';
	const buttons = others
		.map(
			(m) =>
				`<button type="submit" name="method" value="${m}" class="secondary">Pay by ${esc(METHOD_LABELS[m].name.toLowerCase())} instead</button>`,
		)
		.join('');
	return `<form method="post" action="?c=${esc(view.token)}">${hidden(view.token, 'method')}${buttons}</form>`;
}

function expiryText(exp: number): string {
	const d = new Date(exp);
	return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function startView(o: RenderOptions, view: View): string {
	const c = o.config;
	const v = view.values ?? {};
	const s = view.state;
	const described = view.message ? ' aria-describedby="form-error"' : '';
	const amountField =
		c.amountMode === 'customer'
			? `<label for="amount">Amount (${esc(c.currency)})</label><input id="amount" name="amount" inputmode="decimal" required value="${esc(
					v.amount ?? (s.amt !== undefined ? String(s.amt) : ''),
				)}" aria-describedby="amount-hint"${described}><p id="amount-hint" class="muted">Between ${esc(money(c.minAmount, c.currency))} and ${esc(
					money(c.maxAmount, c.currency),
				)}</p>`
			: '';
	const field = (
		name: 'name' | 'phone',
		mode: string,
		label: string,
		type: string,
		auto: string,
		hint = '',
	) =>
		mode === 'no'
			? ''
			: `<label for="${name}">${label}${mode === 'optional' ? ' <span class="opt">(optional)</span>' : ''}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${auto}"${
					mode === 'required' ? ' required' : ''
				} value="${esc(v[name] ?? (name === 'name' ? s.nm : s.ph) ?? '')}"${hint ? ` aria-describedby="${name}-hint"` : ''}>${hint ? `<p id="${name}-hint" class="muted">${hint}</p>` : ''}`;
	const chosen = v.method ?? s.m ?? c.methods[0];
	const methods =
		c.methods.length > 1
			? `<fieldset><legend>Pay with</legend>${c.methods
					.map(
						(m) =>
							`<label class="choice"><input type="radio" name="method" value="${m}"${m === chosen ? ' checked' : ''} required><span><b>${esc(
								METHOD_LABELS[m].name,
							)}</b><span class="muted">${esc(METHOD_LABELS[m].hint)}</span></span></label>`,
					)
					.join('')}</fieldset>`
			: `<input type="hidden" name="method" value="${c.methods[0]}"><p class="muted">Pay by ${esc(METHOD_LABELS[c.methods[0]].name.toLowerCase())}.</p>`;
	return `${header(o, c.amountMode === 'fixed' ? money(c.amount, c.currency) : undefined)}
<section class="card" aria-labelledby="details-h"><h2 id="details-h">Your details</h2>
${alertBox(view.message)}
<form method="post" action="?c=${esc(view.token)}" novalidate>
${hidden(view.token, 'start')}
${amountField}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${esc(v.email ?? s.em ?? '')}"${described}>
${field('name', c.askName, 'Full name', 'text', 'name')}
${field('phone', c.askPhone, 'Phone', 'tel', 'tel', 'International format, e.g. +2348012345678')}
${methods}
<button type="submit">Continue</button>
</form></section>`;
}

function detailsView(o: RenderOptions, view: View): Body {
	const c = o.config;
	const s = view.state;
	const amount = money(s.amt, s.cur);
	const v = view.values ?? {};
	const m = s.m ?? c.methods[0];
	let form = '';
	const scripts: string[] = [];
	if (m === 'card') {
		form = `<h2 id="pay-h">Card details</h2>
${alertBox(view.message)}
<noscript><p class="alert">Card payments need JavaScript: your card details are encrypted in this browser before they are sent. Turn JavaScript on, or choose another method.</p></noscript>
<p id="card-nojs" class="muted">Loading the secure card form…</p>
<form id="card-form" method="post" action="?c=${esc(view.token)}" hidden novalidate>
${hidden(view.token, 'card')}<input type="hidden" name="cardData" id="cardData" value="">
<label for="cc-number">Card number</label><input id="cc-number" inputmode="numeric" autocomplete="cc-number" required aria-describedby="card-error">
<div class="row"><div><label for="cc-exp">Expiry (MM/YY)</label><input id="cc-exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required></div>
<div><label for="cc-csc">Security code</label><input id="cc-csc" inputmode="numeric" autocomplete="cc-csc" required></div></div>
<div class="alert" role="alert" id="card-error" hidden></div>
<p class="muted">Your card details are encrypted in this browser; only PayOnUs can read them.</p>
<button type="submit" data-label="Pay ${esc(amount)}">Pay ${esc(amount)}</button>
</form>
<script type="text/plain" id="card-key">${esc(c.cardPublicKey)}</script>`;
		scripts.push(CARD_JS);
	} else if (m === 'momo') {
		form = `<h2 id="pay-h">Mobile money</h2>
${alertBox(view.message)}
<form method="post" action="?c=${esc(view.token)}">
${hidden(view.token, 'momo')}
<label for="network">Network</label><select id="network" name="network" required>${c.networks
			.map(
				(n) =>
					`<option value="${esc(n.code)}"${v.network === n.code ? ' selected' : ''}>${esc(n.name)}</option>`,
			)
			.join('')}</select>
<label for="momo-phone">Mobile money number</label><input id="momo-phone" name="phone" type="tel" autocomplete="tel" required value="${esc(
			v.phone ?? s.ph ?? '',
		)}" aria-describedby="momo-hint"><p id="momo-hint" class="muted">International format, e.g. +254712345678</p>
<button type="submit">Send the payment prompt</button>
</form>`;
	} else if (m === 'eft') {
		form = `<h2 id="pay-h">Pay by EFT</h2>
${alertBox(view.message)}
<form method="post" action="?c=${esc(view.token)}">
${hidden(view.token, 'eft')}
<label for="bank">Your bank</label><select id="bank" name="bank" required>${c.eftBanks
			.map(
				(b) =>
					`<option value="${esc(b.code)}"${v.bank === b.code ? ' selected' : ''}>${esc(b.name)}</option>`,
			)
			.join('')}</select>
<p class="muted">You will authorise the payment on your bank's page, then come back here.</p>
<button type="submit">Continue to your bank</button>
</form>`;
	} else {
		form = `<h2 id="pay-h">Bank transfer</h2>${alertBox(view.message)}<form method="post" action="?c=${esc(view.token)}">${hidden(
			view.token,
			'method',
		)}<button type="submit" name="method" value="bank">Get the account details</button></form>`;
	}
	return layoutBody(
		o,
		amount,
		`<section class="card" aria-labelledby="pay-h">${form}${otherMethods(o, view, m)}</section>`,
		scripts,
	);
}

interface Body {
	html: string;
	scripts: string[];
}

function layoutBody(
	o: RenderOptions,
	amount: string,
	section: string,
	scripts: string[] = [],
): Body {
	return { html: `${header(o, amount)}\n${section}`, scripts };
}

function bankView(o: RenderOptions, view: View): Body {
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
<p>Send this exact amount from your banking app to the account below. It is for this payment only.</p>
<dl><dt>Account number</dt><dd class="big" id="account-number">${esc(acct.no)}</dd><dt>Bank</dt><dd id="bank-name">${esc(acct.bank)}</dd><dt>Account name</dt><dd>${esc(
			acct.name,
		)}</dd><dt>Amount</dt><dd>${esc(money(s.amt, s.cur))}</dd><dt>Pay before</dt><dd><time datetime="${new Date(s.exp).toISOString()}">${esc(expiryText(s.exp))}</time></dd></dl>
${pollBlock(view.token)}
${checkForm(view.token, 'I have paid')}
${otherMethods(o, view, 'bank')}
</section>`,
	);
}

function codeView(
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
<form method="post" action="?c=${esc(view.token)}" autocomplete="off">
${hidden(view.token, step)}
<label for="authData">${esc(label)}</label><input id="authData" name="authData" type="${secret ? 'password' : 'text'}" inputmode="numeric" autocomplete="${
			secret ? 'off' : 'one-time-code'
		}" required maxlength="8"${described}>
<button type="submit">Confirm</button>
</form></section>`,
	);
}

function waitView(
	o: RenderOptions,
	view: View,
	title: string,
	text: string,
	link?: { href: string; label: string },
): Body {
	const s = view.state;
	return layoutBody(
		o,
		money(s.amt, s.cur),
		`<section class="card" aria-labelledby="wait-h"><h2 id="wait-h">${esc(title)}</h2>
${view.message ? `<div class="notice" role="status">${esc(view.message)}</div>` : ''}
<p>${esc(text)}</p>
${link ? `<a class="button" href="${esc(link.href)}">${esc(link.label)}</a>` : ''}
${pollBlock(view.token)}
${checkForm(view.token, 'Check the payment')}
</section>`,
	);
}

function paidView(o: RenderOptions, view: View): Body {
	const s = view.state;
	const record = view.record ?? ({} as IDataObject);
	return layoutBody(
		o,
		money(s.amt, s.cur),
		`<section class="card" aria-labelledby="paid-h"><h2 id="paid-h">Payment received</h2>
<div class="success" role="status"><p>${esc(o.config.successMessage || 'Thank you: your payment was received.')}</p></div>
<dl><dt>Amount</dt><dd>${esc(money(s.amt, s.cur))}</dd><dt>Reference</dt><dd id="payment-reference">${esc(record.onusReference ?? '')}</dd></dl>
</section>`,
	);
}

function simple(o: RenderOptions, title: string, text: string, again = true): Body {
	return {
		html: `${header(o)}<section class="card" aria-labelledby="msg-h"><h2 id="msg-h">${esc(title)}</h2><div class="notice" role="status"><p>${esc(text)}</p></div>${
			again ? '<a class="button secondary" href="?">Start a new payment</a>' : ''
		}</section>`,
		scripts: [],
	};
}

/** The page for a view. */
export function renderView(o: RenderOptions, view: View): string {
	const s = view.state;
	let body: Body;
	switch (view.kind) {
		case 'start':
			body = { html: startView(o, view), scripts: [] };
			break;
		case 'details':
			body = detailsView(o, view);
			break;
		case 'bank':
			body = bankView(o, view);
			break;
		case 'pin':
			body = codeView(
				o,
				view,
				'pin',
				'Enter your card PIN',
				'Your bank asks for the 4-digit PIN of this card.',
				'Card PIN',
				true,
			);
			break;
		case 'otp':
			body = codeView(
				o,
				view,
				'otp',
				'Enter the code',
				'Your bank sent a one-time code to your phone.',
				'One-time code',
				false,
			);
			break;
		case 'momoOtp':
			body = codeView(
				o,
				view,
				'momoOtp',
				'Enter the code',
				'Your mobile money provider sent a one-time code to your phone.',
				'One-time code',
				false,
			);
			break;
		case 'threeDs':
			body = waitView(
				o,
				view,
				'Verify with your bank',
				'Your bank needs to confirm this payment (3-D Secure).',
				view.attempt?.u ? { href: view.attempt.u, label: 'Continue to your bank' } : undefined,
			);
			break;
		case 'eft':
			body = waitView(
				o,
				view,
				'Authorise at your bank',
				"Authorise the payment on your bank's page, then come back here.",
				view.attempt?.u ? { href: view.attempt.u, label: 'Continue to your bank' } : undefined,
			);
			break;
		case 'momoWait':
			body = waitView(
				o,
				view,
				'Approve on your phone',
				`A payment prompt for ${money(s.amt, s.cur)} was sent to your phone. Approve it with your mobile money PIN.`,
			);
			break;
		case 'processing':
			body = waitView(
				o,
				view,
				'Payment in progress',
				'We are waiting for the payment to be confirmed.',
			);
			break;
		case 'paid':
			body = paidView(o, view);
			break;
		case 'expired':
			body = simple(
				o,
				'This checkout has expired',
				'No payment was taken. Start a new payment if you still want to pay.',
			);
			break;
		case 'closed':
			body = simple(
				o,
				'Payment not completed',
				`${view.message ?? ''} This checkout has had too many attempts; start a new payment.`.trim(),
			);
			break;
		default:
			body = simple(o, 'Payment', 'Something went wrong.');
	}
	return layout(
		o,
		`${view.kind === 'paid' ? 'Paid: ' : ''}${o.config.title}`,
		body.html,
		body.scripts,
	);
}

/** A page for problems outside a checkout (bad link, page not set up, service down). */
export function renderMessage(o: RenderOptions, title: string, text: string, again = true): string {
	const body = simple(o, title, text, again);
	return layout(o, title, body.html);
}

/** Paid, with "redirect to a URL" set: where the customer goes on (no script needed). */
export function renderContinue(o: RenderOptions, url: string): string {
	const body = `${header(o)}<section class="card" aria-labelledby="paid-h"><h2 id="paid-h">Payment received</h2><div class="success" role="status"><p>Thank you: your payment was received.</p></div><a class="button" href="${esc(
		url,
	)}">Continue</a></section>`;
	return layout(o, 'Payment received', body).replace(
		'<meta name="robots" content="noindex">',
		`<meta name="robots" content="noindex">\n<meta http-equiv="refresh" content="2;url=${esc(url)}">`,
	);
}
