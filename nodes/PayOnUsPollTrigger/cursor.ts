import type { IDataObject } from 'n8n-workflow';

/**
 * The polling trigger's memory and decisions, free of n8n.
 *
 * The list endpoints filter on creation DATE (day-granular `fromDate`), so
 * every poll re-reads from (cursor day - overlap days) and drops what it has
 * already emitted. A record is identified by (onusReference, paymentStatus):
 * a new record, or a known record in a new status, is emitted once.
 *
 * State per stream (payins, payouts), kept in the node's static data:
 *  - cursor: the latest creation day seen (YYYY-MM-DD, the service's days);
 *  - seen:   key -> creation day, for every record created on or after the
 *            next read start (older entries can never be read again and are
 *            dropped, which is what bounds the set).
 */

export type Stream = 'payins' | 'payouts';

export interface StreamState {
	cursor?: string;
	seen: Record<string, string>;
}

export interface PollState {
	v: 1;
	payins?: StreamState;
	payouts?: StreamState;
}

/** Safety cap on remembered keys per stream; beyond it the oldest days go first. */
export const MAX_SEEN = 100_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isDay(value: unknown): value is string {
	return typeof value === 'string' && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

export function addDays(day: string, days: number): string {
	const t = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
	return new Date(t).toISOString().slice(0, 10);
}

export function utcDay(now: Date): string {
	return now.toISOString().slice(0, 10);
}

/** The creation day of a record (`YYYY-MM-DD HH:MM:SS` or ISO), if readable. */
export function recordDay(record: IDataObject): string | undefined {
	const value = record.createdDate;
	if (typeof value !== 'string') return undefined;
	const day = value.slice(0, 10);
	return isDay(day) ? day : undefined;
}

export function recordKey(record: IDataObject): string | undefined {
	const ref = record.onusReference;
	if (typeof ref !== 'string' || ref.length === 0) return undefined;
	return `${ref}|${String(record.paymentStatus ?? '')}`;
}

/** Reads a stream's state from static data, tolerating anything malformed. */
export function readStream(value: unknown): StreamState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const raw = value as { cursor?: unknown; seen?: unknown };
	const seen: Record<string, string> = {};
	if (typeof raw.seen === 'object' && raw.seen !== null) {
		for (const [key, day] of Object.entries(raw.seen as Record<string, unknown>)) {
			if (isDay(day)) seen[key] = day;
		}
	}
	return { cursor: isDay(raw.cursor) ? raw.cursor : undefined, seen };
}

/** First day to read: the cursor (or today on a first run) minus the overlap. */
export function readFrom(state: StreamState | undefined, today: string, overlapDays: number): string {
	const base = state?.cursor !== undefined && state.cursor < today ? state.cursor : today;
	return addDays(base, -overlapDays);
}

export interface Advance {
	/** Records to emit, oldest first, each with `change` set. */
	emit: IDataObject[];
	next: StreamState;
}

/**
 * Folds one poll's records into the state. With `baseline` (first run) the
 * records are remembered but not emitted: the trigger starts from "now".
 */
export function advance(
	state: StreamState | undefined,
	records: IDataObject[],
	options: { today: string; overlapDays: number; baseline: boolean },
): Advance {
	const seen: Record<string, string> = { ...(state?.seen ?? {}) };
	const knownRefs = new Set(Object.keys(seen).map((k) => k.slice(0, k.lastIndexOf('|'))));
	const readStart = readFrom(state, options.today, options.overlapDays);
	let cursor = state?.cursor;
	const fresh: Array<{ record: IDataObject; order: string }> = [];
	for (const record of records) {
		const key = recordKey(record);
		if (key === undefined) continue;
		const day = recordDay(record) ?? readStart;
		if (cursor === undefined || day > cursor) cursor = day;
		if (key in seen) continue;
		seen[key] = day;
		if (options.baseline) continue;
		const ref = key.slice(0, key.lastIndexOf('|'));
		fresh.push({
			record: { ...record, change: knownRefs.has(ref) ? 'statusChanged' : 'new' },
			order: String(record.lastUpdatedDate ?? record.createdDate ?? ''),
		});
		knownRefs.add(ref);
	}
	if (cursor === undefined) cursor = state?.cursor ?? options.today;
	// Never let a record dated in the future drag the read start past today.
	if (cursor > options.today) cursor = options.today;
	const nextStart = addDays(cursor, -options.overlapDays);
	const kept = Object.entries(seen).filter(([, day]) => day >= nextStart);
	kept.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
	const bounded = kept.slice(Math.max(0, kept.length - MAX_SEEN));
	fresh.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
	return { emit: fresh.map((f) => f.record), next: { cursor, seen: Object.fromEntries(bounded) } };
}

/** The newest record (by last update, then creation) for a test event. */
export function newest(records: IDataObject[]): IDataObject | undefined {
	let best: IDataObject | undefined;
	let bestOrder = '';
	for (const record of records) {
		const order = String(record.lastUpdatedDate ?? record.createdDate ?? '');
		if (best === undefined || order > bestOrder) {
			best = record;
			bestOrder = order;
		}
	}
	return best;
}
