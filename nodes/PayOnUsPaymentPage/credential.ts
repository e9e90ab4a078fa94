import type { IWebhookFunctions } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { baseUrlOf, normaliseCredential, readCredential } from '../shared/credential/read';
import { isLoopbackHost } from '../shared/environments';
import { deriveKey } from './checkout/sealedState';

/** What the page reads from its credential, cached briefly (the secret itself is never kept). */

export interface PageCredential {
	at: number;
	/** The sealed state's key: HMAC of the client secret, workflow and node ids (checkout/sealedState.ts). */
	key: Buffer;
	merchantId?: string;
	businessId?: string;
	environment: string;
	baseUrl: string;
}

/**
 * What the page needs from the credential, kept a minute per (credential,
 * workflow, node): reading a credential costs n8n several database queries
 * and a decryption, and the start page needs nothing else. Only a derived
 * key is kept, never the secret itself.
 */
const pageCredentials = new Map<string, PageCredential>();
const CREDENTIAL_TTL_MS = 60_000;

export async function pageCredential(
	ctx: IWebhookFunctions,
	scope: string,
): Promise<PageCredential | string> {
	const hit = pageCredentials.get(scope);
	if (hit && Date.now() - hit.at < CREDENTIAL_TTL_MS) return hit;
	const credential = (await readCredential(ctx)) ?? normaliseCredential({});
	const secret = credential.clientSecret;
	if (!secret) return 'The PayOnUs credential has no Client Secret';
	const [, workflowId, nodeId] = scope.split('|');
	const entry: PageCredential = {
		at: Date.now(),
		key: deriveKey(secret, `${workflowId}|${nodeId}`),
		...credential.defaults,
		environment: credential.environment,
		baseUrl: credential.environment === 'custom' ? baseUrlOf(credential) : '',
	};
	if (pageCredentials.size > 1000) pageCredentials.clear();
	pageCredentials.set(scope, entry);
	return entry;
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
