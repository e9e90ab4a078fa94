/**
 * The `payOnUsApi` credential in a real n8n (the shared instance of this jest
 * run) against a sandbox started here: the credential test passes and fails
 * with clear words, the action node and the HTTP Request node (predefined
 * credential type) authenticate, and a token killed by a second client is
 * recovered from.
 */
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeError, nodeItems, sharedN8n } from '../harness/e2e';
import { manualWorkflow } from '../../dev/workflows';
import { sandboxClient, sandboxCredentialData } from '../../dev/sandboxCredential';

const n8n = sharedN8n();
let sb: SandboxHandle;

const stats = (client: number) => ({ ...sb.state.clientStats(`sandbox-client-${client}`) });

/** Credential data for the sandbox with API client `client`. */
const credentialData = (client: number, extra: IDataObject = {}): IDataObject =>
	sandboxCredentialData(sb.url, { ...sandboxClient(client), ...extra });

async function createCredential(name: string, data: IDataObject): Promise<string> {
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data });
	return id;
}

async function testCredential(id: string, name: string, data: IDataObject): Promise<{ status: string; message: string }> {
	return await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
		credentials: { id, name, type: 'payOnUsApi', data },
	});
}

function walletListNode(credentialId: string): IDataObject {
	return {
		name: 'PayOnUs',
		type: 'n8n-nodes-payonus.payOnUs',
		typeVersion: 1,
		parameters: { resource: 'wallet', operation: 'listWallets', merchantId: 'MER-1001' },
		credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } },
	};
}

function httpRequestNode(credentialId: string): IDataObject {
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'GET',
			url: `${sb.url}/api/v1/merchants/MER-1001/wallets`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'payOnUsApi',
			options: {},
		},
		credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } },
	};
}

async function killTokenFromOutside(client: number): Promise<void> {
	const res = await fetch(`${sb.url}/api/v1/access-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ apiClientId: `sandbox-client-${client}`, apiClientSecret: `sandbox-secret-${client}` }),
	});
	expect(res.status).toBe(200);
	await res.arrayBuffer();
}

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await sb.stop();
});

describe('credential test', () => {
	it('passes with the right ID, secret and environment', async () => {
		const data = credentialData(1);
		const id = await createCredential('PayOnUs ok', data);
		const result = await testCredential(id, 'PayOnUs ok', data);
		expect(result).toEqual({ status: 'OK', message: expect.stringMatching(/issued a new access token/) });
		expect(stats(1).tokenCalls).toBe(1);
	});

	it('fails on a wrong secret, saying so, without showing it', async () => {
		const data = credentialData(2, { clientSecret: 'not-the-secret-42' });
		const id = await createCredential('PayOnUs bad secret', data);
		const result = await testCredential(id, 'PayOnUs bad secret', data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the Client ID \/ Client Secret \(HTTP 401\)/);
		expect(result.message).not.toContain('not-the-secret-42');
	});

	it('fails on a wrong environment address, saying it cannot reach it', async () => {
		const data = credentialData(2, { baseUrl: 'http://127.0.0.1:9' });
		const id = await createCredential('PayOnUs bad url', data);
		const result = await testCredential(id, 'PayOnUs bad url', data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Could not reach PayOnUs at http:\/\/127\.0\.0\.1:9 to get an access token \(connection refused\)/);
	});

	it('fails on an unknown default merchant, naming it', async () => {
		const data = credentialData(3, { merchantId: 'MER-NOPE' });
		const id = await createCredential('PayOnUs bad merchant', data);
		const result = await testCredential(id, 'PayOnUs bad merchant', data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/MER-NOPE/);
	});
});

describe('calls authenticate', () => {
	it('the action node (Wallet > List) and the HTTP Request node share one token', async () => {
		const before = stats(3).tokenCalls;
		const credentialId = await createCredential('PayOnUs calls', credentialData(3));
		const action = await n8n.createWorkflow(manualWorkflow('credential e2e: action', [walletListNode(credentialId)]));
		const execA = await n8n.runWorkflow(action.id);
		expect(nodeError(execA, 'PayOnUs')).toBeUndefined();
		const wallets = nodeItems(execA, 'PayOnUs');
		expect(wallets.length).toBeGreaterThan(0);
		expect(wallets.some((w) => w.currency === 'NGN')).toBe(true);

		const http = await n8n.createWorkflow(manualWorkflow('credential e2e: http', [httpRequestNode(credentialId)]));
		const execH = await n8n.runWorkflow(http.id);
		expect(nodeError(execH, 'HTTP Request')).toBeUndefined();
		const body = nodeItems(execH, 'HTTP Request');
		expect(JSON.stringify(body)).toContain('Acme Stores');
		// At most one token call for both (none when n8n already holds a live
		// token of this client from the test before), no refused token.
		expect(stats(3).tokenCalls - before).toBeLessThanOrEqual(1);
		expect(stats(3).unauthorized).toBe(0);
		// The token never shows up in node output.
		expect(JSON.stringify([wallets, body])).not.toMatch(/sbx_/);
	});

	it('recovers from a token killed by a second client: one new token, the call succeeds; killed again within a minute, the breaker holds until a person tests the credential', async () => {
		const credentialId = await createCredential('PayOnUs killed', credentialData(1));
		const wf = await n8n.createWorkflow(manualWorkflow('credential e2e: killed', [walletListNode(credentialId)]));
		const first = await n8n.runWorkflow(wf.id);
		expect(nodeError(first, 'PayOnUs')).toBeUndefined();
		const base = stats(1);
		await killTokenFromOutside(1);
		const second = await n8n.runWorkflow(wf.id);
		expect(nodeError(second, 'PayOnUs')).toBeUndefined();
		expect(nodeItems(second, 'PayOnUs').length).toBeGreaterThan(0);
		const after = stats(1);
		expect(after.tokenCalls - base.tokenCalls).toBe(2); // the killer's and exactly one of ours
		expect(after.rateLimited).toBe(0);

		// Killed again within a minute (n8n's clock) of our new token: two tokens
		// refused fresh is another installation on this API client, so the token
		// breaker asks for none for a minute and says what to check (rule of
		// nodes/shared/accessToken/cache.ts), here through the HTTP Request node
		// (legacy helper). The sandbox clock moves a minute so that the killer's
		// own call is not rate limited.
		sb.state.clock.advance(61);
		const http = await n8n.createWorkflow(manualWorkflow('credential e2e: killed http', [httpRequestNode(credentialId)]));
		await killTokenFromOutside(1);
		const held = await n8n.runWorkflow(http.id);
		expect(nodeError(held, 'HTTP Request')).toContain('PayOnUs refuses every new access token for this API client');
		expect(stats(1).tokenCalls - after.tokenCalls).toBe(1); // the killer's only
		// A person tests the credential (what the error tells them to do): it takes a
		// token despite the hold, and its success lifts the hold; the call goes through.
		expect((await testCredential(credentialId, 'PayOnUs killed', credentialData(1))).status).toBe('OK');
		const third = await n8n.runWorkflow(http.id);
		expect(nodeError(third, 'HTTP Request')).toBeUndefined();
		expect(JSON.stringify(nodeItems(third, 'HTTP Request'))).toContain('Acme Stores');
		expect(stats(1).tokenCalls - after.tokenCalls).toBeLessThanOrEqual(3); // the killer's, the test's, at most one more
		expect(stats(1).rateLimited).toBe(0);
	});
});
