/** Step 4 of the PayOnUs Trigger (claim.ts): repeats, events held back, and how a confirmation settles the claim. */
import type { IDataObject } from 'n8n-workflow';
import {
	claimEvent,
	dedupeKey,
	forgetTestEvent,
	judgeEvent,
	PERSISTED_KEYS,
	resetSeenKeys,
	settleEvent,
} from '../../../nodes/PayOnUsTrigger/claim';
import type { Verdict } from '../../../nodes/PayOnUsTrigger/emit';
import type { Notification } from '../../../nodes/PayOnUsTrigger/notification';

const scope = { workflowId: 'wf-c', nodeId: 'node-c', mode: 'webhook' };
const body = { type: 'COLLECTION', accountNumber: '0123456789', onusReference: 'ONUS-1', paymentStatus: 'SUCCESSFUL' };
const event: Notification = { event: 'COLLECTION', body, receivedAt: new Date(0) };
const key = dedupeKey('COLLECTION', body);
const T = 1_000_000;

let data: IDataObject;
const at = (s = scope) => ({ ...s, staticData: () => data });
const claim = (now: number, s = scope) => claimEvent(at(s), event, true, now);
const settle = (claimed: { key: string } | undefined, verdict: Verdict, now: number) => claimed && settleEvent(at(), claimed.key, verdict, now);
const keys = () => ((data.seenChanges ?? []) as Array<[string, number, string?]>).map(([k]) => k);
const record = { createdDate: '2025-12-01 09:00:00', lastUpdatedDate: '2026-01-01 10:00:00' };
const confirmed: Verdict = { kind: 'confirmed', item: {}, record };
const notConfirmed: Verdict = { kind: 'notConfirmed', item: {}, reason: 'no record' };

beforeEach(() => {
	resetSeenKeys();
	data = {};
});

describe('claimEvent', () => {
	it('an event not confirmed with the service: claimed and kept in static data at once; a copy is a repeat', () => {
		expect(claimEvent(at(), event, false, T)).toBeDefined();
		expect(data.seenChanges).toEqual([[key, T]]);
		expect(claimEvent(at(), event, false, T + 1)).toBeUndefined();
	});

	it("an event to confirm: claimed now (a concurrent copy is a repeat), kept only once confirmed, dated with its record's last change", () => {
		const first = claim(T);
		expect(first).toBeDefined();
		expect(claim(T)).toBeUndefined();
		expect(data).toEqual({});
		settle(first, confirmed, T + 5);
		expect(data.seenChanges).toEqual([[key, T, '2026-01-01 10:00:00']]);
	});

	it('carries the keys static data holds (a restart), and writes the newest PERSISTED_KEYS only', () => {
		for (let n = 0; n < PERSISTED_KEYS + 3; n++) {
			claimEvent(at(), { ...event, body: { ...body, onusReference: `ONUS-${n}` } }, false, T + n);
		}
		expect(keys()).toHaveLength(PERSISTED_KEYS);
		resetSeenKeys();
		const last = { ...event, body: { ...body, onusReference: `ONUS-${PERSISTED_KEYS + 2}` } };
		expect(claimEvent(at(), last, false, T + 100)).toBeUndefined();
	});

	it('test mode has its own memory and leaves static data alone', () => {
		const manual = { ...scope, mode: 'manual' };
		expect(claimEvent(at(manual), event, false, T)).toBeDefined();
		expect(data).toEqual({});
		expect(claimEvent(at(scope), event, false, T)).toBeDefined();
		forgetTestEvent(scope.workflowId, scope.nodeId, event.event, event.body);
		expect(claimEvent(at(manual), event, false, T)).toBeDefined();
		expect(claimEvent(at(scope), event, false, T)).toBeUndefined();
	});
});

describe('settleEvent', () => {
	it('not confirmed: released and held back; the next copy only re-checks', () => {
		const first = claim(T);
		expect(first?.recheck).toBe(false);
		settle(first, notConfirmed, T + 10);
		expect(data).toEqual({});
		const copy = claim(T + 20);
		expect(copy?.recheck).toBe(true);
		// Confirmed on the re-check: no longer held, kept.
		settle(copy, confirmed, T + 30);
		expect(keys()).toEqual([key]);
		expect(claim(T + 40)).toBeUndefined();
		// No longer held: with the seen key given up (forged releases it and keeps any hold), a copy is not a re-check.
		settleEvent(at(), key, { kind: 'forged' }, T + 40);
		expect(claim(T + 50)?.recheck).toBe(false);
	});

	it('held back for a day from the last time it was not confirmed', () => {
		settle(claim(T), notConfirmed, T);
		const day = 24 * 60 * 60 * 1000;
		settle(claim(T + day - 10), notConfirmed, T + day - 10);
		expect(claim(T + day + 10)?.recheck).toBe(true);
	});

	it('an event the filters would not start (otherBusiness) is neither remembered nor held', () => {
		settle(claim(T), notConfirmed, T);
		settle(claim(T), { kind: 'otherBusiness', businessId: 'BUS-9' }, T);
		expect(data).toEqual({});
		expect(claim(T)?.recheck).toBe(false);
	});

	it('a forged tokenization is released but an earlier hold stays', () => {
		settle(claim(T), notConfirmed, T);
		settle(claim(T), { kind: 'forged' }, T);
		expect(claim(T)?.recheck).toBe(true);
	});

	it("judges by the memory's horizon and the record's last change (rule 3)", () => {
		claim(T);
		expect(judgeEvent(at(), { createdDate: '2020-01-01 00:00:00' })).toEqual({ known: false });
		data.seenChangesHorizon = '2026-01-01 10:00:00';
		resetSeenKeys();
		claim(T);
		expect(judgeEvent(at(), { createdDate: '2025-12-01 09:00:00', lastUpdatedDate: '2026-01-01 09:00:00' }).known).toBe(true);
		// Created long before the horizon, changed after it: new.
		expect(judgeEvent(at(), { createdDate: '2025-12-01 09:00:00', lastUpdatedDate: '2026-01-01 11:00:00' }).known).toBe(false);
	});
});
