import type { PageConfig } from '../checkout/types';
import { COMMON_JS, CSS } from './assets';

/** The building blocks every page is made of: escaping, money, layout, forms shared by several views. */

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

export interface RenderOptions {
	nonce: string;
	config: PageConfig;
	/** The page takes sandbox payments: every page says TEST MODE (no real money). */
	testMode?: boolean;
	/** The request's time (the page's clock), for what the page counts down. */
	now?: number;
}

export function layout(o: RenderOptions, title: string, body: string, scripts: string[] = []): string {
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
${o.testMode ? '<p class="testmode" id="test-mode"><b>TEST MODE</b>: sandbox payment, no real money is taken.</p>' : ''}
${body}
<p class="foot">Secured by PayOnUs</p>
</main>
<script nonce="${o.nonce}">${js}</script>
</body>
</html>`;
}

export function header(o: RenderOptions, amountText?: string): string {
	const c = o.config;
	return `<header><h1>${esc(c.title)}</h1>${c.description ? `<p class="muted">${esc(c.description)}</p>` : ''}${
		amountText ? `<p class="amount">${esc(amountText)}</p>` : ''
	}</header>`;
}

export function alertBox(message: string | undefined, id = 'form-error'): string {
	return message ? `<div class="alert" role="alert" id="${id}">${esc(message)}</div>` : '';
}

export function hidden(sealed: string, step: string): string {
	return `<input type="hidden" name="c" value="${esc(sealed)}"><input type="hidden" name="step" value="${esc(step)}">`;
}

export function pollBlock(sealed: string): string {
	return `<div id="poll" data-url="?c=${esc(sealed)}" aria-live="polite" class="muted"><p>This page checks the payment by itself every few seconds.</p></div>`;
}

export function checkForm(sealed: string, label: string): string {
	return `<form method="post" action="?c=${esc(sealed)}">${hidden(sealed, 'check')}<button type="submit" class="secondary">${esc(label)}</button></form>`;
}

export function expiryText(exp: number): string {
	const d = new Date(exp);
	return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export interface Body {
	html: string;
	scripts: string[];
}

export function layoutBody(
	o: RenderOptions,
	amount: string,
	section: string,
	scripts: string[] = [],
): Body {
	return { html: `${header(o, amount)}\n${section}`, scripts };
}

export function simple(o: RenderOptions, title: string, text: string, again = true): Body {
	return {
		html: `${header(o)}<section class="card" aria-labelledby="msg-h"><h2 id="msg-h">${esc(title)}</h2><div class="notice" role="status"><p>${esc(text)}</p></div>${
			again ? '<a class="button secondary" href="?">Start a new payment</a>' : ''
		}</section>`,
		scripts: [],
	};
}

/** The page for a view. */
