/**
 * Helpers of the payout and card tokenization e2e files (and the transfer
 * drill): a sandbox with its client (sandbox/client.ts), a credential
 * pointing at it, and a Manual Trigger -> Code (items) -> PayOnUs workflow.
 */
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { itemsNode, manualWorkflow, sandboxCredentialData } from '../harness/fixtures';
import type { Execution, N8nClient, WorkflowJson } from '../harness/n8n';

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

/** What useNodeSandbox gives a test file (set once its beforeAll ran). */
export interface NodeSandbox {
	handle: SandboxHandle;
	sb: SandboxClient;
	credentialId: string;
	/** Creates (and removes after the file) a payOnUsWorkflow with this file's credential, runs it. */
	run(name: string, parameters: IDataObject, items: Array<{ json: IDataObject; binary?: IDataObject }>, opts?: { continueOnFail?: boolean }): Promise<Execution>;
}

/**
 * The set-up most node e2e files share: a sandbox and a credential for this
 * file (beforeAll), its workflows and sandbox removed afterwards (afterAll).
 */
export function useNodeSandbox(n8n: N8nClient, label: string): NodeSandbox {
	const workflows: string[] = [];
	const env = {
		async run(name, parameters, items, opts = {}) {
			const { id } = await n8n.createWorkflow(payOnUsWorkflow(name, env.credentialId, parameters, items, opts));
			workflows.push(id);
			return await n8n.runWorkflow(id);
		},
	} as NodeSandbox;
	beforeAll(async () => {
		Object.assign(env, await nodeSandbox(n8n, label));
	});
	afterAll(async () => {
		for (const id of workflows) await n8n.deleteWorkflow(id).catch(() => undefined);
		await env.handle?.stop();
	});
	return env;
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
