import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * Money-Moving Concurrency: items of a state-changing operation in flight at
 * once. Each item keeps its reference and its lookup before any resend
 * (shared/moneyMoving/send.ts); results are stored by index (input order); the run's
 * calls back off together (the limiter's hold: ./index.ts). docs/performance.md#performance-over-a-real-network.
 */

// Independent items run together by default (items sharing a reference or a
// card token still one after the other: orderKeys below); the calls in flight
// start lower and grow while the service answers fine
// (../../shared/transport/limiter.ts).
export const MONEY_MOVING_CONCURRENCY_DEFAULT = 32;
export const MONEY_MOVING_CONCURRENCY_MAX = 64;

/** Read-only operations: calls in flight at most (the ceiling of the adaptation), default and maximum. */
export const READ_CEILING_DEFAULT = 128;
export const READ_CEILING_MAX = 512;

/** Options > Max Reads in Flight, for the read-only operations of a resource. */
export function readOptions(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: operations } },
		options: [
			{
				displayName: 'Max Requests in Flight',
				name: 'maxRequestsInFlight',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: READ_CEILING_MAX, numberPrecision: 0 },
				default: READ_CEILING_DEFAULT,
				description:
					'The most requests sent at once for these items (and the pages of Return All). The node halves it at once when PayOnUs answers "too many requests" (429) or "unavailable" (503), waits as long as it asks (Retry-After), and grows back while it answers fine. Lower it to spare a service shared with others.',
			},
		],
	};
}

/** The option's value for this run: a whole number from 1 to READ_CEILING_MAX (anything else: the default). */
export function readCeiling(value: unknown): number {
	const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	if (!Number.isFinite(n)) return READ_CEILING_DEFAULT;
	return Math.min(READ_CEILING_MAX, Math.max(1, Math.floor(n)));
}

/** The Options collection with Money-Moving Concurrency, shown for the given operations of a resource. */
export function concurrencyOptions(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: operations } },
		options: [
			{
				displayName: 'Money-Moving Concurrency',
				name: 'moneyMovingConcurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MONEY_MOVING_CONCURRENCY_MAX, numberPrecision: 0 },
				default: MONEY_MOVING_CONCURRENCY_DEFAULT,
				description: `How many items are sent at once (1 to ${MONEY_MOVING_CONCURRENCY_MAX}; 1 = one after the other). Items that share a reference or a card token are always sent one after the other, in input order. Each item keeps its own reference and is looked up by it before any resend; the output keeps the input order; the node starts with fewer requests at once and adds more while PayOnUs answers fine, and a "too many requests" or server error pauses every item of the run.`,
			},
		],
	};
}

/** The option's value for this run: a whole number from 1 to MONEY_MOVING_CONCURRENCY_MAX (anything else: the default). */
export function moneyMovingConcurrency(value: unknown): number {
	const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	if (!Number.isFinite(n)) return MONEY_MOVING_CONCURRENCY_DEFAULT;
	return Math.min(MONEY_MOVING_CONCURRENCY_MAX, Math.max(1, Math.floor(n)));
}

/**
 * What an item acts on that another item of the run may act on too: its
 * reference(s) and its card token. Items sharing a key are never in flight
 * together and run in input order (runBounded's `keys`, ./bounded.ts): the second
 * item of a reference then meets the first one's finished outcome (a
 * duplicate reference), never a transfer still being made.
 */
const KEY_FIELDS: Array<[string, string]> = [
	['reference', 'ref'],
	['merchantReference', 'ref'],
	['onusReference', 'onus'],
	['cardTokenId', 'card'],
	['cardToken', 'card'],
	['tokenId', 'card'],
];

export function orderKeys(data: IDataObject | undefined): string[] {
	if (!data) return [];
	const keys: string[] = [];
	for (const [field, kind] of KEY_FIELDS) {
		const v = data[field];
		if ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') keys.push(`${kind}:${String(v).trim().toLowerCase()}`);
	}
	return keys;
}

/** The identity of a record a money-moving item reports as its own (undefined: none to compare). */
export function recordIdentity(json: IDataObject): string | undefined {
	if ('error' in json || json.duplicateReference === true) return undefined;
	for (const k of ['onusReference', 'transactionReference', 'id']) {
		const v = json[k];
		if (typeof v === 'string' && v !== '') return `${k}:${v}`;
	}
	return undefined;
}
