import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { movesMoney, type NodeOperation, type PayOnUsOperation } from './types';
import * as payin from './payin';
import * as wallet from './wallet';
import * as payout from './payout';
import * as cardTokenization from './cardTokenization';
import * as reconciliation from './reconciliation';
import { concurrencyOptions, readOptions } from '../run/concurrency';
import { dryRunProperty } from '../safeguards/dryRun';
import { toolLimitProperties } from '../safeguards/toolLimits';
import { outputProperties } from './output';

/**
 * The resources, each declared once here, with the operations its folder's
 * index.ts exports; builds the node's properties from them.
 *
 * To add an operation: write resources/<resource>/<operation>.ts exporting a
 * `PayOnUsOperation` (description, schema, handler and traits) and add one
 * line to resources/<resource>/index.ts. Nothing else changes: the resource
 * and operation dropdowns, the displayOptions of the operation's fields, Dry
 * Run and Options by its traits, and the dispatch all come from here.
 */

export interface ResourceDefinition {
	value: string;
	name: string;
	description: string;
	operations: NodeOperation[];
}

/** A resource with the operations its folder exports, each told its resource. */
function resource(value: string, name: string, description: string, operations: Record<string, PayOnUsOperation>): ResourceDefinition {
	return { value, name, description, operations: Object.values(operations).map((op) => ({ ...op, resource: value })) };
}

export const resources: ResourceDefinition[] = [
	resource('payin', 'Payin', 'Collect money: virtual accounts, cards, mobile money, EFT', payin),
	resource('payout', 'Payout', 'Pay money out of a wallet to a bank, mobile money or EFT account', payout),
	resource('cardTokenization', 'Card Tokenization', 'Store cards through a consent link and manage card tokens', cardTokenization),
	resource('reconciliation', 'Reconciliation', "Compare your records with the service's payins or payouts", reconciliation),
	resource('wallet', 'Wallet', 'Wallet balances of the merchant', wallet),
];

/** Resources that have at least one operation (the others stay hidden). */
function activeResources(): ResourceDefinition[] {
	return resources.filter((r) => r.operations.length > 0).sort((a, b) => a.name.localeCompare(b.name));
}

/** Finds the operation for a resource/operation pair, or undefined. */
export function findOperation(resource: string, operation: string): NodeOperation | undefined {
	return resources.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}

/** The top-level parameter names an operation reads (each read once). */
export function parameterNames(op: PayOnUsOperation): string[] {
	return [...new Set(op.properties.map((p) => p.name))];
}

/**
 * The node's subtitle on the canvas: "<Resource>: <Operation>" in the words
 * of the dropdowns (e.g. "Payout: Create Transfer"), not the internal values;
 * the raw operation value for an unknown pair.
 */
export function buildSubtitle(): string {
	const labels: Record<string, string> = {};
	for (const r of activeResources()) {
		for (const o of r.operations) labels[`${r.value}:${o.value}`] = `${r.name}: ${o.name}`;
	}
	return `={{ (${JSON.stringify(labels)})[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}

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
			// Every money-moving operation gets the Dry Run option (../safeguards).
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
	// Simplify / the tool's Output choice, from version 3, where the record has more than 10 fields (./output.ts).
	for (const r of active) {
		properties.push(...outputProperties(r.value, r.operations.filter((o) => o.outputRecord).map((o) => o.value)));
	}
	// Shown only on the AI-tool version of the node (../safeguards/toolLimits.ts).
	properties.push(...toolLimitProperties());
	// Options > Money-Moving Concurrency, for every operation that is not read only (../run/concurrency.ts).
	for (const r of resources) {
		const ops = r.operations.filter((o) => o.effect !== 'read').map((o) => o.value);
		if (ops.length > 0) properties.push(...concurrencyOptions(r.value, ops));
		// Options > Max Requests in Flight, for the read-only operations.
		const reads = r.operations.filter((o) => o.effect === 'read').map((o) => o.value);
		if (reads.length > 0) properties.push(readOptions(r.value, reads));
	}
	return properties;
}
