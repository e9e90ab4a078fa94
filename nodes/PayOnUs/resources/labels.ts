import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';
import { humanize } from '../../shared/validation';
import type { PayOnUsOperation } from './types';

/**
 * The label a user sees for an internal parameter path of an operation:
 * "beneficiaryAccountName" -> "Beneficiary Account Name", "filters.toDate"
 * -> "To Date" (a field inside a collection by its own label), so error
 * messages name fields as the node shows them. A path the properties do not
 * know is humanized.
 */
export function fieldLabel(op: Pick<PayOnUsOperation, 'properties'>, path: string): string {
	const parts = path.split('.');
	let level: Array<INodeProperties | INodePropertyCollection> = op.properties;
	let label: string | undefined;
	for (const part of parts) {
		if (/^\d+$/.test(part)) continue;
		const found = level.find((p) => p.name === part);
		if (!found) {
			label = undefined;
			break;
		}
		label = found.displayName;
		const options = (found as INodeProperties).options ?? (found as INodePropertyCollection).values;
		level = Array.isArray(options) ? (options as Array<INodeProperties | INodePropertyCollection>).filter((o) => 'displayName' in o) : [];
	}
	// n8n names a dropdown field "<Thing> Name or ID": a message says "<Thing>".
	return (label ?? humanize(parts[parts.length - 1] ?? path)).replace(/ Name or ID$/, '');
}

/** A labeller for describeIssues. */
export function labeller(op: Pick<PayOnUsOperation, 'properties'>): (path: string) => string {
	return (path) => fieldLabel(op, path);
}
