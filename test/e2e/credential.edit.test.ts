/**
 * The credential test the way the editor runs it on a SAVED credential that
 * has been used (its stored token is valid): the editor reads the credential
 * (GET /rest/credentials/:id?includeData=true: password fields, the hidden
 * token among them, come back blanked), the user edits the form, and the
 * editor posts the form's data to POST /rest/credentials/test; n8n puts the
 * stored values back in place of the blanked ones before running the test.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeError, sharedN8n } from '../harness/e2e';
import { manualWorkflow } from '../../dev/workflows';
import { sandboxClient, sandboxCredentialData } from '../../dev/sandboxCredential';

const n8n = sharedN8n();
let sb: SandboxHandle;

const stats = (client: number) => ({ ...sb.state.clientStats(`sandbox-client-${client}`) });

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await sb.stop();
});

function walletNode(id: string, name: string): IDataObject {
	return {
		name: 'PayOnUs',
		type: 'n8n-nodes-payonus.payOnUs',
		typeVersion: 1,
		parameters: { resource: 'wallet', operation: 'listWallets', merchantId: 'MER-1001' },
		credentials: { payOnUsApi: { id, name } },
	};
}

async function usedCredential(name: string, client: number): Promise<string> {
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sb.url, sandboxClient(client)) });
	const wf = await n8n.createWorkflow(manualWorkflow(`${name} use`, [walletNode(id, name)]));
	const exec = await n8n.runWorkflow(wf.id);
	expect(nodeError(exec, 'PayOnUs')).toBeUndefined();
	return id;
}

async function editorForm(id: string): Promise<IDataObject> {
	const cred = await n8n.rest<{ data: IDataObject }>('GET', `/credentials/${id}?includeData=true`);
	return cred.data;
}

async function editorTest(id: string, name: string, data: IDataObject): Promise<{ status: string; message: string }> {
	return await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
		credentials: { id, name, type: 'payOnUsApi', data },
	});
}

describe('credential test of an edited, used credential (as the editor sends it)', () => {
	it('hands the test the form values with the stored token fields put back', async () => {
		const id = await usedCredential('PayOnUs edit form', 1);
		const form = await editorForm(id);
		// What the editor holds: the password fields (the token among them) blanked, the token times in clear.
		expect(String(form.accessToken)).toMatch(/^__n8n_BLANK_VALUE_/);
		expect(String(form.clientSecret)).toMatch(/^__n8n_BLANK_VALUE_/);
		expect(Number(form.issuedAt)).toBeGreaterThan(0);
	});

	it('fails after the secret is changed to a wrong one (one token call, refused)', async () => {
		const id = await usedCredential('PayOnUs edit secret', 2);
		const form = await editorForm(id);
		const before = stats(2);
		const result = await editorTest(id, 'PayOnUs edit secret', { ...form, clientSecret: 'wrong-secret-77' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the Client ID \/ Client Secret \(HTTP 401\)/);
		expect(result.message).not.toContain('wrong-secret-77');
		expect(stats(2).tokenCalls - before.tokenCalls).toBe(1);
	});

	it('fails after the ID and secret are both changed to wrong ones', async () => {
		const id = await usedCredential('PayOnUs edit both', 3);
		const form = await editorForm(id);
		const result = await editorTest(id, 'PayOnUs edit both', { ...form, clientId: 'sandbox-client-9999', clientSecret: 'wrong-secret-78' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the Client ID \/ Client Secret/);
	});

	it('passes with the right secret typed again, with one fresh token call; the next run takes that token without another', async () => {
		const id = await usedCredential('PayOnUs edit right', 1);
		const form = await editorForm(id);
		const before = stats(1);
		const result = await editorTest(id, 'PayOnUs edit right', { ...form, clientSecret: sandboxClient(1).clientSecret });
		expect(result.status).toBe('OK');
		expect(stats(1).tokenCalls - before.tokenCalls).toBe(1);
		const wf = await n8n.createWorkflow(manualWorkflow('edit right rerun', [walletNode(id, 'PayOnUs edit right')]));
		const exec = await n8n.runWorkflow(wf.id);
		expect(nodeError(exec, 'PayOnUs')).toBeUndefined();
		expect(stats(1).tokenCalls - before.tokenCalls).toBe(1);
	});

	it('checks a brand-new credential (one token call)', async () => {
		sb.state.clock.advance(61);
		const before = stats(1);
		const data = sandboxCredentialData(sb.url, { ...sandboxClient(1), clientSecret: 'wrong-new-secret' });
		const { id } = await n8n.createCredential({ name: 'PayOnUs brand new', type: 'payOnUsApi', data });
		const result = await editorTest(id, 'PayOnUs brand new', data);
		expect(result.status).toBe('Error');
		expect(stats(1).tokenCalls - before.tokenCalls).toBe(1);
	});
});
