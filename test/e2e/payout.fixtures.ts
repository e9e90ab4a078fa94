/**
 * Helpers of the payout and card tokenization e2e files (and the transfer
 * drill): a sandbox with its client (sandbox/client.ts), a credential
 * pointing at it, and a Manual Trigger -> Code (items) -> PayOnUs workflow.
 */
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { itemsNode, manualWorkflow, sandboxCredentialData } from '../harness/fixtures';
import type { N8nClient, WorkflowJson } from '../harness/n8n';

export const PAYONUS = 'n8n-nodes-payonus.payOnUs';
export const NODE = 'PayOnUs';

export async function createPayOnUsCredential(n8n: N8nClient, sandboxUrl: string, name: string, data: IDataObject = {}): Promise<string> {
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sandboxUrl, data) });
	return id;
}

/** A fresh sandbox, its client (sandbox/client.ts) and a credential for it in `n8n` (named after `label`). */
export async function nodeSandbox(n8n: N8nClient, label: string): Promise<{ handle: SandboxHandle; sb: SandboxClient; credentialId: string }> {
	const handle = await startSandbox({ port: 0 });
	const credentialId = await createPayOnUsCredential(n8n, handle.url, `PayOnUs ${label} e2e ${Date.now()}`);
	return { handle, sb: new SandboxClient(handle.url), credentialId };
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
