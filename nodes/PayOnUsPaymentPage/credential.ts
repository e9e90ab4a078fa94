import type { PayOnUsClient } from '../shared/clientInterface';
import { baseUrlOf, normaliseCredential } from '../shared/credential/read';
import { isLoopbackHost } from '../shared/environments';
import type { RequestCredential } from '../shared/webhookCredential';
import { deriveKey } from './checkout/sealedState';

/**
 * What the page takes from its credential: one read per incoming request,
 * handed to every step that needs it (the sealed state's key, the defaults,
 * the test mode, and the client: request/setup.ts gives the client
 * `forClient()` of the same read). The read comes from the one mechanism
 * the webhook-side nodes share, the PayOnUs Trigger's RequestCredential
 * (../shared/webhookCredential.ts): a request may take a read of the same
 * credential made less than REUSE_MS (10 s) ago instead of reading, since a
 * read costs n8n 2.41 a database query, a decryption and an expression
 * isolate. Measured (`npm run bench -- payment-page --checkouts=20
 * --parallel=20 --unpaid=2 --gets=300`, 2.41.1, loaded 2-core machine): the
 * page's GET at concurrency 16 against n8n's Form Trigger page, p99 1.02x
 * with a remembered read, 1.54x and 1.50x reading on every request. The
 * secret itself is kept only as the derived key.
 */
export interface PageCredential {
	/** The sealed state's key: HMAC of the client secret, workflow and node ids (checkout/sealedState.ts). */
	key: Buffer;
	merchantId?: string;
	businessId?: string;
	environment: string;
	baseUrl: string;
}

/** This request's credential, as the page uses it (`page`: workflow id | node id); a string says what is missing. */
export async function pageCredential(credential: RequestCredential, page: string): Promise<PageCredential | string> {
	const read = (await credential.current()).credential ?? normaliseCredential({});
	const secret = read.clientSecret;
	if (!secret) return 'The PayOnUs credential has no Client Secret';
	return {
		key: deriveKey(secret, page),
		...read.defaults,
		environment: read.environment,
		baseUrl: read.environment === 'custom' ? baseUrlOf(read) : '',
	};
}

/** A client created on its first call. */
export function lazyClient(get: () => Promise<PayOnUsClient>, info: PageCredential): PayOnUsClient {
	return {
		environment:
			info.environment === 'production' || info.environment === 'custom'
				? info.environment
				: 'sandbox',
		defaults: {
			...(info.merchantId ? { merchantId: info.merchantId } : {}),
			...(info.businessId ? { businessId: info.businessId } : {}),
		},
		request: async (opts) => await (await get()).request(opts),
		paginate: async (opts) => await (await get()).paginate(opts),
	};
}

/**
 * Whether the page takes sandbox payments (it then says TEST MODE): the
 * Sandbox environment, or a Custom base URL on this machine or with
 * "sandbox" in its host name (the local sandbox). Production never.
 */
export function takesTestPayments(info: Pick<PageCredential, 'environment' | 'baseUrl'>): boolean {
	if (info.environment === 'production') return false;
	if (info.environment !== 'custom') return true;
	try {
		const host = new URL(info.baseUrl).hostname;
		return isLoopbackHost(host) || /sandbox/i.test(host);
	} catch {
		return false;
	}
}
