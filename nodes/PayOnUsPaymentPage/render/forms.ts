import { phoneHint } from '../checkout/phone';
import type { View } from '../checkout/types';
import { methodById, PAGE_METHODS } from '../methods';
import { alertBox, esc, header, hidden, layoutBody, money, type Body, type RenderOptions } from './parts';

/**
 * The page's own forms, over the list of methods (../methods/): the start
 * form with the method to choose, the chosen method's form, and the
 * "Pay by ... instead" buttons of the other methods.
 */

/** A method's name on the page (its label). */
function nameOf(m: string): string {
	return methodById(m)?.label.name ?? m;
}

/** The start form: amount (when the customer chooses it), email, name and phone as asked, the method. */
export function startView(o: RenderOptions, view: View): string {
	const c = o.config;
	const v = view.values ?? {};
	const s = view.state;
	const errors = view.fieldErrors ?? {};
	const marks = fieldMarks(errors);
	return `${header(o, c.amountMode === 'fixed' ? money(c.amount, c.currency) : undefined)}
<section class="card" aria-labelledby="details-h"><h2 id="details-h">Your details</h2>
${Object.keys(errors).length > 0 ? errorSummary(errors) : view.notice ? noticeBox(view.message) : alertBox(view.message)}
<form method="post" action="?c=${esc(view.sealed)}" novalidate data-resume="?c=${esc(view.sealed)}">
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
		return `<input type="hidden" name="method" value="${c.methods[0]}"><p class="muted">Pay by ${esc(nameOf(c.methods[0]).toLowerCase())}.</p>`;
	}
	const chosen = view.values?.method ?? view.state.m ?? c.methods[0];
	return `<fieldset><legend>Pay with</legend>${c.methods
		.map(
			(m) =>
				`<label class="choice"><input type="radio" name="method" value="${m}"${m === chosen ? ' checked' : ''} required><span><b>${esc(
					nameOf(m),
				)}</b><span class="muted">${esc(methodById(m)?.label.hint)}</span></span></label>`,
		)
		.join('')}</fieldset>`;
}

/** A notice (the page's price changed: checkout/terms.ts), said plainly, not as an error. */
function noticeBox(message: string | undefined): string {
	return message ? `<div class="notice" role="status" id="page-notice">${esc(message)}</div>` : '';
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
	const form = (methodById(m) ?? PAGE_METHODS[0]).form(o, view, amount);
	return layoutBody(
		o,
		amount,
		`<section class="card" aria-labelledby="pay-h">${form.html}${otherMethods(o, view, m)}</section>`,
		form.scripts,
	);
}

/** The other methods offered, as "Pay by ... instead" buttons (none before the start form is filled). */
export function otherMethods(o: RenderOptions, view: View, current?: string): string {
	const others = o.config.methods.filter((m) => m !== current);
	if (others.length === 0 || view.state.amt === undefined) return '';
	const buttons = others
		.map(
			(m) =>
				`<button type="submit" name="method" value="${m}" class="secondary">Pay by ${esc(nameOf(m).toLowerCase())} instead</button>`,
		)
		.join('');
	return `<form method="post" action="?c=${esc(view.sealed)}">${hidden(view.sealed, 'method')}${buttons}</form>`;
}
