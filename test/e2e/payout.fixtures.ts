/**
 * Helpers of the PayOnUs node e2e files (and the transfer drill): a
 * credential pointing at a sandbox, and a Manual Trigger -> Code (items) ->
 * PayOnUs workflow. The sandbox + credential + clean-up of a file is
 * test/harness/sandboxAndN8n.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { itemsNode, manualWorkflow, sandboxCredentialData } from '../harness/fixtures';
import type { N8nClient, WorkflowJson } from '../harness/n8n';

export const PAYONUS = 'n8n-nodes-payonus.payOnUs';
export const NODE = 'PayOnUs';

export async function createPayOnUsCredential(n8n: N8nClient, sandboxUrl: string, name: string, data: IDataObject = {}): Promise<string> {
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sandboxUrl, data) });
	return id;
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
