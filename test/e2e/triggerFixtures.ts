/**
 * The trigger e2e files' set-up. Their workflows (triggerWorkflow,
 * pollWorkflow) are in dev/workflows.ts, the sandbox scenarios (SandboxApi)
 * in dev/sandboxScenarios.ts and the credential (KEY) in
 * dev/sandboxCredential.ts: the drills in bench/ use them too.
 */
import { KEY } from '../../dev/sandboxCredential';
import { SandboxApi } from '../../dev/sandboxScenarios';
import { useSandboxAndN8n, type SandboxAndN8n } from '../harness/sandboxAndN8n';

/**
 * The trigger files' set-up (test/harness/sandboxAndN8n.ts): a sandbox, its
 * SandboxApi as `sb`, a credential with KEY; the file's workflows are
 * deactivated after it.
 */
export function useTriggerSandbox(label: string): SandboxAndN8n<SandboxApi> {
	return useSandboxAndN8n(label, {
		client: (url) => new SandboxApi(url),
		credential: { webhookVerificationKey: KEY },
		workflows: 'deactivate',
	});
}
