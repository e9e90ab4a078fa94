import type { View, ViewKind } from '../checkout/types';
import { esc, expiryText, header, layout, simple, type Body, type RenderOptions } from './parts';
import { bankView, codeView, detailsView, momoWait, paidView, plainWait, startView, waitView } from './views';

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

export { esc, money, type RenderOptions } from './parts';

/** The body of each kind of view. */
const BODIES: Record<ViewKind, (o: RenderOptions, view: View) => Body> = {
	start: (o, view) => ({ html: startView(o, view), scripts: [] }),
	details: detailsView,
	bank: bankView,
	pin: (o, view) =>
		codeView(o, view, 'pin', 'Enter your card PIN', 'Your bank asks for the 4-digit PIN of this card.', 'Card PIN', true),
	otp: (o, view) =>
		codeView(o, view, 'otp', 'Enter the code', 'Your bank sent a one-time code to your phone.', 'One-time code', false),
	momoOtp: (o, view) =>
		codeView(
			o,
			view,
			'momoOtp',
			'Enter the code',
			'Your mobile money provider sent a one-time code to your phone.',
			'One-time code',
			false,
		),
	threeDs: (o, view) =>
		waitView(o, view, plainWait('Verify with your bank', 'Your bank needs to confirm this payment (3-D Secure).', toTheBank(view))),
	eft: (o, view) =>
		waitView(o, view, plainWait('Authorise at your bank', "Authorise the payment on your bank's page, then come back here.", toTheBank(view))),
	momoWait: (o, view) => waitView(o, view, momoWait(o, view)),
	processing: (o, view) =>
		waitView(o, view, plainWait('Payment in progress', 'We are waiting for the payment to be confirmed.')),
	paid: paidView,
	expired: (o) =>
		simple(o, 'This checkout has expired', 'No payment was taken. Start a new payment if you still want to pay.'),
	closed: (o, view) =>
		simple(
			o,
			'Payment not completed',
			`${view.message ?? ''} This checkout has had too many attempts; start a new payment.`.trim(),
		),
};

/** The link to the bank's page (3-D Secure, EFT), when the attempt has one. */
function toTheBank(view: View): { href: string; label: string } | undefined {
	return view.attempt?.u ? { href: view.attempt.u, label: 'Continue to your bank' } : undefined;
}

export function renderView(o: RenderOptions, view: View): string {
	const body = (BODIES[view.kind] ?? ((opts: RenderOptions) => simple(opts, 'Payment', 'Something went wrong.')))(o, view);
	return layout(o, `${view.kind === 'paid' ? 'Paid: ' : ''}${o.config.title}`, body.html, body.scripts);
}

/** A page for problems outside a checkout (bad link, page not set up, service down). */
export function renderMessage(o: RenderOptions, title: string, text: string, again = true): string {
	const body = simple(o, title, text, again);
	return layout(o, title, body.html);
}

/**
 * A request refused by a bound (rule 4, 429): what happened, that nothing
 * was charged, when to try again (in seconds, counted down, and as a time in
 * the buyer's zone) and the way back to the checkout as it was.
 */
export function renderWait(o: RenderOptions, title: string, why: string, seconds: number, at: number, back: string): string {
	const iso = new Date(at).toISOString();
	const body = `${header(o)}<section class="card" aria-labelledby="msg-h"><h2 id="msg-h">${esc(title)}</h2><div class="notice" role="status"><p>${esc(
		why,
	)} Nothing was charged by this request.</p></div><p>You can try again in <b><span id="retry-seconds" data-until="${esc(iso)}">${seconds}</span> seconds</b> (at <time datetime="${esc(
		iso,
	)}" data-local>${esc(expiryText(at))}</time>).</p><a class="button secondary" id="retry" href="${esc(back)}">Back to your payment</a></section>`;
	return layout(o, title, body);
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
