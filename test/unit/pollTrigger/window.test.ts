/**
 * Issue 14, point 5: the poll trigger never re-emits, whatever the service
 * does with the undocumented `fromDate` filter or the sort order, with
 * bounded memory, at a one-minute interval. Each case failed on f732b35.
 */
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));

import { PayOnUsPollTrigger } from '../../../nodes/PayOnUsPollTrigger/PayOnUsPollTrigger.node';
import { clock } from '../../../nodes/PayOnUsPollTrigger/clock';
import { addDays, advance, MAX_SEEN, type StreamState } from '../../../nodes/PayOnUsPollTrigger/cursor';

/** A service that ignores fromDate (and every other filter) and answers oldest first. */
class CarelessService {
	payins: IDataObject[] = [];
	payouts: IDataObject[] = [];
	private seq = 0;
	add(kind: 'payins' | 'payouts', createdDate: string, status = 'PENDING', extra: IDataObject = {}) {
		const rec = { onusReference: `ONUS-${kind}-${++this.seq}`, paymentStatus: status, createdDate, lastUpdatedDate: createdDate, businessId: 'BUS-2001', amount: 10, ...extra };
		this[kind].push(rec);
		return rec;
	}
	list = async (opts: { path: string }) => {
		const kind = opts.path.includes('payment-requests') ? 'payins' : 'payouts';
		return [...this[kind]].sort((a, b) => String(a.createdDate).localeCompare(String(b.createdDate))).map((r) => ({ ...r }));
	};
}

/** The poll's clock is injected: "today" never moves under a test (no midnight race). */
const TODAY = '2026-01-15';
clock.now = () => Date.parse(`${TODAY}T12:00:00Z`);
const at = (day: string, time = '10:00:00') => `${day} ${time}`;

function ctx(staticData: IDataObject, params: IDataObject = {}) {
	// Simplify off: the tests read the full record.
	const all: IDataObject = { watch: ['payins', 'payouts'], options: {}, merchantId: '', simplify: false, ...params };
	return {
		getNodeParameter: (name: string, fallback: unknown) => (name in all ? all[name] : fallback),
		getMode: () => 'trigger',
		getWorkflow: () => ({ id: 'wf-window' }),
		getNode: () => ({ id: 'poll-w', name: 'PayOnUs Poll Trigger' }),
		getWorkflowStaticData: () => staticData,
	};
}

async function poll(service: CarelessService, staticData: IDataObject, params: IDataObject = {}) {
	fakeClient.paginate.mockImplementation(service.list);
	const out = await new PayOnUsPollTrigger().poll.call(ctx(staticData, params) as never);
	return (out?.[0] ?? []).map((i) => i.json);
}

beforeEach(() => {
	fakeClient.paginate.mockReset();
	fakeClient.defaults = { merchantId: 'MER-1001' };
});

describe('poll trigger with a service that ignores fromDate', () => {
	it('never re-emits older transfers (FAILED ones included) on later polls', async () => {
		const s = new CarelessService();
		for (let d = 30; d >= 3; d--) s.add('payouts', at(addDays(TODAY, -d)), d % 2 ? 'FAILED' : 'SUCCESSFUL');
		const state: IDataObject = {};
		expect(await poll(s, state)).toEqual([]); // baseline
		for (let i = 0; i < 5; i++) expect(await poll(s, state)).toEqual([]);
		const fresh = s.add('payouts', at(TODAY, '12:00:00'), 'FAILED');
		const out = await poll(s, state);
		expect(out.map((r) => r.onusReference)).toEqual([fresh.onusReference]);
		expect(await poll(s, state)).toEqual([]);
		// A restart (state read back from the database) changes nothing.
		expect(await poll(s, JSON.parse(JSON.stringify(state)) as IDataObject)).toEqual([]);
	});

	it('one-minute polls: everything created between two polls, oldest first, over many records, is emitted exactly once', async () => {
		const s = new CarelessService();
		for (let d = 10; d >= 2; d--) s.add('payouts', at(addDays(TODAY, -d)), 'FAILED');
		const state: IDataObject = {};
		await poll(s, state);
		const emitted: string[] = [];
		const created: string[] = [];
		for (let minute = 0; minute < 5; minute++) {
			for (let k = 0; k < 120; k++) {
				const t = `${String(10 + minute).padStart(2, '0')}:${String(Math.floor(k / 2)).padStart(2, '0')}:${String((k % 2) * 30).padStart(2, '0')}`;
				created.push(String(s.add(k % 3 === 0 ? 'payins' : 'payouts', at(TODAY, t), k % 5 === 0 ? 'FAILED' : 'PENDING').onusReference));
			}
			emitted.push(...(await poll(s, state)).map((r) => String(r.onusReference)));
		}
		expect(emitted.sort()).toEqual([...created].sort());
		expect(new Set(emitted).size).toBe(emitted.length);
	});

	it('rule 3: a transfer created 10 days ago that settles now is emitted once (statusChanged), though created before the day asked for', async () => {
		const s = new CarelessService();
		const old = s.add('payouts', at(addDays(TODAY, -10)), 'PENDING');
		for (let d = 9; d >= 2; d--) s.add('payouts', at(addDays(TODAY, -d)), 'SUCCESSFUL');
		const state: IDataObject = {};
		expect(await poll(s, state)).toEqual([]); // baseline
		Object.assign(old, { paymentStatus: 'SUCCESSFUL', lastUpdatedDate: at(TODAY, '11:00:00') });
		const out = await poll(s, state);
		expect(out.map((r) => [r.onusReference, r.paymentStatus, r.change])).toEqual([[old.onusReference, 'SUCCESSFUL', 'statusChanged']]);
		expect(await poll(s, state)).toEqual([]);
		expect(await poll(s, JSON.parse(JSON.stringify(state)) as IDataObject)).toEqual([]);
	});

	it('emits the record shape: `amount` and the other record names', async () => {
		const s = new CarelessService();
		const state: IDataObject = {};
		await poll(s, state);
		s.add('payouts', at(TODAY), 'SUCCESSFUL', { amount: undefined, transactionAmount: 99.5, reference: 'r-1' });
		const [item] = await poll(s, state);
		expect(item).toMatchObject({ amount: 99.5, transactionAmount: 99.5, merchantReference: 'r-1', resource: 'payout', change: 'new' });
	});
});

describe('cursor memory is bounded', () => {
	const rec = (i: number, day: string, status = 'PENDING') => ({ onusReference: `R${i}`, paymentStatus: status, createdDate: `${day} 10:00:00` });

	it(`keeps at most ${MAX_SEEN} keys and never re-emits what it had to forget`, () => {
		const today = '2025-03-10';
		const yesterday = '2025-03-09';
		const records = [
			...Array.from({ length: 600 }, (_, i) => rec(i, yesterday)),
			...Array.from({ length: MAX_SEEN }, (_, i) => rec(100_000 + i, today)),
		];
		const first = advance({ cursor: today, seen: {} }, records, { today, overlapDays: 1, baseline: false });
		expect(first.emit).toHaveLength(records.length);
		expect(Object.keys(first.next.seen).length).toBeLessThanOrEqual(MAX_SEEN);
		expect(first.next.floor).toBe(`${yesterday} 10:00:00`);
		expect(first.evicted).toBe(600);
		const again = advance(first.next, records, { today, overlapDays: 1, baseline: false });
		expect(again.emit).toEqual([]);
	});

	it('records without a creation date are emitted once, and remembered in a bounded list', () => {
		const undated = { onusReference: 'U1', paymentStatus: 'PENDING' };
		const a = advance({ cursor: '2025-03-10', seen: {} }, [undated], { today: '2025-03-10', overlapDays: 1, baseline: false });
		expect(a.emit).toHaveLength(1);
		let state: StreamState = a.next;
		for (let i = 0; i < 3; i++) {
			const b = advance(state, [undated], { today: addDays('2025-03-10', i + 1), overlapDays: 1, baseline: false });
			expect(b.emit).toEqual([]);
			state = b.next;
		}
	});

	it('at 12,000 payins a day (each PENDING then SUCCESSFUL, past the key bound) emits every change exactly once, all day (issue 22, point 5)', () => {
		const today = '2025-03-10';
		const perHour = 500;
		const pad = (n: number) => String(n).padStart(2, '0');
		const time = (h: number, i: number) => `${today} ${pad(h)}:${pad(Math.floor((i * 60) / perHour))}:${pad((i * 7) % 60)}`;
		const counts = new Map<string, number>();
		let state: StreamState | undefined = { cursor: today, seen: {} };
		let evicted = 0;
		for (let hour = 0; hour < 24; hour++) {
			const records: IDataObject[] = [];
			for (let h = 0; h <= hour; h++) {
				for (let i = 0; i < perHour; i++) {
					// Paid an hour after it was created.
					const paid = h < hour;
					records.push({
						onusReference: `R-${h}-${i}`,
						paymentStatus: paid ? 'SUCCESSFUL' : 'PENDING',
						createdDate: time(h, i),
						lastUpdatedDate: paid ? time(h + 1, i) : time(h, i),
					});
				}
			}
			const r = advance(state, records, { today, overlapDays: 1, baseline: false });
			evicted += r.evicted;
			for (const e of r.emit) {
				const k = `${String(e.onusReference)}|${String(e.paymentStatus)}`;
				counts.set(k, (counts.get(k) ?? 0) + 1);
			}
			state = r.next;
			expect(Object.keys(state.seen).length).toBeLessThanOrEqual(MAX_SEEN);
		}
		expect(evicted).toBeGreaterThan(0); // the bound was passed
		// Every payin created today: PENDING emitted once; every one paid before the last poll: SUCCESSFUL once.
		expect(counts.size).toBe(24 * perHour + 23 * perHour);
		expect([...counts.values()].every((c) => c === 1)).toBe(true);
	});
});
