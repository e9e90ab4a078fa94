import type { IDataObject } from 'n8n-workflow';

/** What every answer of the page carries, and how a POSTed form is read. */

export const NO_STORE = 'no-store, max-age=0';

export function securityHeaders(nonce: string): Record<string, string> {
	return {
		'Cache-Control': NO_STORE,
		'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src data:; base-uri 'none'; frame-ancestors 'none'`,
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'no-referrer',
		'X-Frame-Options': 'DENY',
	};
}

/** The fields of a POSTed form (urlencoded), from n8n's parsed body or the raw bytes; strings only, bounded. */
export function formOf(body: unknown, raw: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	const take = (entries: Iterable<[string, unknown]>) => {
		for (const [k, v] of entries)
			if (typeof v === 'string' && k.length < 40) out[k] = v.slice(0, 4000);
	};
	if (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length > 0) {
		take(Object.entries(body as IDataObject));
	} else if (Buffer.isBuffer(raw) && raw.length > 0 && raw.length < 64 * 1024) {
		take(new URLSearchParams(raw.toString('utf8')).entries());
	}
	return out;
}
