/**
 * The example workflows (examples/*.json): loading them, and preparing one for
 * a given n8n (credential attached, "Settings" node values filled in).
 * Used by `npm start` and by the end-to-end tests, so both import exactly the
 * files a user would import.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_NAME, packageRoot } from '../../dev/n8n';

export { PACKAGE_NAME };
export const CREDENTIAL_TYPE = 'payOnUsApi';
export const TRIGGER_TYPE = `${PACKAGE_NAME}.payOnUsTrigger`;
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

/** The example files, in the order the README and docs/quick-start.md present them. */
export const EXAMPLES = {
	autoPayout: 'auto-payout-on-collection.json',
	notifications: 'payment-notifications.json',
	cardOnFile: 'card-on-file.json',
	reconciliation: 'daily-reconciliation.json',
	nightlyReconciliation: 'nightly-reconciliation.json',
	sellWithLink: 'sell-with-a-link.json',
} as const;
export type ExampleKey = keyof typeof EXAMPLES;

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
	/** Values for the assignments of the node named "Settings" (by assignment name). */
	settings?: Record<string, string | number | boolean>;
	/** Rename the workflow (tests keep their copies apart). */
	name?: string;
	/** Replace every webhookId (tests import one example several times). */
	webhookIdSuffix?: string;
}

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
		if (node.name === 'Settings' && opts.settings) applySettings(node, opts.settings);
		return node;
	});
	return {
		name: opts.name ?? example.name,
		nodes,
		connections: example.connections,
		settings: example.settings ?? { executionOrder: 'v1' },
	};
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
