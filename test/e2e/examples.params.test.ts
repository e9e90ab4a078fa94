/**
 * The example workflows (examples/*.json) against the node types the real
 * n8n loaded: every PayOnUs parameter they set is one the node declares for
 * its resource and operation (moved here from examples.test.ts; the
 * nightly reconciliation example joined the list, then the payments agent,
 * whose PayOnUs nodes are tools: n8n's payOnUsTool type).
 */
import { sharedN8n, type N8nClient } from '../harness/e2e';
import { loadExample, type ExampleKey } from '../../scripts/lib/examples';

let n8n: N8nClient;

beforeAll(() => {
	n8n = sharedN8n();
});

describe('example workflows match the nodes n8n loaded', () => {
	interface Property {
		name: string;
		type: string;
		options?: Array<{ name: string; value?: unknown }>;
		displayOptions?: { show?: Record<string, unknown[]> };
	}
	it('every PayOnUs parameter in the examples is one the node declares for its resource and operation', async () => {
		const types = (await n8n.loadedNodeTypes()) as Array<{ name: string; properties?: Property[] }>;
		const problems: string[] = [];
		for (const key of ['autoPayout', 'notifications', 'cardOnFile', 'reconciliation', 'nightlyReconciliation', 'paymentsAgent'] as ExampleKey[]) {
			const example = loadExample(key);
			for (const node of example.nodes.filter((n) => n.type.startsWith('n8n-nodes-payonus.'))) {
				const type = types.find((t) => t.name === node.type);
				if (!type?.properties) {
					problems.push(`${example.name} / ${node.name}: node type ${node.type} not loaded`);
					continue;
				}
				const params = (node.parameters ?? {}) as Record<string, unknown>;
				const visible = (p: Property) =>
					Object.entries(p.displayOptions?.show ?? {}).every(([dep, values]) =>
						dep === 'resource' || dep === 'operation'
							? (values as unknown[]).includes(params[dep])
							: true,
					);
				for (const [name, value] of Object.entries(params)) {
					const candidates = type.properties.filter((p) => p.name === name && visible(p));
					if (candidates.length === 0) {
						problems.push(`${example.name} / ${node.name}: "${name}" is not a parameter of ${String(params.resource)} > ${String(params.operation)}`);
						continue;
					}
					const property = candidates[0];
					if ((property.type === 'options' && (name === 'resource' || name === 'operation')) && !property.options?.some((o) => o.value === value)) {
						problems.push(`${example.name} / ${node.name}: ${name} "${String(value)}" does not exist`);
					}
					if (property.type === 'collection' && value && typeof value === 'object') {
						for (const inner of Object.keys(value)) {
							if (!property.options?.some((o) => o.name === inner)) {
								problems.push(`${example.name} / ${node.name}: "${name}.${inner}" is not an option of "${name}"`);
							}
						}
					}
				}
			}
		}
		expect(problems).toEqual([]);
	});
});
