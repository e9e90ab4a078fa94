/**
 * Shared set-up of the payin end-to-end files (payin.accounts, payin.cards,
 * payin.mobileMoney-eft): each file gets its own sandbox and PayOnUs credential
 * in the shared n8n, and runs ONE workflow per test (Manual Trigger -> Code
 * items -> PayOnUs) whose items mix good inputs and bad ones (continueOnFail on).
 */
import { constants, publicEncrypt } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { nodeItems, sharedN8n, type Execution } from '../harness/e2e';
import { sandboxAccessToken } from '../harness/fixtures';
import { SandboxClient } from '../../sandbox/client';
import { createPayOnUsCredential, NODE, payOnUsWorkflow } from './payout.fixtures';

export const e = (field: string) => `={{ $json.${field} }}`;

export const customerParams = {
	customerName: e('name'),
	customerEmail: e('email'),
};

export const person = { name: 'Ada Obi', email: 'ada@example.com' };

/** The credential each payin file creates (the dropdown test names it). */
export const PAYIN_CREDENTIAL_NAME = 'PayOnUs payin e2e';

/**
 * Registers the file's beforeAll (a sandbox on a free port, a credential for
 * it) and afterAll (its workflows deleted, the sandbox stopped) and returns
 * the helpers; `sb` and `credentialId` are set once beforeAll has run.
 */
export function payinSuite() {
	const n8n = sharedN8n();
	let handle: SandboxHandle;
	let sb: SandboxClient;
	let credentialId: string;
	const workflowIds: string[] = [];

	/** Runs PayOnUs over `items` with `parameters`; returns the execution. */
	async function run(
		name: string,
		parameters: IDataObject,
		items: IDataObject[],
		opts: { continueOnFail?: boolean; credential?: string } = { continueOnFail: true },
	): Promise<Execution> {
		await sb.clearRequests();
		const wf = payOnUsWorkflow(
			`payin e2e: ${name}`,
			opts.credential ?? credentialId,
			parameters,
			items.map((json) => ({ json })),
			{ continueOnFail: opts.continueOnFail },
		);
		const { id } = await n8n.createWorkflow(wf);
		workflowIds.push(id);
		return await n8n.runWorkflow(id, { timeoutMs: 120000 });
	}

	/** Output items of the node, errors separated. */
	function outcome(execution: Execution): { ok: IDataObject[]; errors: string[] } {
		const items = nodeItems(execution, NODE);
		return {
			ok: items.filter((i) => i.error === undefined),
			errors: items.filter((i) => i.error !== undefined).map((i) => String(i.error)),
		};
	}

	let apiToken: string | undefined;
	/** A direct sandbox API call for test setup (one token for the whole file: 3 token calls a minute). */
	async function api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
		apiToken ??= await sandboxAccessToken(handle.url, 3);
		const res = await fetch(`${handle.url}${path}`, {
			method,
			headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await res.json()) as { data: T };
		if (res.status >= 400) throw new Error(`sandbox ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
		return json.data;
	}

	async function encryptCard(pan: string): Promise<string> {
		const { publicKey } = await sb.control<{ publicKey: string }>('GET', '/public-key');
		return publicEncrypt(
			{ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
			Buffer.from(`${pan}|12|30|123`),
		).toString('base64');
	}

	const suite = { n8n, sb: undefined as unknown as SandboxClient, credentialId: '', run, outcome, api, encryptCard };

	beforeAll(async () => {
		handle = await startSandbox({ port: 0 });
		sb = new SandboxClient(handle.url);
		credentialId = await createPayOnUsCredential(n8n, handle.url, PAYIN_CREDENTIAL_NAME);
		suite.sb = sb;
		suite.credentialId = credentialId;
	});

	afterAll(async () => {
		for (const id of workflowIds) await n8n.deleteWorkflow(id).catch(() => undefined);
		await handle?.stop();
	});

	return suite;
}
