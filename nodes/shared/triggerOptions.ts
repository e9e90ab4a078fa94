import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The filter options the PayOnUs Trigger and the PayOnUs Poll Trigger share
 * ("Only Business IDs", "Only Statuses") and the reading of them. Parameter
 * names, defaults and placeholders are public (saved workflows hold them);
 * each node keeps its own description text and status list.
 */

/** Splits a comma-separated text option (or a multi-option list) into trimmed non-empty values. */
export function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter((v) => v.length > 0);
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((v) => v.trim())
		.filter((v) => v.length > 0);
}

/** Payment statuses as the service spells them, in the order the nodes list them. */
export const PAYMENT_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Failed', value: 'FAILED' },
	{ name: 'Pending', value: 'PENDING' },
	{ name: 'Processing', value: 'PROCESSING' },
	{ name: 'Successful', value: 'SUCCESSFUL' },
];

/** "Only Business IDs": a comma-separated list (option `businessIds`). */
export function onlyBusinessIdsOption(description: string): INodeProperties {
	return {
		displayName: 'Only Business IDs',
		name: 'businessIds',
		type: 'string',
		default: '',
		placeholder: 'BUS-2001, BUS-2002',
		description,
	};
}

/** "Only Statuses": a multi-option list (option `statuses`). */
export function onlyStatusesOption(description: string, options: INodePropertyOptions[]): INodeProperties {
	return {
		displayName: 'Only Statuses',
		name: 'statuses',
		type: 'multiOptions',
		default: [],
		description,
		options,
	};
}

export interface TriggerFilters {
	/** Upper-case statuses; empty: every status. */
	statuses: string[];
	/** Business IDs as entered; empty: every business. */
	businessIds: string[];
}

/** The two filters from a node's Options collection. */
export function readFilters(options: IDataObject): TriggerFilters {
	return {
		statuses: splitList(options.statuses).map((s) => s.toUpperCase()),
		businessIds: splitList(options.businessIds),
	};
}

/** Whether a status passes the status filter (both sides compared upper-case; no filter passes all). */
export function statusSelected(status: unknown, statuses: string[]): boolean {
	if (statuses.length === 0) return true;
	const wanted = String(status ?? '').toUpperCase();
	return statuses.some((s) => s.toUpperCase() === wanted);
}
