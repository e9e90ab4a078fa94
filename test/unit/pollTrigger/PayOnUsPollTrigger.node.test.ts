import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));

import { PayOnUsPollTrigger } from '../../../nodes/PayOnUsPollTrigger/PayOnUsPollTrigger.node';
import { clock } from '../../../nodes/PayOnUsPollTrigger/clock';
import { addDays } from '../../../nodes/PayOnUsPollTrigger/cursor';

/** A tiny service: records with creation days, filtered by fromDate like the real one. */
class FakeService {
	payins: IDataObject[] = [];
	payouts: IDataObject[] = [];
	calls: IDataObject[] = [];
	private seq = 0;
	add(kind: 'payins' | 'payouts', createdDate: string, status = 'PENDING', businessId = 'BUS-2001') {
		const rec = { onusReference: `ONUS-${kind}-${++this.seq}`, paymentStatus: status, createdDate, lastUpdatedDate: createdDate, businessId };
		this[kind].push(rec);
		return rec;
	}
	list = async (opts: { path: string; qs: IDataObject; style: string; limit?: number }) => {
		this.calls.push(opts as unknown as IDataObject);
		const kind = opts.path.includes('payment-requests') ? 'payins' : 'payouts';
		const from = opts.qs.fromDate as string | undefined;
		let out = this[kind].filter((r) => from === undefined || String(r.createdDate).slice(0, 10) >= from);
		if (opts.qs.status) out = out.filter((r) => r.paymentStatus === opts.qs.status);
		if (opts.limit !== undefined) out = out.slice(0, opts.limit);
		return out.map((r) => ({ ...r }));
	};
}

function pollContext(params: IDataObject, staticData: IDataObject, mode = 'trigger') {
	return {
		getNodeParameter: (name: string, fallback: unknown) => (name in params ? params[name] : fallback),
		getMode: () => mode,
		getWorkflow: () => ({ id: 'wf-p' }),
		getNode: () => ({ id: 'poll-1', name: 'PayOnUs Poll Trigger' }),
		getWorkflowStaticData: () => staticData,
	};
}

/** The poll's clock is injected: "today" never moves under a test (no midnight race). */
const TODAY = '2026-01-15';
clock.now = () => Date.parse(`${TODAY}T12:00:00Z`);
const at = (day: string, time = '10:00:00') => `${day} ${time}`;

async function poll(service: FakeService, staticData: IDataObject, params: IDataObject = {}, mode = 'trigger') {
	fakeClient.paginate.mockImplementation(service.list);
	const out = await new PayOnUsPollTrigger().poll.call(
		pollContext({ watch: ['payins', 'payouts'], options: {}, merchantId: '', ...params }, staticData, mode) as never,
	);
	return (out?.[0] ?? []).map((i) => i.json);
}

beforeEach(() => {
	fakeClient.paginate.mockReset();
	fakeClient.defaults = { merchantId: 'MER-1001' };
});

describe('PayOnUs Poll Trigger', () => {
	it('starts from now: the first poll remembers existing records and emits nothing', async () => {
		const s = new FakeService();
		s.add('payins', at(TODAY));
		s.add('payouts', at(TODAY));
		const state: IDataObject = {};
		expect(await poll(s, state)).toEqual([]);
		expect(state.payonusPoll).toBeDefined();
		expect(await poll(s, state)).toEqual([]);
	});

	it('emits each new record once, then each status change once', async () => {
		const s = new FakeService();
		const state: IDataObject = {};
		await poll(s, state);
		const p = s.add('payins', at(TODAY));
		const t = s.add('payouts', at(TODAY, '11:00:00'));
		const first = await poll(s, state);
		expect(first.map((r) => [r.onusReference, r.resource, r.change])).toEqual([
			[p.onusReference, 'payin', 'new'],
			[t.onusReference, 'payout', 'new'],
		]);
		expect(await poll(s, state)).toEqual([]);
		p.paymentStatus = 'SUCCESSFUL';
		const changed = await poll(s, state);
		expect(changed.map((r) => [r.onusReference, r.paymentStatus, r.change])).toEqual([[p.onusReference, 'SUCCESSFUL', 'statusChanged']]);
		expect(await poll(s, state)).toEqual([]);
	});

	it('re-reads the overlap day (fromDate = cursor - 1 day) and passes merchantId for payouts', async () => {
		const s = new FakeService();
		const state: IDataObject = {};
		await poll(s, state);
		const calls = s.calls.map((c) => c as unknown as { path: string; qs: IDataObject; style: string });
		const payins = calls.find((c) => c.path === '/api/v1/payment-requests')!;
		const payouts = calls.find((c) => c.path === '/api/v1/transfer-requests')!;
		expect(payins.qs.fromDate).toBe(addDays(TODAY, -1));
		expect(payins.style).toBe('zeroBased');
		expect(payouts.style).toBe('fromOne');
		expect(payouts.qs.merchantId).toBe('MER-1001');
	});

	it('loses nothing across a restart and emits nothing twice (state only in static data)', async () => {
		const s = new FakeService();
		const state: IDataObject = {};
		await poll(s, state);
		const a = s.add('payins', at(TODAY));
		expect((await poll(s, state)).map((r) => r.onusReference)).toEqual([a.onusReference]);
		const persisted = JSON.parse(JSON.stringify(state)) as IDataObject; // what the database holds
		const b = s.add('payins', at(TODAY, '12:00:00'));
		expect((await poll(s, persisted)).map((r) => r.onusReference)).toEqual([b.onusReference]);
	});

	it('catches records created on the previous day after midnight (clock edge)', async () => {
		const s = new FakeService();
		const yesterday = addDays(TODAY, -1);
		const state: IDataObject = {};
		await poll(s, state);
		// Written late "yesterday" by the service's clock, seen only now.
		const late = s.add('payouts', at(yesterday, '23:59:59'));
		expect((await poll(s, state)).map((r) => r.onusReference)).toEqual([late.onusReference]);
	});

	it('after days of downtime reads from the stored cursor, not from today', async () => {
		const old = addDays(TODAY, -5);
		const stored: IDataObject = { payonusPoll: { v: 1, payins: { cursor: old, seen: {} }, payouts: { cursor: old, seen: {} } } };
		const s = new FakeService();
		const missed = s.add('payins', at(addDays(TODAY, -3)));
		const out = await poll(s, stored);
		expect(out.map((r) => r.onusReference)).toEqual([missed.onusReference]);
	});

	it('applies status and business filters but remembers what it skipped', async () => {
		const s = new FakeService();
		const state: IDataObject = {};
		const params = { options: { statuses: ['SUCCESSFUL'], businessIds: 'BUS-2001' } };
		await poll(s, state, params);
		const p = s.add('payins', at(TODAY), 'PENDING');
		s.add('payins', at(TODAY), 'SUCCESSFUL', 'BUS-2002');
		expect(await poll(s, state, params)).toEqual([]);
		p.paymentStatus = 'SUCCESSFUL';
		expect((await poll(s, state, params)).map((r) => r.onusReference)).toEqual([p.onusReference]);
	});

	it('test event (manual): returns the newest record and leaves the cursor alone', async () => {
		const s = new FakeService();
		s.add('payins', at(TODAY, '09:00:00'));
		const newest = s.add('payins', at(TODAY, '10:00:00'));
		const state: IDataObject = {};
		const out = await poll(s, state, { watch: ['payins'] }, 'manual');
		expect(out.map((r) => r.onusReference)).toEqual([newest.onusReference]);
		expect(state).toEqual({});
	});

	it('refuses to watch payouts without a merchant id', async () => {
		fakeClient.defaults = {};
		await expect(poll(new FakeService(), {}, { watch: ['payouts'] })).rejects.toThrow(/Merchant ID/);
	});

	it('skips a poll that starts while the previous one of the same node still runs', async () => {
		const s = new FakeService();
		const state: IDataObject = {};
		await poll(s, state);
		s.add('payins', at(TODAY));
		let release!: () => void;
		const gate = new Promise<void>((r) => (release = r));
		fakeClient.paginate.mockImplementation(async (o) => {
			await gate;
			return s.list(o);
		});
		const ctx = pollContext({ watch: ['payins'], options: {} }, state);
		const slow = new PayOnUsPollTrigger().poll.call(ctx as never);
		const second = await new PayOnUsPollTrigger().poll.call(ctx as never);
		release();
		expect(second).toBeNull();
		expect((await slow)?.[0]).toHaveLength(1);
	});
});
