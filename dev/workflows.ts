/**
 * The workflows the e2e tests, the benches and the scripts run, as public-API
 * JSON: Manual Trigger -> ... chains, the PayOnUs node after a Code node of
 * items, the PayOnUs Trigger and the PayOnUs Poll Trigger.
 */
import type { IDataObject } from 'n8n-workflow';
import type { WorkflowJson } from './n8n/types';
import { n8nVersionAtLeast, PACKAGE_NAME } from './n8n/version';

export const PAYONUS = `${PACKAGE_NAME}.payOnUs`;
/** The PayOnUs node's name in payOnUsWorkflow. */
export const NODE = 'PayOnUs';
export const TRIGGER_NAME = 'PayOnUs Trigger';
export const POLL_NAME = 'PayOnUs Poll Trigger';

/** A Code node named `Items` that outputs `items` (each `{ json, binary? }`) as they are. */
export function itemsNode(items: Array<{ json: IDataObject; binary?: IDataObject }>): IDataObject {
	return { name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: `return ${JSON.stringify(items)};` } };
}

/**
 * Manual Trigger (`Start`) -> each node of `chain` in turn, connected main
 * to main. Each node needs `name` and `type`; `id` and `position` are filled
 * in when missing.
 */
export function manualWorkflow(name: string, chain: IDataObject[], settings: IDataObject = {}): WorkflowJson {
	const nodes: IDataObject[] = [
		{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		...chain.map((node, i) => ({ id: `node-${i + 1}`, position: [200 * (i + 1), 0], parameters: {}, ...node })),
	];
	const connections: IDataObject = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[String(nodes[i].name)] = { main: [[{ node: String(nodes[i + 1].name), type: 'main', index: 0 }]] };
	}
	return { name, nodes, connections, settings: { executionOrder: 'v1', ...settings } };
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

/**
 * The PayOnUs Trigger (all four events, every status, tokenization confirmed, Simplify off: the full
 * items) on `webhookId`, with `parameters` over those.
 */
export function triggerWorkflow(name: string, webhookId: string, credentialId: string, parameters: IDataObject = {}): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: `node-${webhookId}`,
				name: TRIGGER_NAME,
				type: `${PACKAGE_NAME}.payOnUsTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {
					events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'],
					statuses: [],
					simplify: false,
					confirmTokenization: true,
					options: {},
					...parameters,
				},
				credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
	};
}

/**
 * n8n 2.8 polls as often as a cron says (it only refuses a `*` in the seconds
 * field); newer n8n refuses anything under a minute ("The polling interval is
 * too short"), so there the poll trigger runs once a minute, at a second
 * chosen to come soon after activation.
 */
export const SUB_MINUTE_POLLS = !n8nVersionAtLeast(2, 20);

/** Time between two polls of pollWorkflow(..., everySeconds) on the n8n under test. */
export function pollPeriodMs(everySeconds: number): number {
	return SUB_MINUTE_POLLS ? everySeconds * 1000 : 60_000;
}

function pollCron(everySeconds: number): string {
	if (!SUB_MINUTE_POLLS) return `${(new Date().getSeconds() + 15) % 60} * * * * *`;
	const seconds: number[] = [];
	for (let s = 0; s < 60; s += everySeconds) seconds.push(s);
	return `${seconds.join(',')} * * * * *`;
}

/** The PayOnUs Poll Trigger on payins and payouts (Simplify off: the full items), polling every `everySeconds` (see SUB_MINUTE_POLLS). */
export function pollWorkflow(name: string, credentialId: string, everySeconds: number, parameters: IDataObject = {}): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: `poll-${name.replace(/\W+/g, '-')}`,
				name: POLL_NAME,
				type: `${PACKAGE_NAME}.payOnUsPollTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'custom', cronExpression: pollCron(everySeconds) }] },
					watch: ['payins', 'payouts'],
					merchantId: '',
					simplify: false,
					options: {},
					...parameters,
				},
				credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs' } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
	};
}
