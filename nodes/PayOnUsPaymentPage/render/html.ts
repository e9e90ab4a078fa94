import type { PageViewKind, View } from '../checkout/types';
import { PAGE_METHODS } from '../methods';
import { detailsView, otherMethods, startView } from './forms';
import { esc, expiryText, header, layout, simple, type Body, type RenderOptions } from './parts';
import { paidView, plainWait, waitView } from './views';

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

/** The body of each of the page's own kinds of view. */
const BODIES: Record<PageViewKind, (o: RenderOptions, view: View) => Body> = {
	start: (o, view) => ({ html: startView(o, view), scripts: [] }),
	details: detailsView,
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

/** The body of a view: the page's own, or the view of the method that has a view of that kind. */
function bodyOf(o: RenderOptions, view: View): Body {
	if (Object.prototype.hasOwnProperty.call(BODIES, view.kind)) return BODIES[view.kind as PageViewKind](o, view);
	for (const method of PAGE_METHODS) {
		if (Object.prototype.hasOwnProperty.call(method.views, view.kind)) return method.views[view.kind](o, view, otherMethods(o, view, method.id));
	}
	return simple(o, 'Payment', 'Something went wrong.');
}

export function renderView(o: RenderOptions, view: View): string {
	const body = bodyOf(o, view);
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

/**
 * The answer to the POST that saw the payment (n8n sends it once it stored
 * the execution): on to the receipt's address at once, by a refresh (no
 * script: n8n's sandbox CSP), which replaces the POST in the history, so a
 * reload or Back never re-sends it; a link for a browser that does not follow.
 */
export function renderForward(o: RenderOptions, href: string): string {
	const body = `${header(o)}<section class="card" aria-labelledby="msg-h"><h2 id="msg-h">Payment received</h2><div class="success" role="status"><p>Thank you: your payment was received.</p></div><a class="button" href="${esc(
		href,
	)}">See your receipt</a></section>`;
	return layout(o, 'Payment received', body).replace(
		'<meta name="robots" content="noindex">',
		`<meta name="robots" content="noindex">\n<meta http-equiv="refresh" content="0;url=${esc(href)}">`,
	);
}
