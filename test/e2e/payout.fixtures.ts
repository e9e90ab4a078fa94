/**
 * Helpers of the payout and card tokenization e2e files (and the transfer
 * drill): a sandbox, a credential pointing at it, and a Manual Trigger ->
 * Code (items) -> PayOnUs workflow.
 */
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { itemsNode, manualWorkflow, sandboxCredentialData } from '../harness/fixtures';
import type { N8nClient, WorkflowJson } from '../harness/n8n';

export const PAYONUS = 'n8n-nodes-payonus.payOnUs';
export const NODE = 'PayOnUs';

export class Sandbox {
	constructor(readonly url: string) {}

	async control<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await fetch(`${this.url}/_sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await res.json()) as { data: T };
		if (res.status >= 400) throw new Error(`sandbox ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
		return json.data;
	}

	/** Requests the sandbox received under /api/v1, without the token call. */
	async requests(): Promise<IDataObject[]> {
		const all = await this.control<IDataObject[]>('GET', '/requests');
		return all.filter((r) => r.path !== '/api/v1/access-token');
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', '/requests');
	}

	async ledger(): Promise<IDataObject> {
		return await this.control<IDataObject>('GET', '/ledger');
	}

	/** An authenticated call to the sandbox API (test setup only). */
	async api<T = IDataObject>(method: string, path: string, body?: unknown, clientId = 'sandbox-client-3'): Promise<T> {
		const tokenRes = await fetch(`${this.url}/api/v1/access-token`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ apiClientId: clientId, apiClientSecret: clientId.replace('client', 'secret') }),
		});
		const token = ((await tokenRes.json()) as IDataObject & { data?: IDataObject }) ?? {};
		const accessToken = (token.access_token ?? token.data?.access_token) as string;
		const res = await fetch(`${this.url}${path}`, {
			method,
			headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return ((await res.json()) as { data: T }).data;
	}
}

export async function createPayOnUsCredential(n8n: N8nClient, sandboxUrl: string, name: string, data: IDataObject = {}): Promise<string> {
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sandboxUrl, data) });
	return id;
}

/** A fresh sandbox, its control driver and a credential for it in `n8n` (named after `label`). */
export async function nodeSandbox(n8n: N8nClient, label: string): Promise<{ handle: SandboxHandle; sb: Sandbox; credentialId: string }> {
	const handle = await startSandbox({ port: 0 });
	const credentialId = await createPayOnUsCredential(n8n, handle.url, `PayOnUs ${label} e2e ${Date.now()}`);
	return { handle, sb: new Sandbox(handle.url), credentialId };
}

/** A business resource locator value. */
export const business = (id: string | '={{ $json.businessId }}') => ({ __rl: true, mode: 'id', value: id });

/**
 * Manual Trigger -> Code (returns `items`, each `{ json, binary? }`) ->
 * PayOnUs with `parameters`. `continueOnFail` makes bad items error items.
 */
export function payOnUsWorkflow(
	name: string,
	credentialId: string,
	parameters: IDataObject,
	items: Array<{ json: IDataObject; binary?: IDataObject }>,
	opts: { continueOnFail?: boolean } = {},
): WorkflowJson {
	return manualWorkflow(name, [
		itemsNode(items),
		{
			name: NODE,
			type: PAYONUS,
			typeVersion: 1,
			parameters,
			credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs e2e' } },
			...(opts.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
		},
	]);
}
