import type { NodeOperation, PayOnUsOperation } from './types';
import * as payin from './payin';
import * as wallet from './wallet';
import * as payout from './payout';
import * as cardTokenization from './cardTokenization';
import * as reconciliation from './reconciliation';

/**
 * The registry: the resources, each declared once here, with the operations
 * its folder's index.ts exports. It imports nothing from the runner (../run)
 * or the safeguards: ../properties.ts builds the node's properties from it.
 *
 * To add an operation: write resources/<resource>/<operation>.ts exporting a
 * `PayOnUsOperation` (description, schema, handler and traits) and add one
 * line to resources/<resource>/index.ts. Nothing else changes: the resource
 * and operation dropdowns, the displayOptions of the operation's fields, Dry
 * Run and Options by its traits (../properties.ts), and the dispatch all
 * come from here.
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

/** Resources that have at least one operation (the others stay hidden), by name. */
export function activeResources(): ResourceDefinition[] {
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
