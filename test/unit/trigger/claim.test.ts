/** Step 4 of the PayOnUs Trigger (claim.ts): repeats, events held back, and how a confirmation settles the claim. */
import type { IDataObject } from 'n8n-workflow';
import {
	claimEvent,
	dedupeKey,
	forgetTestEvent,
	openMemory,
	PERSISTED_KEYS,
	resetSeenKeys,
} from '../../../nodes/PayOnUsTrigger/claim';
import type { Verdict } from '../../../nodes/PayOnUsTrigger/emit';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';

const scope = { workflowId: 'wf-c', nodeId: 'node-c', mode: 'webhook' };
const body = { type: 'COLLECTION', accountNumber: '0123456789', onusReference: 'ONUS-1', paymentStatus: 'SUCCESSFUL' };
const event: Notification = { event: 'COLLECTION', body, receivedAt: new Date(0) };
const key = dedupeKey('COLLECTION', body);
const T = 1_000_000;

let data: IDataObject;
const open = (now = T, s = scope) => openMemory(s, now, () => data);
const keys = () => ((data.seenEvents ?? []) as Array<[string, number, string?]>).map(([k]) => k);
const confirmed: Verdict = { kind: 'confirmed', item: {}, recordDate: '2026-01-01 10:00:00' };
const notConfirmed: Verdict = { kind: 'notConfirmed', item: {}, reason: 'no record' };

beforeEach(() => {
	resetSeenKeys();
	data = {};
});

describe('claimEvent', () => {
	it('an event not confirmed with the service: claimed and kept in static data at once; a copy is a repeat', () => {
		expect(claimEvent(open(), event, false, T)).toBeDefined();
		expect(data.seenEvents).toEqual([[key, T]]);
		expect(claimEvent(open(T + 1), event, false, T + 1)).toBeUndefined();
	});

	it('an event to confirm: claimed now (a concurrent copy is a repeat), kept only once confirmed, with its record date', () => {
		const claim = claimEvent(open(), event, true, T);
		expect(claim).toBeDefined();
		expect(claimEvent(open(), event, true, T)).toBeUndefined();
		expect(data).toEqual({});
		claim?.settle(confirmed, T + 5);
		expect(data.seenEvents).toEqual([[key, T, '2026-01-01 10:00:00']]);
	});

	it('carries the keys static data holds (a restart), and writes the newest PERSISTED_KEYS only', () => {
		for (let n = 0; n < PERSISTED_KEYS + 3; n++) {
			claimEvent(open(T + n), { ...event, body: { ...body, onusReference: `ONUS-${n}` } }, false, T + n);
		}
		expect(keys()).toHaveLength(PERSISTED_KEYS);
		resetSeenKeys();
		const last = { ...event, body: { ...body, onusReference: `ONUS-${PERSISTED_KEYS + 2}` } };
		expect(claimEvent(open(T + 100), last, false, T + 100)).toBeUndefined();
	});

	it('test mode has its own memory and leaves static data alone', () => {
		const manual = { ...scope, mode: 'manual' };
		expect(claimEvent(open(T, manual), event, false, T)).toBeDefined();
		expect(data).toEqual({});
		expect(claimEvent(open(T, scope), event, false, T)).toBeDefined();
		forgetTestEvent(scope.workflowId, scope.nodeId, event.event, event.body);
		expect(claimEvent(open(T, manual), event, false, T)).toBeDefined();
		expect(claimEvent(open(T, scope), event, false, T)).toBeUndefined();
	});
});

describe('EventClaim.settle', () => {
	it('not confirmed: released and held back; the next copy only re-checks', () => {
		const first = claimEvent(open(), event, true, T);
		expect(first?.recheck).toBe(false);
		first?.settle(notConfirmed, T + 10);
		expect(data).toEqual({});
		const copy = claimEvent(open(T + 20), event, true, T + 20);
		expect(copy?.recheck).toBe(true);
		// Confirmed on the re-check: no longer held, kept.
		expect(open(T + 20).held.has(key, T + 20)).toBe(true);
		copy?.settle(confirmed, T + 30);
		expect(keys()).toEqual([key]);
		expect(open(T + 40).held.has(key, T + 40)).toBe(false);
	});

	it('held back for a day from the last time it was not confirmed', () => {
		claimEvent(open(), event, true, T)?.settle(notConfirmed, T);
		const day = 24 * 60 * 60 * 1000;
		claimEvent(open(T + day - 10), event, true, T + day - 10)?.settle(notConfirmed, T + day - 10);
		expect(claimEvent(open(T + day + 10), event, true, T + day + 10)?.recheck).toBe(true);
	});

	it('an event the filters would not start (otherBusiness) is neither remembered nor held', () => {
		claimEvent(open(), event, true, T)?.settle(notConfirmed, T);
		claimEvent(open(), event, true, T)?.settle({ kind: 'otherBusiness', businessId: 'BUS-9' }, T);
		expect(data).toEqual({});
		expect(claimEvent(open(), event, true, T)?.recheck).toBe(false);
	});

	it('a forged tokenization is released but an earlier hold stays', () => {
		claimEvent(open(), event, true, T)?.settle(notConfirmed, T);
		claimEvent(open(), event, true, T)?.settle({ kind: 'forged' }, T);
		expect(claimEvent(open(), event, true, T)?.recheck).toBe(true);
	});

	it("decides by the memory's horizon", () => {
		const claim = claimEvent(open(), event, true, T);
		expect(claim?.decide('2020-01-01 00:00:00')).toEqual({ known: false });
		data.seenHorizon = '2026-01-01 10:00:00';
		resetSeenKeys();
		const after = claimEvent(open(), event, true, T);
		expect(after?.decide('2026-01-01 09:00:00').known).toBe(true);
		expect(after?.decide('2026-01-01 11:00:00').known).toBe(false);
	});
});
