/**
 * A PayOnUs credential pointing at a sandbox, as the e2e tests, the benches
 * and the scripts create it: the seed's API clients, the credential data, the
 * credential created in an n8n, and a token straight from the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import type { N8nClient } from './n8n';
import { signature } from '../sandbox/webhooks';

/** The webhook verification key of the trigger tests' and drills' credentials. */
export const KEY = 'e2e-webhook-verification-key';

/** The hash header the service signs a payin or payout notification `body` with (the spec's fields in order, then the key), as the sandbox does. */
export function notificationHash(body: IDataObject, key = KEY): string {
	return signature([String(body.accountNumber), String(body.onusReference), String(body.paymentStatus)], key);
}

/** API client `n` of the sandbox seed (1, 2, 3: merchant MER-1001, separate token slots). */
export function sandboxClient(n: number | string = 1): { clientId: string; clientSecret: string } {
	return { clientId: `sandbox-client-${n}`, clientSecret: `sandbox-secret-${n}` };
}

/**
 * `payOnUsApi` credential data for a sandbox (environment `custom`): API
 * client 1, merchant MER-1001, business BUS-2001. `overrides` replace any
 * field (another client, key, or `allowedHttpRequestDomains`).
 */
export function sandboxCredentialData(sandboxUrl: string, overrides: IDataObject = {}): IDataObject {
	return {
		environment: 'custom',
		baseUrl: sandboxUrl,
		...sandboxClient(1),
		webhookVerificationKey: 'e2e-verification-key',
		merchantId: 'MER-1001',
		businessId: 'BUS-2001',
		// n8n 2.8 adds this field to every credential type (it only governs the
		// generic HTTP Request node); its public API wants it or allowedDomains.
		allowedHttpRequestDomains: 'all',
		...overrides,
	};
}

/** An access token straight from the sandbox (test and bench setup; client 3 by default, so n8n's token is untouched). */
export async function sandboxAccessToken(sandboxUrl: string, client: number | string = 3): Promise<string> {
	const { clientId, clientSecret } = sandboxClient(client);
	const res = await fetch(`${sandboxUrl}/api/v1/access-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ apiClientId: clientId, apiClientSecret: clientSecret }),
	});
	const json = (await res.json()) as { data?: { access_token?: string } };
	if (res.status !== 200 || !json.data?.access_token) throw new Error(`sandbox token for ${clientId}: ${res.status}`);
	return json.data.access_token;
}

/** Creates a `payOnUsApi` credential for the sandbox at `sandboxUrl` (sandboxCredentialData + `data`); its id. */
export async function createPayOnUsCredential(n8n: N8nClient, sandboxUrl: string, name: string, data: IDataObject = {}): Promise<string> {
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sandboxUrl, data) });
	return id;
}

/** Creates a credential whose webhook verification key is `key` (default KEY: the triggers' tests and drills); its id. */
export async function createCredential(n8n: N8nClient, sandboxUrl: string, name: string, key = KEY): Promise<string> {
	return await createPayOnUsCredential(n8n, sandboxUrl, name, { webhookVerificationKey: key });
}
