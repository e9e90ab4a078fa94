import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { activeResources, resources } from './resources';
import { outputProperties } from './resources/output';
import { movesMoney } from './resources/types';
import { concurrencyOptions, readOptions } from './run/concurrency';
import { dryRunProperty } from './safeguards/dryRun';
import { toolLimitProperties } from './safeguards/toolLimits';

/**
 * The node's properties, built from the registry of operations (./resources)
 * and what the node adds to them by their traits: Dry Run (./safeguards),
 * the AI-tool limits, and the Options of the runner (./run/concurrency.ts).
 * Here, beside the assembly, so the registry imports nothing from the runner
 * or the safeguards.
 */

/**
 * Every property of the node: the resource dropdown, one operation dropdown
 * per resource, then each operation's fields shown only for that
 * resource/operation (a field's own displayOptions are kept and merged),
 * Dry Run for money-moving ones, the AI-tool limits, and the Options
 * collection of the operations that are not read only.
 */
export function buildProperties(): INodeProperties[] {
	const active = activeResources();
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: active.map((r) => ({ name: r.name, value: r.value, description: r.description })),
			default: 'payin',
		},
	];
	for (const r of active) {
		// Listed alphabetically (n8n convention), whatever the order of the array.
		const sorted = [...r.operations].sort((a, b) => a.name.localeCompare(b.name));
		const options: INodePropertyOptions[] = sorted.map((o) => ({
			name: o.name,
			value: o.value,
			action: o.action,
			description: o.description,
		}));
		const firstOperation = sorted[0].value;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [r.value] } },
			options,
			default: firstOperation,
		});
	}
	for (const r of active) {
		for (const o of r.operations) {
			// Every money-moving operation gets the Dry Run option (./safeguards/dryRun.ts).
			const own = movesMoney(o) ? [...o.properties, dryRunProperty()] : o.properties;
			for (const p of own) {
				const own = p.displayOptions ?? {};
				properties.push({
					...p,
					default: p.default,
					displayOptions: {
						...own,
						show: { ...(own.show ?? {}), resource: [r.value], operation: [o.value] },
					},
				});
			}
		}
	}
	// Simplify / the tool's Output choice, where the record has more than 10 fields (./resources/output.ts).
	for (const r of active) {
		properties.push(...outputProperties(r.value, r.operations.filter((o) => o.outputRecord).map((o) => o.value)));
	}
	// Shown only on the AI-tool version of the node (./safeguards/toolLimits/).
	properties.push(...toolLimitProperties());
	// Options > Money-Moving Concurrency, for every operation that is not read only (./run/concurrency.ts).
	for (const r of resources) {
		const ops = r.operations.filter((o) => o.effect !== 'read').map((o) => o.value);
		if (ops.length > 0) properties.push(concurrencyOptions(r.value, ops));
		// Options > Max Requests in Flight, for the read-only operations.
		const reads = r.operations.filter((o) => o.effect === 'read').map((o) => o.value);
		if (reads.length > 0) properties.push(readOptions(r.value, reads));
	}
	return properties;
}
