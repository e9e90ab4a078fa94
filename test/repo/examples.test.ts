/**
 * The example workflows' shape (issue 30), read from the files a user
 * imports: one PayOnUs Trigger (the service has one Webhook URL per
 * environment), consumers the receiver can hand every event to, every
 * output of a node with several outputs wired, version 1 of the PayOnUs nodes.
 * What they do is checked in a real n8n (test/e2e/examples*.test.ts).
 */
import {
	CONSUMERS,
	EMAIL_SEND_TYPE,
	EXAMPLES,
	EXECUTE_WORKFLOW_TRIGGER_TYPE,
	EXECUTE_WORKFLOW_TYPE,
	PAGE_HANDOFF_NODE,
	TRIGGER_TYPE,
	calledWorkflowName,
	loadExample,
	type ExampleKey,
	type ExampleNode,
	type ExampleWorkflow,
} from '../../scripts/lib/examples';

const KEYS = Object.keys(EXAMPLES) as ExampleKey[];
const all = KEYS.map((key) => ({ key, workflow: loadExample(key) }));

type Connections = Record<string, { main?: Array<Array<{ node: string }> | null> }>;

function outputs(workflow: ExampleWorkflow, node: string): Array<Array<{ node: string }>> {
	return ((workflow.connections as Connections)[node]?.main ?? []).map((o) => o ?? []);
}

/** How many outputs a node has, where that is more than one (else undefined). */
function outputCount(node: ExampleNode): number | undefined {
	const errorOutput = node.onError === 'continueErrorOutput' ? 1 : 0;
	if (node.type === TRIGGER_TYPE) return 2; // Confirmed, Unconfirmed
	if (node.type === 'n8n-nodes-base.if') return 2;
	if (node.type === 'n8n-nodes-base.switch') {
		const rules = (node.parameters?.rules as { values?: unknown[] } | undefined)?.values ?? [];
		return rules.length;
	}
	return errorOutput === 1 ? 2 : undefined;
}

describe('example workflows (the files a user imports)', () => {
	it('have exactly one PayOnUs Trigger, in the receiver: one Webhook URL per environment', () => {
		const withTrigger = all.filter(({ workflow }) => workflow.nodes.some((n) => n.type === TRIGGER_TYPE));
		expect(withTrigger.map((e) => e.key)).toEqual(['receiver']);
		expect(loadExample('receiver').nodes.filter((n) => n.type === TRIGGER_TYPE)).toHaveLength(1);
	});

	it('the receiver hands events to each consumer by name, waits for it, and routes its failure on', () => {
		const receiver = loadExample('receiver');
		const calls = receiver.nodes.filter((n) => n.type === EXECUTE_WORKFLOW_TYPE);
		expect(calls.map((n) => calledWorkflowName(n)).sort()).toEqual(CONSUMERS.map((c) => loadExample(c).name).sort());
		for (const call of calls) {
			// the id is left for the builder to pick (n8n flags the node until then)
			expect(call.parameters?.workflowId).toMatchObject({ __rl: true, mode: 'list', value: '' });
			expect(call.parameters?.options).toEqual({ waitForSubWorkflow: true });
			expect(call.onError).toBe('continueErrorOutput');
		}
	});

	it("the receiver forwards a page's checkout before its consumers run: the hand-off is Route by event's topmost branch (n8n runs branches top to bottom)", () => {
		const receiver = loadExample('receiver');
		expect(receiver.settings?.executionOrder).toBe('v1');
		const heads = outputs(receiver, 'Route by event').flat().map((c) => receiver.nodes.find((n) => n.name === c.node) as ExampleNode);
		const y = (n: ExampleNode) => (n.position as [number, number])[1];
		const top = Math.min(...heads.map(y));
		expect(heads.filter((n) => y(n) === top).map((n) => n.name)).toEqual([PAGE_HANDOFF_NODE]);
	});

	it('each consumer starts with "When Executed by Another Workflow" accepting all data, with a pinned sample item', () => {
		for (const key of CONSUMERS) {
			const workflow = loadExample(key);
			const starts = workflow.nodes.filter((n) => n.type === EXECUTE_WORKFLOW_TRIGGER_TYPE);
			expect(starts).toHaveLength(1);
			expect(starts[0].parameters).toEqual({ inputSource: 'passthrough' });
			const pinned = (workflow.pinData as Record<string, Array<{ json: Record<string, unknown> }>> | undefined)?.[starts[0].name];
			expect(pinned).toHaveLength(1);
			expect(pinned![0].json.event).toEqual(expect.any(String));
			expect(pinned![0].json.businessId).toBe('BUS-2001');
		}
	});

	it('leave no output of a node with several outputs unwired (the Unconfirmed output included)', () => {
		const unwired: string[] = [];
		for (const { workflow } of all) {
			for (const node of workflow.nodes) {
				const count = outputCount(node);
				if (count === undefined) continue;
				const wired = outputs(workflow, node.name);
				for (let i = 0; i < count; i++) if ((wired[i] ?? []).length === 0) unwired.push(`${workflow.name} / ${node.name}: output ${i + 1}`);
			}
		}
		expect(unwired).toEqual([]);
	});

	it('use version 1 of the PayOnUs nodes (each has that one version)', () => {
		for (const { workflow } of all) {
			for (const node of workflow.nodes.filter((n) => n.type.startsWith('n8n-nodes-payonus.'))) {
				expect(`${workflow.name} / ${node.name}: ${String(node.typeVersion)}`).toBe(`${workflow.name} / ${node.name}: 1`);
			}
		}
	});

	it('send the notifications and the alerts through n8n\'s own Send Email node', () => {
		expect(loadExample('notifications').nodes.some((n) => n.type === EMAIL_SEND_TYPE)).toBe(true);
		expect(loadExample('receiver').nodes.some((n) => n.type === EMAIL_SEND_TYPE)).toBe(true);
	});
});
