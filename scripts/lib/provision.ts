/**
 * Idempotent set-up of the demo n8n: one PayOnUs API credential pointing at
 * the sandbox, one SMTP credential pointing at the mail catcher, and the
 * example workflows, imported and active: the consumers first (a
 * sub-workflow runs only once published), then the receiver, whose Execute
 * Workflow nodes are linked to them. Everything is looked up by name first,
 * so a second run reuses what the first made.
 */
import { sandboxCredentialData } from '../../dev/sandboxCredential';
import type { ExampleKey, ExampleWorkflow } from './examples';
import {
	loadExample,
	CREDENTIAL_TYPE,
	OPENAI_CREDENTIAL_TYPE,
	PAYMENT_PAGE_TYPE,
	SMTP_CREDENTIAL_TYPE,
	loadAllExamples,
	payOnUsTriggerPaths,
	prepareExample,
	webhookNodePaths,
} from './examples';
import type { N8nClient } from '../../dev/n8n/client';

export const CREDENTIAL_NAME = 'PayOnUs sandbox (npm start)';
export const SMTP_CREDENTIAL_NAME = 'Mail catcher (npm start)';
/** What the payments agent answers until a model is chosen (its model node's credential points at a stand-in). */
export const NO_MODEL_ANSWER =
	'No chat model is chosen yet: open "Chat model (choose yours)" in this workflow and pick your credential (or put any chat model node in its place). Nothing was paid.';

export const CHAT_MODEL_CREDENTIAL_NAME = 'No model chosen yet (npm start stand-in)';

export interface ProvisionOptions {
	sandboxUrl: string;
	verificationKey: string;
	/** Folder the workflows write their files into (allowed by N8N_RESTRICT_FILE_ACCESS_TO). */
	filesDir: string;
	/** Replace existing example workflows with the files in examples/ (default: keep them). */
	refresh?: boolean;
	/** What the demo provides: its ledger Data table and a local chat webhook (nightly reconciliation). */
	demo?: DemoSettings;
	/** n8n's SMTP credential data for the Send Email nodes (the mail catcher's; dev/mailCatcher.ts). */
	smtp: Record<string, unknown>;
	/** The sandbox's card encryption key: the Payment Page nodes' Card Encryption Public Key. */
	cardPublicKey?: string;
	/** n8n's production URL of a webhook path: the receiver forwards checkout payins to the example page's `<path>/notify`. */
	webhookUrl?: (path: string) => string;
	/**
	 * Base URL of a chat model stand-in for the payments agent's model node
	 * (n8n publishes no workflow whose model has no credential; the model is
	 * the user's to choose): an OpenAI credential pointing at it is made and
	 * attached, until the user picks theirs.
	 */
	chatModelStandInUrl?: string;
	log?: (line: string) => void;
}

export interface DemoSettings {
	ledgerTableId?: string;
	chatUrl?: string;
}

export interface ProvisionedWorkflow {
	key: ExampleKey;
	id: string;
	name: string;
	created: boolean;
	/** Production webhook paths of its PayOnUs Trigger nodes. */
	triggerPaths: string[];
	/** Production webhook paths of its plain Webhook nodes. */
	webhookPaths: string[];
}

export interface Provisioned {
	credential: { id: string; name: string; created: boolean };
	smtpCredential: { id: string; name: string; created: boolean };
	workflows: ProvisionedWorkflow[];
}

/** Credential data for the sandbox: API client 1, defaults MER-1001 / BUS-2001. */
export function credentialData(sandboxUrl: string, verificationKey: string): Record<string, unknown> {
	return sandboxCredentialData(sandboxUrl, {
		webhookVerificationKey: verificationKey,
		// 'none' on purpose: this credential cannot be borrowed by an HTTP
		// Request node, whose legacy helper resends on any error.
		allowedHttpRequestDomains: 'none',
	});
}

/** The example page's notification path (`<its path>/notify`, request/notify.ts of the Payment Page). */
export function pageNotifyPath(): string {
	const page = loadExample('sellWithLink').nodes.find((n) => n.type === PAYMENT_PAGE_TYPE);
	return `${String(page?.parameters?.path)}/notify`;
}

/** Values of the examples' Settings nodes that depend on this machine. */
export function exampleSettings(key: ExampleKey, filesDir: string, demo: DemoSettings = {}): Record<string, string> | undefined {
	switch (key) {
		case 'nightlyReconciliation': {
			const settings: Record<string, string> = {};
			if (demo.ledgerTableId) settings.ledgerTableId = demo.ledgerTableId;
			if (demo.chatUrl) settings.chatWebhookUrl = demo.chatUrl;
			return Object.keys(settings).length > 0 ? settings : undefined;
		}
		case 'autoPayout':
			return { outcomeFile: `${filesDir}/auto-payouts.log` };
		case 'reconciliation':
			return { outputFolder: filesDir };
		case 'sellWithLink':
			return { salesFile: `${filesDir}/sales.log` };
		default:
			return undefined;
	}
}

export async function provision(api: N8nClient, opts: ProvisionOptions): Promise<Provisioned> {
	const log = opts.log ?? (() => undefined);
	const data = credentialData(opts.sandboxUrl, opts.verificationKey);

	// the credentials: reused by name (their data refreshed: the sandbox and mail addresses may differ)
	const credential = await upsertCredential(api, CREDENTIAL_NAME, CREDENTIAL_TYPE, data, log);
	const smtpCredential = await upsertCredential(api, SMTP_CREDENTIAL_NAME, SMTP_CREDENTIAL_TYPE, opts.smtp, log);
	const chatModelCredential = opts.chatModelStandInUrl
		? await upsertCredential(api, CHAT_MODEL_CREDENTIAL_NAME, OPENAI_CREDENTIAL_TYPE, { apiKey: 'sk-no-model-chosen', header: false, url: opts.chatModelStandInUrl }, log)
		: undefined;

	const knownCredentialIds = new Set(
		(await api.listCredentials()).filter((c) => c.type === CREDENTIAL_TYPE).map((c) => String(c.id)),
	);
	const workflows: ProvisionedWorkflow[] = [];
	// ids by workflow name, for the receiver's Execute Workflow nodes: the receiver comes last
	const workflowIds: Record<string, string> = {};
	const inOrder = loadAllExamples().sort((a, b) => Number(a.key === 'receiver') - Number(b.key === 'receiver'));
	for (const { key, workflow } of inOrder) {
		const nodeSettings = exampleSettings(key, opts.filesDir, opts.demo);
		const prepared = prepareExample(workflow, {
			credential,
			smtpCredential,
			settings: nodeSettings,
			workflowIds: key === 'receiver' ? workflowIds : undefined,
			cardPublicKey: opts.cardPublicKey,
			pageNotifyUrl: key === 'receiver' && opts.webhookUrl ? opts.webhookUrl(pageNotifyPath()) : undefined,
			chatModelCredential,
		});
		const found = await api.findWorkflowsByName(prepared.name);
		let id: string;
		let created = false;
		let stored: ExampleWorkflow | { nodes?: Array<Record<string, unknown>> } = prepared;
		if (found.length === 0) {
			id = String((await api.createWorkflow(prepared as never)).id);
			created = true;
			log(`workflow "${prepared.name}" imported (${id})`);
		} else {
			id = String(found[0].id);
			if (opts.refresh) {
				await api.updateWorkflow(id, prepared);
				// published again below, so the running version is the file's too (n8n 2.x keeps a published version)
				if ((await api.getWorkflow(id)).active) await api.deactivate(id, { wait: false });
				log(`workflow "${prepared.name}" replaced from examples/ (${id})`);
			} else {
				stored = await api.getWorkflow(id);
				log(`workflow "${prepared.name}" reused (${id})`);
				if (await relinkCredential(api, stored as StoredWorkflow, credential, knownCredentialIds)) {
					log(`workflow "${prepared.name}": PayOnUs nodes linked to the credential again (it had been deleted)`);
					stored = await api.getWorkflow(id);
				}
				if (opts.cardPublicKey && (await refreshCardKey(api, stored as StoredWorkflow, opts.cardPublicKey))) {
					await api.deactivate(id, { wait: false }); // published again below, with the key
					log(`workflow "${prepared.name}": Payment Page card key set to this run's sandbox key`);
					stored = await api.getWorkflow(id);
				}
				if (key === 'nightlyReconciliation' && nodeSettings && (await refreshDemoSettings(api, stored as StoredWorkflow, nodeSettings))) {
					// published again, so its schedule runs the new values too (n8n 2.x keeps a published version)
					await api.deactivate(id, { wait: false });
					log(`workflow "${prepared.name}": Settings point to this run's demo ledger and chat again`);
				}
			}
		}
		if ((created || opts.refresh) && workflow.pinData) await pinSample(api, id, workflow.pinData, log);
		workflowIds[prepared.name] = id;
		const current = await api.getWorkflow(id);
		if (!current.active) {
			await api.activate(id, { wait: false });
			log(`workflow "${prepared.name}" activated`);
		}
		workflows.push({
			key,
			id,
			name: prepared.name,
			created,
			triggerPaths: payOnUsTriggerPaths(stored as { nodes?: Array<Record<string, unknown>> }),
			webhookPaths: webhookNodePaths(stored as { nodes?: Array<Record<string, unknown>> }),
		});
	}
	// in the order of EXAMPLES (the docs' order)
	const order = loadAllExamples().map((e) => e.key);
	workflows.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
	return { credential, smtpCredential, workflows };
}

/**
 * The file's pinned sample item (the consumers' "When Executed by Another
 * Workflow"), which n8n's public API does not take: set through the editor's
 * API, as importing the file in the editor does. Used only when a person
 * runs the workflow in the editor; a call from the receiver brings the real
 * event. Best effort: the demo works without it.
 */
async function pinSample(api: N8nClient, id: string, pinData: unknown, log: (line: string) => void): Promise<void> {
	try {
		await api.rest('PATCH', `/workflows/${id}`, { pinData });
	} catch (error) {
		log(`workflow ${id}: sample item not pinned (${(error as Error).message})`);
	}
}

async function upsertCredential(
	api: N8nClient,
	name: string,
	type: string,
	data: Record<string, unknown>,
	log: (line: string) => void,
): Promise<{ id: string; name: string; created: boolean }> {
	const existing = await api.findCredentialsByName(name, type);
	if (existing.length > 0) {
		await api.updateCredential(existing[0].id, { name, type, data });
		log(`credential "${name}" reused (${existing[0].id})`);
		return { id: existing[0].id, name, created: false };
	}
	const created = await api.createCredential({ name, type, data });
	log(`credential "${name}" created (${String(created.id)})`);
	return { id: String(created.id), name, created: true };
}

interface StoredWorkflow {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

/** Settings keys n8n's public API accepts back on PUT. */
const SETTINGS_KEYS = [
	'saveExecutionProgress',
	'saveManualExecutions',
	'saveDataErrorExecution',
	'saveDataSuccessExecution',
	'executionTimeout',
	'errorWorkflow',
	'timezone',
	'executionOrder',
	'callerPolicy',
];

/** Writes a stored workflow's (edited) nodes back, with the settings the public API accepts. */
async function saveNodes(api: N8nClient, stored: StoredWorkflow): Promise<void> {
	const settings = Object.fromEntries(Object.entries(stored.settings ?? {}).filter(([k]) => SETTINGS_KEYS.includes(k)));
	await api.updateWorkflow(stored.id, { name: stored.name, nodes: stored.nodes, connections: stored.connections, settings });
}

/**
 * The sandbox makes a new card key pair per run, and decrypts only with its
 * own: a reused workflow's Payment Page nodes get this run's public key.
 */
async function refreshCardKey(api: N8nClient, stored: StoredWorkflow, cardPublicKey: string): Promise<boolean> {
	const pages = stored.nodes.filter((n) => n.type === PAYMENT_PAGE_TYPE);
	const stale = pages.filter((n) => (n.parameters as Record<string, unknown> | undefined)?.cardPublicKey !== cardPublicKey);
	if (stale.length === 0) return false;
	for (const node of stale) node.parameters = { ...(node.parameters as Record<string, unknown> | undefined), cardPublicKey };
	await saveNodes(api, stored);
	return true;
}

/**
 * A reused workflow keeps the user's edits; only Settings values the demo
 * itself wrote (or the file's placeholders) follow this run's demo ledger and
 * chat relay (whose port changes from run to run).
 */
const DEMO_OWNED_VALUE = /^(REPLACE-|https:\/\/chat\.example\.invalid\/|http:\/\/127\.0\.0\.1:\d+\/chat$)/;

async function refreshDemoSettings(api: N8nClient, stored: StoredWorkflow, values: Record<string, string>): Promise<boolean> {
	const node = stored.nodes.find((n) => n.name === 'Settings') as { parameters?: { assignments?: { assignments?: Array<{ name: string; value: unknown }> } } } | undefined;
	let changed = false;
	for (const entry of node?.parameters?.assignments?.assignments ?? []) {
		const value = values[entry.name];
		if (value === undefined || entry.value === value) continue;
		if (entry.name === 'ledgerTableId' ? !/^REPLACE-/.test(String(entry.value)) : !DEMO_OWNED_VALUE.test(String(entry.value))) continue;
		entry.value = value;
		changed = true;
	}
	if (changed) await saveNodes(api, stored);
	return changed;
}

/**
 * A reused workflow whose PayOnUs nodes point at a credential that no longer
 * exists (the user deleted it; this run made a new one) is linked to the new
 * one. Nodes linked to another existing credential are the user's choice and
 * are left alone. Returns whether the workflow was changed.
 */
async function relinkCredential(
	api: N8nClient,
	stored: StoredWorkflow,
	credential: { id: string; name: string },
	known: Set<string>,
): Promise<boolean> {
	let changed = false;
	for (const node of stored.nodes) {
		if (typeof node.type !== 'string' || !node.type.startsWith('n8n-nodes-payonus.')) continue;
		const linked = (node.credentials as Record<string, { id?: string }> | undefined)?.[CREDENTIAL_TYPE]?.id;
		if (linked !== undefined && known.has(String(linked))) continue;
		node.credentials = { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
		changed = true;
	}
	if (changed) await saveNodes(api, stored);
	return changed;
}
