import type { IDataObject } from 'n8n-workflow';
import type { View } from '../checkout/types';
import { esc, hidden, layoutBody, money, pollBlock, checkForm, alertBox, type Body, type RenderOptions } from './parts';

/**
 * The views every method builds on (a code to enter, a payment waiting to
 * be confirmed, TEST MODE's box) and the receipt. Each method's own views
 * are in its module (../methods/); html.ts picks the one for a view's kind.
 */

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
	/** TEST MODE only: what finishes the test payment (a form or a link), under the payment's reference. */
	simulate?: string;
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
${o.testMode ? testBox(view, wait.simulate ?? '') : ''}
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
export function renderedAt(o: RenderOptions): number {
	return o.now ?? Date.now();
}

/** Time left to pay, counted down by the page's script (minutes and seconds; static without JavaScript). */
export function deadline(exp: number, at: number): string {
	const left = Math.max(0, Math.floor((exp - at) / 1000));
	const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
	return `<p class="deadline">Time left to pay: <b><span id="time-left" data-until="${esc(new Date(exp).toISOString())}">${text}</span></b> <span class="muted">(minutes:seconds)</span></p>`;
}

/**
 * TEST MODE only (a sandbox credential; never rendered in production): the
 * builder finishes a test checkout by having the sandbox pretend the
 * customer paid (the spec's simulate endpoint: simulatePayment, nodes/shared/payins/calls.ts).
 */
export function simulateForm(sealed: string, what: string): string {
	return `<form method="post" action="?c=${esc(sealed)}"><p>${esc(what)}</p>${hidden(sealed, 'simulate')}<button type="submit" class="secondary" id="simulate">Simulate the customer paying</button></form>`;
}

/**
 * TEST MODE only (a sandbox credential; never rendered in production): the
 * payment's reference (onusReference, the one the PayOnUs node's Get
 * Payment and the sandbox know it by) and what finishes the test payment.
 */
export function testBox(view: View, simulate: string): string {
	const reference = String(view.attempt?.r ?? view.record?.onusReference ?? '');
	return `<div class="testonly" role="group" aria-labelledby="simulate-h"><h3 id="simulate-h">TEST MODE</h3><p>No real money moves here.${
		reference ? ` Payment reference: <b id="onus-reference">${breakable(reference)}</b>` : ''
	}</p>${simulate}</div>`;
}

/** A name that may wrap only between its words, never inside one (each word kept on one line). */
export function wholeWords(name: string): string {
	return name
		.split(/\s+/)
		.filter((w) => w !== '')
		.map((w) => `<span class="nowrap">${esc(w)}</span>`)
		.join(' ');
}


/** The link to the bank's page (3-D Secure, EFT), when the attempt has one. */
export function toTheBank(view: View): { href: string; label: string } | undefined {
	return view.attempt?.u ? { href: view.attempt.u, label: 'Continue to your bank' } : undefined;
}
