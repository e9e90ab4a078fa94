/** Payment Page, step "claim once" (request/emittedCheckouts.ts): a checkout starts the workflow once. */
import type { IDataObject } from 'n8n-workflow';
import { clock } from '../../../../nodes/PayOnUsPaymentPage/clock';
import { claimsFor, EMITTED_WINDOW, PERSISTED_KEYS } from '../../../../nodes/PayOnUsPaymentPage/request/emittedCheckouts';
import { emitting, PageOutputs } from '../../../../nodes/PayOnUsPaymentPage/request/outputs';

const DAY = 24 * 60 * 60 * 1000;
let n = 0;
/** A fresh scope per test: the memory is process-wide, per workflow, node and mode. */
const scope = (mode = 'webhook') => ({ workflowId: `wf-${++n}`, nodeId: 'node-1', mode });
const T0 = Date.UTC(2026, 0, 1);

beforeEach(() => {
	clock.now = () => T0;
});
afterAll(() => {
	clock.now = () => Date.now();
});

describe('claimsFor', () => {
	it('claims a checkout once per process, also across requests, and keeps it in static data', () => {
		const where = scope();
		const staticData: IDataObject = {};
		const first = claimsFor(where, staticData, () => undefined);
		expect(first.claim('PP-a', { createdDate: '2026-01-01 10:00:00' })).toBe(true);
		expect(first.claim('PP-a', { createdDate: '2026-01-01 10:00:00' })).toBe(false);
		expect(claimsFor(where, {}, () => undefined).claim('PP-a', { createdDate: '2026-01-01 10:00:00' })).toBe(false);
		expect(staticData.emittedChanges).toEqual([['PP-a', T0, '2026-01-01 10:00:00']]);
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
		const staticData: IDataObject = { emittedChanges: [['PP-b', T0 - 1000, '2026-01-01 09:00:00'], ['junk']] };
		const claims = claimsFor(scope(), staticData, () => undefined);
		expect(claims.claim('PP-b', { createdDate: '2026-01-01 09:00:00' })).toBe(false);
		expect(claims.claim('PP-c', { createdDate: '2026-01-01 09:05:00' })).toBe(true);
		expect((staticData.emittedChanges as unknown[]).map((e) => (e as string[])[0])).toEqual(['PP-b', 'PP-c']);
	});

	it(`keeps the newest ${PERSISTED_KEYS} in static data, with the horizon of those left out`, () => {
		const staticData: IDataObject = {};
		const claims = claimsFor(scope(), staticData, () => undefined);
		for (let i = 0; i < PERSISTED_KEYS + 2; i++) {
			clock.now = () => T0 + i;
			claims.claim(`PP-${i}`, { createdDate: `2026-01-01 10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}` });
		}
		const kept = staticData.emittedChanges as Array<[string, number, string]>;
		expect(kept).toHaveLength(PERSISTED_KEYS);
		expect(kept[0][0]).toBe('PP-2');
		expect(staticData.emittedChangesHorizon).toBe('2026-01-01 10:00:01');
	});

	it('after the window, refuses a paid checkout whose payin is older than what it remembers, and says why', () => {
		const where = scope();
		const staticData: IDataObject = {};
		const warnings: string[] = [];
		const claims = claimsFor(where, staticData, (m) => warnings.push(m));
		expect(claims.claim('PP-old', { createdDate: '2026-01-01 10:00:00' })).toBe(true);
		clock.now = () => T0 + EMITTED_WINDOW.ttlMs + 60_000;
		const later = claimsFor(where, staticData, (m) => warnings.push(m));
		// PP-old aged out: its payin is not newer than the memory's horizon
		expect(later.claim('PP-old', { createdDate: '2026-01-01 10:00:00' })).toBe(false);
		expect(warnings).toEqual([expect.stringContaining('checkout PP-old is paid, but was not started again')]);
		// a payin created after the horizon is a new checkout
		expect(later.claim('PP-newer', { createdDate: '2026-01-03 10:00:00' })).toBe(true);
	});

	it('rule 3: past the window, a checkout whose payin was created before the horizon but paid after it is emitted, once', () => {
		const where = scope();
		const staticData: IDataObject = {};
		const emitted = (claims: ReturnType<typeof claimsFor>, item: IDataObject) => {
			const outputs = new PageOutputs();
			return emitting(outputs, claims, false).emit(item, String(item.merchantCheckoutReference)) && outputs.paid !== undefined;
		};
		const paidAt = (ref: string, created: string, paid: string): IDataObject => ({
			merchantCheckoutReference: ref,
			paymentStatus: 'SUCCESSFUL',
			createdDate: created,
			lastUpdatedDate: paid,
		});
		// A busy day: other checkouts paid at 10:00.
		expect(emitted(claimsFor(where, staticData, () => undefined), paidAt('PP-1', '2026-01-01 09:00:00', '2026-01-01 10:00:00'))).toBe(true);
		// Eight days on, PP-1 aged out: the horizon is 10:00 on Jan 1.
		clock.now = () => T0 + EMITTED_WINDOW.ttlMs + DAY;
		const later = claimsFor(where, staticData, () => undefined);
		// A checkout opened on Dec 31 (a bank transfer) and paid on Jan 9: new.
		const late = paidAt('PP-late', '2025-12-31 18:00:00', '2026-01-09 08:00:00');
		expect(emitted(later, late)).toBe(true);
		expect(emitted(later, late)).toBe(false);
		expect(emitted(claimsFor(where, staticData, () => undefined), late)).toBe(false);
		// PP-1 again (its change already let go): not emitted.
		expect(emitted(later, paidAt('PP-1', '2026-01-01 09:00:00', '2026-01-01 10:00:00'))).toBe(false);
	});

	it('the test URL (no static data) keeps its own memory only', () => {
		const where = scope('manual');
		expect(claimsFor(where, undefined, () => undefined).claim('PP-a')).toBe(true);
		expect(claimsFor(where, undefined, () => undefined).claim('PP-a')).toBe(false);
		expect(claimsFor({ ...where, mode: 'webhook' }, {}, () => undefined).claim('PP-a')).toBe(true);
	});
});
