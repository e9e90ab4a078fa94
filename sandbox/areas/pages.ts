/**
 * Small HTML pages the sandbox serves itself (no JavaScript): the card
 * tokenization consent page (a link's `url`), and the 3-D Secure and EFT
 * redirect pages with approve/decline buttons.
 */
import { html, redirect, type Ctx, type Router } from '../router';
import { ApiError } from '../errors';
import type { Link, Payin } from '../records';
import { customerDecision } from './payins/record';
import { refreshLink, submitCard } from './tokenization';

const esc = (s: unknown) =>
	String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string, status = 200) {
	return html(
		`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
			`<title>${esc(title)} - PayOnUs Sandbox</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}` +
			`label{display:block;margin:.75rem 0 .25rem}input[type=text]{width:100%;padding:.5rem;box-sizing:border-box}` +
			`button{padding:.6rem 1.2rem;margin:.75rem .5rem 0 0}.msg{padding:.6rem;border-radius:4px;background:#fdecea}.ok{background:#e7f6ec}` +
			`small{color:#666}</style></head><body><p><small>PayOnUs sandbox</small></p><h1>${esc(title)}</h1>${body}</body></html>`,
		status,
	);
}

function tokenizePage(link: Link, message?: { text: string; ok: boolean }, attemptsLeft?: number) {
	const note = message ? `<p class="msg${message.ok ? ' ok' : ''}" role="status">${esc(message.text)}</p>` : '';
	if (link.status === 'EXPIRED') return page('Link expired', `${note}<p>This card link has expired. Ask the merchant for a new link.</p>`, 410);
	if (link.status === 'CANCELLED') return page('Link cancelled', `${note}<p>This card link was cancelled after too many attempts.</p>`, 410);
	if (link.status === 'COMPLETED') return page('Card saved', `${note}<p>Your card is saved for ${esc(link.businessName)}. You can close this page.</p>`);
	const left = attemptsLeft !== undefined ? `<p><small>Attempts left: ${attemptsLeft}</small></p>` : '';
	return page(
		`Save your card for ${link.businessName}`,
		`${note}${left}<p>${esc(link.customerName)} (${esc(link.customerEmail)}), ${esc(link.merchantName)} asks to store your card for later payments. ` +
			`The link expires at ${esc(link.expiresAt)} UTC.</p>` +
			`<form method="post" action="/hosted/tokenize/${esc(link.id)}">` +
			`<label for="cardNumber">Card number</label><input type="text" id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required>` +
			`<label for="expiry">Expiry (MM/YY)</label><input type="text" id="expiry" name="expiry" autocomplete="cc-exp" placeholder="12/30" required>` +
			`<label for="cvv">CVV</label><input type="text" id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" required>` +
			`<label><input type="checkbox" name="consent" value="yes" required> I agree that ${esc(link.businessName)} may charge this card later.</label>` +
			`<button type="submit">Save card</button></form>` +
			`<p><small>Test cards: 4111 1111 1111 1111 (saved), 4000 0000 0000 0002 (declined), 4000 0000 0000 0119 (gateway issue).</small></p>`,
	);
}

function findLink(ctx: Ctx): Link | undefined {
	const link = ctx.sb.state.links.get(ctx.params.id);
	return link ? refreshLink(ctx.sb, link) : undefined;
}

function findPayin(ctx: Ctx, channel: Payin['paymentChannel']): Payin | undefined {
	const p = ctx.sb.state.payins.get(ctx.params.ref);
	return p && p.paymentChannel === channel ? p : undefined;
}

function stepPage(kind: '3ds' | 'eft', p: Payin | undefined) {
	const title = kind === '3ds' ? '3-D Secure verification' : 'EFT bank authorisation';
	if (!p) return page('Not found', '<p>No such payment.</p>', 404);
	const waiting = kind === '3ds' ? p.paymentStatus === 'PENDING' && p.authTypeRequired === 'THREE_DS' : p.paymentStatus === 'PROCESSING';
	if (!waiting) return page(title, `<p class="msg ok">Payment ${esc(p.onusReference)} is ${esc(p.paymentStatus)}.</p>`);
	const what = kind === '3ds' ? `Confirm the card payment of ${esc(p.currency)} ${esc(p.amount)} to ${esc(p.businessName)}.` : `${esc(p.bankName)}: authorise the EFT payment of ${esc(p.currency)} ${esc(p.amount)} to ${esc(p.businessName)}.`;
	return page(
		title,
		`<p>${what}</p><p><small>${esc(p.onusReference)}</small></p>` +
			`<form method="post" action="/hosted/${kind}/${encodeURIComponent(p.onusReference)}">` +
			`<button type="submit" name="action" value="approve">Approve</button>` +
			`<button type="submit" name="action" value="decline">Decline</button></form>`,
	);
}

function decideStep(ctx: Ctx, kind: '3ds' | 'eft') {
	const p = findPayin(ctx, kind === '3ds' ? 'CARD' : 'EFT');
	if (!p) return stepPage(kind, p);
	const action = String(ctx.body?.action ?? '');
	if (action !== 'approve' && action !== 'decline') return page('Bad request', '<p>Choose approve or decline.</p>', 400);
	try {
		customerDecision(ctx.sb, p, action === 'approve');
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
	}
	if (p.redirectUrl && /^https?:\/\//.test(p.redirectUrl)) {
		const u = new URL(p.redirectUrl);
		u.searchParams.set('onusReference', p.onusReference);
		u.searchParams.set('reference', p.reference);
		u.searchParams.set('status', p.paymentStatus);
		return redirect(u.toString());
	}
	return stepPage(kind, p);
}

export function registerPages(router: Router): void {
	router.add('GET', '/', () =>
		page('PayOnUs sandbox', '<p>API under <code>/api/v1</code>, control API under <code>/_sandbox</code>. See sandbox/README.md.</p>'),
	);
	router.add('GET', '/hosted/tokenize/:id', (ctx) => {
		const link = findLink(ctx);
		if (!link) return page('Link not found', '<p>This card link does not exist.</p>', 404);
		return tokenizePage(link, undefined, link.status === 'PENDING' ? ctx.sb.state.config.linkMaxAttempts - link.attempts : undefined);
	});
	router.add('POST', '/hosted/tokenize/:id', (ctx) => {
		const link = findLink(ctx);
		if (!link) return page('Link not found', '<p>This card link does not exist.</p>', 404);
		if (link.status !== 'PENDING') return tokenizePage(link);
		const b = ctx.body ?? {};
		const r = submitCard(ctx.sb, link, {
			cardNumber: String(b.cardNumber ?? '').replace(/\s+/g, ''),
			expiry: String(b.expiry ?? ''),
			cvv: String(b.cvv ?? ''),
			consent: b.consent !== undefined && b.consent !== '',
		});
		return tokenizePage(link, { text: r.message, ok: r.accepted }, r.attemptsLeft);
	});
	router.add('GET', '/hosted/3ds/:ref', (ctx) => stepPage('3ds', findPayin(ctx, 'CARD')));
	router.add('POST', '/hosted/3ds/:ref', (ctx) => decideStep(ctx, '3ds'));
	router.add('GET', '/hosted/eft/:ref', (ctx) => stepPage('eft', findPayin(ctx, 'EFT')));
	router.add('POST', '/hosted/eft/:ref', (ctx) => decideStep(ctx, 'eft'));
}
