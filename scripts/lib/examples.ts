/**
 * The example workflows (examples/*.json): loading them, and preparing one for
 * a given n8n (credential attached, "Settings" node values filled in).
 * Used by `npm start` and by the end-to-end tests, so both import exactly the
 * files a user would import.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_NAME, packageRoot } from '../../dev/n8n';
import type { N8nClient } from '../../dev/n8n/client';

export { PACKAGE_NAME };
export const CREDENTIAL_TYPE = 'payOnUsApi';
export const TRIGGER_TYPE = `${PACKAGE_NAME}.payOnUsTrigger`;
export const PAYMENT_PAGE_TYPE = `${PACKAGE_NAME}.payOnUsPaymentPage`;
/** The webhook path the PayOnUs Trigger declares (`webhooks[0].path`). */
export const TRIGGER_WEBHOOK_PATH = 'webhook';

export interface ExampleNode {
	id?: string;
	name: string;
	type: string;
	typeVersion?: number;
	webhookId?: string;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	[key: string]: unknown;
}

export interface ExampleWorkflow {
	name: string;
	nodes: ExampleNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

/**
 * The example files, in the order the README and docs/quick-start.md present them.
 * `receiver` is the ONE workflow with a PayOnUs Trigger (the service sends
 * every event of an environment to one URL); it hands events to
 * autoPayout, notifications and cardOnFile (its CONSUMERS) with Execute
 * Workflow nodes.
 */
export const EXAMPLES = {
	receiver: 'payonus-events.json',
	autoPayout: 'auto-payout-on-collection.json',
	notifications: 'payment-notifications.json',
	cardOnFile: 'card-on-file.json',
	reconciliation: 'daily-reconciliation.json',
	nightlyReconciliation: 'nightly-reconciliation.json',
	sellWithLink: 'sell-with-a-link.json',
	paymentsAgent: 'payments-agent-with-approval.json',
} as const;
export type ExampleKey = keyof typeof EXAMPLES;

/** The workflows the receiver calls (each starts with "When Executed by Another Workflow"). */
export const CONSUMERS = ['autoPayout', 'notifications', 'cardOnFile'] as const satisfies readonly ExampleKey[];

/** n8n's sub-workflow nodes: the caller and the trigger of the called workflow. */
export const EXECUTE_WORKFLOW_TYPE = 'n8n-nodes-base.executeWorkflow';
export const EXECUTE_WORKFLOW_TRIGGER_TYPE = 'n8n-nodes-base.executeWorkflowTrigger';
export const EMAIL_SEND_TYPE = 'n8n-nodes-base.emailSend';
/** Send Email as a tool's Human review (n8n makes one of every send-and-wait node; the payments agent's approval). */
export const EMAIL_REVIEW_TYPE = 'n8n-nodes-base.emailSendHitlTool';
export const SMTP_CREDENTIAL_TYPE = 'smtp';

/** The folder of this package (works from the sources and from build/). */
export const repoRoot = packageRoot;

export function loadExample(key: ExampleKey): ExampleWorkflow {
	const file = join(repoRoot(), 'examples', EXAMPLES[key]);
	return JSON.parse(readFileSync(file, 'utf8')) as ExampleWorkflow;
}

export function loadAllExamples(): Array<{ key: ExampleKey; workflow: ExampleWorkflow }> {
	return (Object.keys(EXAMPLES) as ExampleKey[]).map((key) => ({ key, workflow: loadExample(key) }));
}

export interface PrepareOptions {
	credential: { id: string; name: string };
	/** SMTP credential for every Send Email node (the files carry none). */
	smtpCredential?: { id: string; name: string };
	/**
	 * Ids of the called workflows, by the name the file's Execute Workflow node
	 * names (its `workflowId.cachedResultName`, an example's own name). The
	 * files leave the id empty: n8n shows the node as needing a workflow
	 * until one is picked.
	 */
	workflowIds?: Record<string, string>;
	/** Values for the assignments of the node named "Settings" (by assignment name). */
	settings?: Record<string, string | number | boolean>;
	/** Rename the workflow (tests keep their copies apart). */
	name?: string;
	/** Replace every webhookId (tests import one example several times). */
	webhookIdSuffix?: string;
	/** The Payment Page nodes' Card Encryption Public Key (a local sandbox's: SandboxClient.publicKey()). */
	cardPublicKey?: string;
	/** The receiver's forward of checkout payins: the page's notification URL (`<page production URL>/notify`). */
	pageNotifyUrl?: string;
	/** Queue mode: enable the "Claim once (queue mode)" nodes with this Redis credential. */
	redisCredential?: { id: string; name: string };
	/** The workflow's error workflow (Settings: Error workflow), which tells a person a run failed. */
	errorWorkflow?: string;
	/** OpenAI credential for the OpenAI Chat Model nodes (the files carry none: the model is the user's choice). */
	chatModelCredential?: { id: string; name: string };
}

/** The receiver's node that forwards a checkout's payin to the Payment Page (its URL: the page's + `/notify`). */
export const PAGE_HANDOFF_NODE = 'Hand to the payment page';
/** The claim step of the receiver and of the page's workflow (disabled in the files: one process needs none). */
export const CLAIM_NODE = 'Claim once (queue mode)';
export const REDIS_CREDENTIAL_TYPE = 'redis';

/** n8n's OpenAI Chat Model node and its credential type (the payments agent's model). */
export const OPENAI_CHAT_MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
export const OPENAI_CREDENTIAL_TYPE = 'openAiApi';

/**
 * A copy of the example ready for n8n's public API (only the fields it
 * accepts), with the credential attached to every PayOnUs node and the
 * Settings node's values replaced.
 */
export function prepareExample(example: ExampleWorkflow, opts: PrepareOptions): ExampleWorkflow {
	const nodes = (JSON.parse(JSON.stringify(example.nodes)) as ExampleNode[]).map((node) => {
		if (node.type.startsWith(`${PACKAGE_NAME}.`)) {
			node.credentials = { [CREDENTIAL_TYPE]: { id: opts.credential.id, name: opts.credential.name } };
		}
		if (node.webhookId && opts.webhookIdSuffix) node.webhookId = `${node.webhookId}-${opts.webhookIdSuffix}`;
		if (node.webhookId && opts.webhookIdSuffix && typeof node.parameters?.path === 'string') {
			node.parameters.path = `${node.parameters.path}-${opts.webhookIdSuffix}`;
		}
		if ((node.type === EMAIL_SEND_TYPE || node.type === EMAIL_REVIEW_TYPE) && opts.smtpCredential) {
			node.credentials = { [SMTP_CREDENTIAL_TYPE]: { id: opts.smtpCredential.id, name: opts.smtpCredential.name } };
		}
		if (node.type === EXECUTE_WORKFLOW_TYPE && opts.workflowIds) linkWorkflow(node, opts.workflowIds);
		if (node.name === 'Settings' && opts.settings) applySettings(node, opts.settings);
		if (node.type === OPENAI_CHAT_MODEL_TYPE && opts.chatModelCredential) {
			node.credentials = { [OPENAI_CREDENTIAL_TYPE]: { id: opts.chatModelCredential.id, name: opts.chatModelCredential.name } };
		}
		if (node.type === PAYMENT_PAGE_TYPE && opts.cardPublicKey) node.parameters = { ...node.parameters, cardPublicKey: opts.cardPublicKey };
		if (node.name === PAGE_HANDOFF_NODE && opts.pageNotifyUrl) node.parameters = { ...node.parameters, url: opts.pageNotifyUrl };
		if (node.name === CLAIM_NODE && opts.redisCredential) {
			delete node.disabled;
			node.credentials = { [REDIS_CREDENTIAL_TYPE]: { id: opts.redisCredential.id, name: opts.redisCredential.name } };
		}
		return node;
	});
	return {
		name: opts.name ?? example.name,
		nodes,
		connections: example.connections,
		settings: { ...(example.settings ?? { executionOrder: 'v1' }), ...(opts.errorWorkflow ? { errorWorkflow: opts.errorWorkflow } : {}) },
	};
}

/** The workflow an Execute Workflow node calls, by the name the file gives (see PrepareOptions.workflowIds). */
export function calledWorkflowName(node: ExampleNode): string | undefined {
	const ref = node.parameters?.workflowId as { cachedResultName?: unknown } | undefined;
	return typeof ref?.cachedResultName === 'string' ? ref.cachedResultName : undefined;
}

function linkWorkflow(node: ExampleNode, ids: Record<string, string>): void {
	const name = calledWorkflowName(node);
	const id = name === undefined ? undefined : ids[name];
	if (name === undefined || id === undefined) throw new Error(`example node "${node.name}" calls "${String(name)}", whose id was not given`);
	(node.parameters as Record<string, unknown>).workflowId = { __rl: true, mode: 'list', value: id, cachedResultName: name, cachedResultUrl: `/workflow/${id}` };
}

function applySettings(node: ExampleNode, values: Record<string, string | number | boolean>): void {
	const assignments = ((node.parameters?.assignments as { assignments?: Array<Record<string, unknown>> } | undefined)
		?.assignments ?? []) as Array<{ name: string; value: unknown; type?: string }>;
	for (const [name, value] of Object.entries(values)) {
		const entry = assignments.find((a) => a.name === name);
		if (!entry) throw new Error(`example "${node.name}" node has no setting "${name}"`);
		entry.value = value;
	}
}

/** Value of one assignment of the Settings node. */
export function settingOf(example: ExampleWorkflow, name: string): unknown {
	const node = example.nodes.find((n) => n.name === 'Settings');
	const assignments = ((node?.parameters?.assignments as { assignments?: Array<{ name: string; value: unknown }> })
		?.assignments ?? []);
	return assignments.find((a) => a.name === name)?.value;
}

/** Production webhook paths (`<webhookId>/webhook`) of the PayOnUs Trigger nodes of a workflow. */
export function payOnUsTriggerPaths(workflow: { nodes?: Array<Record<string, unknown>> }): string[] {
	return (workflow.nodes ?? [])
		.filter((node) => node.type === TRIGGER_TYPE && !node.disabled && typeof node.webhookId === 'string')
		.map((node) => `${String(node.webhookId)}/${TRIGGER_WEBHOOK_PATH}`);
}

/** Production webhook paths of the plain n8n Webhook nodes of a workflow (their `path` parameter). */
export function webhookNodePaths(workflow: { nodes?: Array<Record<string, unknown>> }): string[] {
	return (workflow.nodes ?? [])
		.filter((node) => node.type === 'n8n-nodes-base.webhook' && !node.disabled)
		.map((node) => String((node.parameters as Record<string, unknown> | undefined)?.path ?? ''))
		.filter(Boolean);
}

export type EventExampleKey = 'receiver' | (typeof CONSUMERS)[number];

export interface EventExamplesOptions {
	credential: { id: string; name: string };
	smtpCredential?: { id: string; name: string };
	/** Settings node values per example (e.g. exampleSettings(key, filesDir) of provision.ts). */
	settings?: Partial<Record<EventExampleKey, Record<string, string | number | boolean>>>;
	/** Appended to every workflow name and webhook id (several copies in one n8n). */
	suffix?: string;
	/** The receiver's forward of checkout payins: the page's `<production URL>/notify`. */
	pageNotifyUrl?: string;
	/** Queue mode: the claim steps enabled with this Redis credential. */
	redisCredential?: { id: string; name: string };
	/** Every workflow's error workflow. */
	errorWorkflow?: string;
}

/**
 * The production topology of the examples in an n8n: the three consumers
 * imported and published, then the receiver linked to them and activated.
 * Point the service (the sandbox) at `receiverPath` (n8n.webhookUrl(path)).
 */
export async function importEventExamples(
	api: Pick<N8nClient, 'createWorkflow' | 'activate'>,
	opts: EventExamplesOptions,
): Promise<{ ids: Record<EventExampleKey, string>; workflows: Record<EventExampleKey, ExampleWorkflow>; receiverPath: string }> {
	const ids = {} as Record<EventExampleKey, string>;
	const workflows = {} as Record<EventExampleKey, ExampleWorkflow>;
	const byName: Record<string, string> = {};
	for (const key of [...CONSUMERS, 'receiver'] as EventExampleKey[]) {
		const example = loadExample(key);
		const workflow = prepareExample(example, {
			credential: opts.credential,
			smtpCredential: opts.smtpCredential,
			settings: opts.settings?.[key],
			workflowIds: key === 'receiver' ? byName : undefined,
			pageNotifyUrl: key === 'receiver' ? opts.pageNotifyUrl : undefined,
			redisCredential: opts.redisCredential,
			errorWorkflow: opts.errorWorkflow,
			name: opts.suffix ? `${example.name} (${opts.suffix})` : undefined,
			webhookIdSuffix: opts.suffix?.replace(/[^A-Za-z0-9-]/g, '-'),
		});
		const { id } = await api.createWorkflow(workflow as never);
		await api.activate(id);
		ids[key] = id;
		workflows[key] = workflow;
		byName[example.name] = id;
	}
	const [receiverPath] = payOnUsTriggerPaths(workflows.receiver as never);
	return { ids, workflows, receiverPath };
}
