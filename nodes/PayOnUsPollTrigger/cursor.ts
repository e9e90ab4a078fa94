import type { IDataObject } from 'n8n-workflow';

/**
 * The polling trigger's memory and decisions, free of n8n.
 *
 * The list endpoints are asked for records created on or after a day
 * (`fromDate`, day-granular; undocumented for transfers), so every poll asks
 * from (cursor day - overlap days) and drops what it has already emitted.
 * A record is identified by (onusReference, paymentStatus): a new record, or
 * a known record in a new status, is emitted once.
 *
 * Nothing here trusts the service to honour `fromDate`, any other filter or
 * any sort order: a record created before the day asked for is dropped here
 * (it was either seen by an earlier poll or is older than the trigger), the
 * records are ordered here, and every page is read. So a service that
 * ignores `fromDate` and answers every transfer ever made, oldest first,
 * makes polls slower, never emits an old record again.
 *
 * State per stream (payins, payouts), kept in the node's static data:
 *  - cursor: the latest creation day seen (YYYY-MM-DD, the service's days);
 *  - seen:   key -> creation day, for every record created on or after the
 *            next read start (older entries can never be emitted again and
 *            are dropped, which is what bounds the set);
 *  - floor:  set only if the seen-set ever overflows MAX_SEEN: the newest
 *            creation day dropped for room; records created on or before it
 *            are never emitted again (status changes on those days included);
 *  - undated: keys of records without a readable creation date (the spec
 *            says every record has one), newest MAX_UNDATED kept.
 *
 * Memory bound: at most MAX_SEEN keys per stream (about 60 bytes each in
 * static data, so about 1.2 MB per stream at the cap) plus MAX_UNDATED.
 */

export type Stream = 'payins' | 'payouts';

export interface StreamState {
	cursor?: string;
	seen: Record<string, string>;
	floor?: string;
	undated?: string[];
}

export interface PollState {
	v: 1;
	payins?: StreamState;
	payouts?: StreamState;
}

/**
 * Cap on remembered keys per stream (records x statuses created in the
 * re-read window). Beyond it the oldest days are forgotten and `floor`
 * rises so that they are never emitted again.
 */
export const MAX_SEEN = 20_000;
/** Cap on remembered keys of records without a creation date. */
export const MAX_UNDATED = 1_000;

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
	const raw = value as { cursor?: unknown; seen?: unknown; floor?: unknown; undated?: unknown };
	const seen: Record<string, string> = {};
	if (typeof raw.seen === 'object' && raw.seen !== null) {
		for (const [key, day] of Object.entries(raw.seen as Record<string, unknown>)) {
			if (isDay(day)) seen[key] = day;
		}
	}
	const state: StreamState = { cursor: isDay(raw.cursor) ? raw.cursor : undefined, seen };
	if (isDay(raw.floor)) state.floor = raw.floor;
	if (Array.isArray(raw.undated)) {
		const undated = raw.undated.filter((k): k is string => typeof k === 'string');
		if (undated.length > 0) state.undated = undated.slice(-MAX_UNDATED);
	}
	return state;
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
	/** Records dropped because they were created before the day asked for. */
	outsideWindow: number;
	/** Keys forgotten to stay within MAX_SEEN (0 normally). */
	evicted: number;
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
	const undated = [...(state?.undated ?? [])];
	const undatedSet = new Set(undated);
	const refOf = (key: string) => key.slice(0, key.lastIndexOf('|'));
	const knownRefs = new Set([...Object.keys(seen), ...undated].map(refOf));
	// The first day this poll asked the service for: anything older is not
	// ours to emit, whatever the service sent.
	const readStart = readFrom(state, options.today, options.overlapDays);
	const floor = state?.floor;
	let cursor = state?.cursor;
	let outsideWindow = 0;
	const fresh: Array<{ record: IDataObject; order: string }> = [];
	const batch = new Set<string>();
	for (const record of records) {
		const key = recordKey(record);
		if (key === undefined) continue;
		const day = recordDay(record);
		if (day !== undefined) {
			if (day < readStart || (floor !== undefined && day <= floor)) {
				outsideWindow++;
				continue;
			}
			if (cursor === undefined || day > cursor) cursor = day;
			if (key in seen) continue;
			seen[key] = day;
		} else {
			if (undatedSet.has(key)) continue;
			undatedSet.add(key);
			undated.push(key);
		}
		if (options.baseline || batch.has(key)) continue;
		batch.add(key);
		const ref = refOf(key);
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
	const cut = Math.max(0, kept.length - MAX_SEEN);
	let nextFloor = floor !== undefined && floor >= nextStart ? floor : undefined;
	if (cut > 0) {
		// Forget the oldest days WHOLE (a day partly forgotten could re-emit
		// its forgotten records), and never emit those days again.
		const lastDropped = kept[cut - 1][1];
		nextFloor = nextFloor === undefined || lastDropped > nextFloor ? lastDropped : nextFloor;
	}
	const bounded = nextFloor === undefined ? kept : kept.filter(([, day]) => day > (nextFloor as string));
	fresh.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
	const next: StreamState = { cursor, seen: Object.fromEntries(bounded) };
	if (nextFloor !== undefined) next.floor = nextFloor;
	if (undated.length > 0) next.undated = undated.slice(-MAX_UNDATED);
	return { emit: fresh.map((f) => f.record), next, outsideWindow, evicted: kept.length - bounded.length };
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
