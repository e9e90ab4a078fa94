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
 * any sort order: a record created before the day asked for is emitted only
 * if it changed after every change seen before this poll (its
 * lastUpdatedDate after `updatedHigh`: a payout created last week that
 * settled now), else dropped (seen by an earlier poll or older than the
 * trigger); the records are ordered here, and every page is read. So a
 * service that ignores `fromDate` and answers every transfer ever made,
 * oldest first, makes polls slower, never emits an old change again.
 *
 * State per stream (payins, payouts), kept in the node's static data:
 *  - cursor: the latest creation day seen (YYYY-MM-DD, the service's days);
 *  - seen:   key -> creation time (`YYYY-MM-DD HH:MM:SS`, or the day when
 *            the record gives no time), for every record created on or after
 *            the next read start (older entries can never be emitted again and
 *            are dropped, which is what bounds the set);
 *  - floor:  set only if the seen-set ever overflows MAX_SEEN: the newest
 *            creation time forgotten for room (to the second, not the day);
 *  - floorUpdated: the newest lastUpdatedDate seen when that happened. For a
 *            record created on or before `floor` the memory cannot tell; the
 *            service's dates decide: a key not remembered whose lastUpdatedDate
 *            is after `floorUpdated` is a change made after the memory let go
 *            (emitted), else it was seen before (not emitted again). So past
 *            the bound nothing old is re-emitted and nothing new goes unseen
 *            (docs/reliability.md#bounds-of-what-the-nodes-remember; the one thing left to check: a record whose
 *            lastUpdatedDate moves without a status change is emitted again);
 *  - updatedHigh: the newest lastUpdatedDate ever seen (raises floorUpdated);
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
	floorUpdated?: string;
	updatedHigh?: string;
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

const TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/;

/** A service timestamp as comparable text (`YYYY-MM-DD HH:MM:SS`), or undefined. */
export function stamp(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const m = TIME.exec(value.trim());
	return m && isDay(m[1]) ? `${m[1]} ${m[2]}` : undefined;
}

/** A remembered creation time: a timestamp, or a day (no time given). */
function isMoment(value: unknown): value is string {
	return isDay(value) || stamp(value) === value;
}

/** The creation moment of a record: its timestamp, else its day. */
export function recordMoment(record: IDataObject): string | undefined {
	return stamp(record.createdDate) ?? recordDay(record);
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
	const raw = value as {
		cursor?: unknown;
		seen?: unknown;
		floor?: unknown;
		floorUpdated?: unknown;
		updatedHigh?: unknown;
		undated?: unknown;
	};
	const seen: Record<string, string> = {};
	if (typeof raw.seen === 'object' && raw.seen !== null) {
		for (const [key, day] of Object.entries(raw.seen as Record<string, unknown>)) {
			if (isMoment(day)) seen[key] = day;
		}
	}
	const state: StreamState = { cursor: isDay(raw.cursor) ? raw.cursor : undefined, seen };
	if (stamp(raw.floor) === raw.floor) state.floor = raw.floor as string;
	if (state.floor !== undefined) {
		state.floorUpdated = stamp(raw.floorUpdated) === raw.floorUpdated ? (raw.floorUpdated as string) : state.floor;
	}
	if (stamp(raw.updatedHigh) === raw.updatedHigh) state.updatedHigh = raw.updatedHigh as string;
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
	const floorUpdated = state?.floorUpdated ?? floor;
	// The newest change seen before this poll: a record changed after it was never seen in its status.
	const seenUpTo = state?.updatedHigh;
	let updatedHigh = state?.updatedHigh;
	let cursor = state?.cursor;
	let outsideWindow = 0;
	const fresh: Array<{ record: IDataObject; order: string }> = [];
	const batch = new Set<string>();
	for (const record of records) {
		const key = recordKey(record);
		if (key === undefined) continue;
		const day = recordDay(record);
		const updated = stamp(record.lastUpdatedDate);
		if (updated !== undefined && (updatedHigh === undefined || updated > updatedHigh)) updatedHigh = updated;
		if (day !== undefined) {
			const moment = recordMoment(record) as string;
			if (day < readStart) {
				// Created before the day asked for (a service that ignores fromDate):
				// new only by what changed (rule 3), a change made after every
				// change seen before this poll; emitted, not remembered (the
				// updatedHigh it raises covers it from now on).
				if (updated === undefined || seenUpTo === undefined || updated <= seenUpTo || batch.has(key)) {
					outsideWindow++;
					continue;
				}
				batch.add(key);
				if (!options.baseline) fresh.push({ record: { ...record, change: 'statusChanged' }, order: updated });
				continue;
			}
			if (cursor === undefined || day > cursor) cursor = day;
			if (key in seen) continue;
			if (floor !== undefined && moment <= floor) {
				// Created where the memory let go: the service's dates decide.
				// Changed after the memory let go: new. Otherwise (or no
				// readable lastUpdatedDate): seen before, not emitted again.
				if (updated === undefined || floorUpdated === undefined || updated <= floorUpdated) {
					outsideWindow++;
					continue;
				}
			}
			seen[key] = moment;
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
	const kept = Object.entries(seen).filter(([, moment]) => moment >= nextStart);
	kept.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
	const cut = Math.max(0, kept.length - MAX_SEEN);
	let nextFloor = floor !== undefined && floor >= nextStart ? floor : undefined;
	let nextFloorUpdated = nextFloor !== undefined ? floorUpdated : undefined;
	if (cut > 0) {
		// Forget the oldest creation times WHOLE (a second partly forgotten
		// could re-emit its forgotten records); the service's lastUpdatedDate
		// decides for them from now on (see floorUpdated above).
		const lastDropped = kept[cut - 1][1];
		const asTime = isDay(lastDropped) ? `${lastDropped} 23:59:59` : lastDropped;
		nextFloor = nextFloor === undefined || asTime > nextFloor ? asTime : nextFloor;
		if (updatedHigh !== undefined && (nextFloorUpdated === undefined || updatedHigh > nextFloorUpdated)) {
			nextFloorUpdated = updatedHigh;
		}
		// No lastUpdatedDate ever seen: only the creation time can be trusted.
		nextFloorUpdated ??= nextFloor;
	}
	const bounded = nextFloor === undefined ? kept : kept.filter(([, moment]) => moment > (nextFloor as string));
	fresh.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
	const next: StreamState = { cursor, seen: Object.fromEntries(bounded) };
	if (nextFloor !== undefined) {
		next.floor = nextFloor;
		if (nextFloorUpdated !== undefined) next.floorUpdated = nextFloorUpdated;
	}
	if (updatedHigh !== undefined) next.updatedHigh = updatedHigh;
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
