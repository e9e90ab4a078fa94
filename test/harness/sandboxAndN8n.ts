/**
 * The set-up most node e2e files share: a fresh sandbox (free port) with its
 * client (sandbox/client.ts, API client 3), a PayOnUs credential for it in the
 * shared n8n, and the clean-up (the file's workflows deleted, the sandbox
 * stopped). Call it where the file's hooks belong (top level or a describe);
 * it registers beforeAll / afterAll, and `handle`, `sb` and `credentialId`
 * are set once beforeAll has run.
 *
 *   const e2e = useSandboxAndN8n('payout', { clearRequestsBeforeEach: true });
 *   it('pays', async () => {
 *     const execution = await e2e.runWorkflow(payOnUsWorkflow('pay', e2e.credentialId, parameters, items));
 *     expect(await e2e.sb.requests()).toHaveLength(1);
 *   });
 */
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient } from '../../sandbox/client';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { sharedN8n, type Execution, type N8nClient } from './e2e';
import { sandboxCredentialData } from '../../dev/sandboxCredential';
import type { WorkflowJson } from '../../dev/n8n';

export interface SandboxAndN8nOptions<C extends SandboxClient> {
	/** The credential's name (default `PayOnUs <label> e2e <time>`). */
	credentialName?: string;
	/** Credential fields that differ from sandboxCredentialData's (e.g. the webhook verification key). */
	credential?: IDataObject;
	/** The sandbox client to use (default: SandboxClient, API client 3). */
	client?: (url: string) => C;
	/** After the file its workflows are deleted (default), or deactivated (the trigger files). */
	workflows?: 'delete' | 'deactivate';
	/** Forget the sandbox's request log before each test. */
	clearRequestsBeforeEach?: boolean;
	/** The file's own clean-up, run after its workflows are deleted and before the sandbox stops. */
	beforeStop?: () => Promise<void>;
}

export interface SandboxAndN8n<C extends SandboxClient = SandboxClient> {
	readonly n8n: N8nClient;
	/** The running sandbox (set in beforeAll). */
	handle: SandboxHandle;
	/** Its client (set in beforeAll). */
	sb: C;
	/** The PayOnUs credential pointing at it (set in beforeAll). */
	credentialId: string;
	/** Creates `workflow` in n8n, deleted (or deactivated) after the file; its id. */
	createWorkflow(workflow: WorkflowJson): Promise<string>;
	/** Creates `workflow` (deleted after the file) and runs it from its manual trigger. */
	runWorkflow(workflow: WorkflowJson, opts?: { timeoutMs?: number }): Promise<Execution>;
}

export function useSandboxAndN8n<C extends SandboxClient = SandboxClient>(label: string, opts: SandboxAndN8nOptions<C> = {}): SandboxAndN8n<C> {
	const n8n = sharedN8n();
	const workflowIds: string[] = [];
	const env = {
		n8n,
		async createWorkflow(workflow: WorkflowJson): Promise<string> {
			const { id } = await n8n.createWorkflow(workflow);
			workflowIds.push(id);
			return id;
		},
		async runWorkflow(workflow: WorkflowJson, runOpts: { timeoutMs?: number } = {}): Promise<Execution> {
			return await n8n.runWorkflow(await env.createWorkflow(workflow), runOpts);
		},
	} as SandboxAndN8n<C>;

	beforeAll(async () => {
		env.handle = await startSandbox({ port: 0 });
		env.sb = opts.client ? opts.client(env.handle.url) : (new SandboxClient(env.handle.url) as C);
		const name = opts.credentialName ?? `PayOnUs ${label} e2e ${Date.now()}`;
		const data = sandboxCredentialData(env.handle.url, opts.credential);
		env.credentialId = (await n8n.createCredential({ name, type: 'payOnUsApi', data })).id;
	});

	if (opts.clearRequestsBeforeEach) {
		beforeEach(async () => {
			await env.sb.clearRequests();
		});
	}

	afterAll(async () => {
		for (const id of workflowIds) {
			await (opts.workflows === 'deactivate' ? n8n.deactivate(id) : n8n.deleteWorkflow(id)).catch(() => undefined);
		}
		await opts.beforeStop?.();
		await env.handle?.stop();
	});

	return env;
}
