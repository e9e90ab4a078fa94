/**
 * Fixtures shared by the e2e tests, the benches and the scripts: credential
 * data pointing at a sandbox, a direct sandbox token, and the Manual Trigger
 * -> ... workflow shape most runs use.
 */
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import type { WorkflowJson } from './n8n';

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

/** A Code node named `Items` that outputs `items` (each `{ json, binary? }`) as they are. */
export function itemsNode(items: Array<{ json: IDataObject; binary?: IDataObject }>): IDataObject {
	return { name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: `return ${JSON.stringify(items)};` } };
}

/**
 * Manual Trigger (`Start`) -> each node of `chain` in turn, connected main
 * to main. Each node needs `name` and `type`; `id` and `position` are filled
 * in when missing.
 */
export function manualWorkflow(name: string, chain: IDataObject[], settings: IDataObject = {}): WorkflowJson {
	const nodes: IDataObject[] = [
		{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		...chain.map((node, i) => ({ id: `node-${i + 1}`, position: [200 * (i + 1), 0], parameters: {}, ...node })),
	];
	const connections: IDataObject = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[String(nodes[i].name)] = { main: [[{ node: String(nodes[i + 1].name), type: 'main', index: 0 }]] };
	}
	return { name, nodes, connections, settings: { executionOrder: 'v1', ...settings } };
}
