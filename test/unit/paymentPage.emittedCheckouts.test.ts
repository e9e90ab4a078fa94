/** Payment Page, step "claim once" (request/emittedCheckouts.ts): a checkout starts the workflow once. */
import type { IDataObject } from 'n8n-workflow';
import { claimsFor, EMITTED_WINDOW, PAGE_CLOCK, PERSISTED_KEYS } from '../../nodes/PayOnUsPaymentPage/request/emittedCheckouts';

let n = 0;
/** A fresh scope per test: the memory is process-wide, per workflow, node and mode. */
const scope = (mode = 'webhook') => ({ workflowId: `wf-${++n}`, nodeId: 'node-1', mode });
const T0 = Date.UTC(2026, 0, 1);

beforeEach(() => {
	PAGE_CLOCK.now = () => T0;
});
afterAll(() => {
	PAGE_CLOCK.now = () => Date.now();
});

describe('claimsFor', () => {
	it('claims a checkout once per process, also across requests, and keeps it in static data', () => {
		const where = scope();
		const staticData: IDataObject = {};
		const first = claimsFor(where, staticData, () => undefined);
		expect(first.claim('PP-a', '2026-01-01 10:00:00')).toBe(true);
		expect(first.claim('PP-a', '2026-01-01 10:00:00')).toBe(false);
		expect(claimsFor(where, {}, () => undefined).claim('PP-a', '2026-01-01 10:00:00')).toBe(false);
		expect(staticData.emittedCheckouts).toEqual([['PP-a', T0, '2026-01-01 10:00:00']]);
		// another node of the same workflow has its own memory
		expect(claimsFor({ ...where, nodeId: 'node-2' }, {}, () => undefined).claim('PP-a')).toBe(true);
	});

	it('gives the claims of a request back when n8n could not store its run', () => {
		const where = scope();
		const claims = claimsFor(where, {}, () => undefined);
		expect(claims.claim('PP-a', null)).toBe(true);
		expect(claims.claim('PP-a:failed:1')).toBe(true);
		claims.release();
		const next = claimsFor(where, {}, () => undefined);
		expect(next.claim('PP-a', null)).toBe(true);
		expect(next.claim('PP-a:failed:1')).toBe(true);
	});

	it('takes what another process kept in static data (a restart) and refuses it', () => {
		const staticData: IDataObject = { emittedCheckouts: [['PP-b', T0 - 1000, '2026-01-01 09:00:00'], ['junk']] };
		const claims = claimsFor(scope(), staticData, () => undefined);
		expect(claims.claim('PP-b', '2026-01-01 09:00:00')).toBe(false);
		expect(claims.claim('PP-c', '2026-01-01 09:05:00')).toBe(true);
		expect((staticData.emittedCheckouts as unknown[]).map((e) => (e as string[])[0])).toEqual(['PP-b', 'PP-c']);
	});

	it(`keeps the newest ${PERSISTED_KEYS} in static data, with the horizon of those left out`, () => {
		const staticData: IDataObject = {};
		const claims = claimsFor(scope(), staticData, () => undefined);
		for (let i = 0; i < PERSISTED_KEYS + 2; i++) {
			PAGE_CLOCK.now = () => T0 + i;
			claims.claim(`PP-${i}`, `2026-01-01 10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`);
		}
		const kept = staticData.emittedCheckouts as Array<[string, number, string]>;
		expect(kept).toHaveLength(PERSISTED_KEYS);
		expect(kept[0][0]).toBe('PP-2');
		expect(staticData.emittedHorizon).toBe('2026-01-01 10:00:01');
	});

	it('after the window, refuses a paid checkout whose payin is older than what it remembers, and says why', () => {
		const where = scope();
		const staticData: IDataObject = {};
		const warnings: string[] = [];
		const claims = claimsFor(where, staticData, (m) => warnings.push(m));
		expect(claims.claim('PP-old', '2026-01-01 10:00:00')).toBe(true);
		PAGE_CLOCK.now = () => T0 + EMITTED_WINDOW.ttlMs + 60_000;
		const later = claimsFor(where, staticData, (m) => warnings.push(m));
		// PP-old aged out: its payin is not newer than the memory's horizon
		expect(later.claim('PP-old', '2026-01-01 10:00:00')).toBe(false);
		expect(warnings).toEqual([expect.stringContaining('checkout PP-old is paid, but was not started again')]);
		// a payin created after the horizon is a new checkout
		expect(later.claim('PP-newer', '2026-01-03 10:00:00')).toBe(true);
	});

	it('the test URL (no static data) keeps its own memory only', () => {
		const where = scope('manual');
		expect(claimsFor(where, undefined, () => undefined).claim('PP-a')).toBe(true);
		expect(claimsFor(where, undefined, () => undefined).claim('PP-a')).toBe(false);
		expect(claimsFor({ ...where, mode: 'webhook' }, {}, () => undefined).claim('PP-a')).toBe(true);
	});
});
