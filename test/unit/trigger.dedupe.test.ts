/**
 * The pure pieces of repeat suppression: the dedupe key of a notification
 * (signed fields only) and the per-scope registries under nodes/shared/claim
 * (used by the PayOnUs Trigger and the Payment Page).
 */
import { dedupeKey, openMemory, resetSeenKeys } from '../../nodes/PayOnUsTrigger/claim';
import { EVENTS } from '../../nodes/PayOnUsTrigger/notification';
import { SeenRegistry } from '../../nodes/shared/claim';

const signed = {
	type: 'COLLECTION',
	accountNumber: '0123456789',
	onusReference: 'ONUS-NUB-1-01012025-101010',
	paymentStatus: 'SUCCESSFUL',
	transactionAmount: 5000,
	businessId: 'BUS-1',
};

describe('dedupeKey', () => {
	it('is a 16-character digest that depends on the signed fields only', () => {
		const key = dedupeKey(EVENTS.collection, signed);
		expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
		// Unsigned fields and the type (also unsigned) do not change it.
		expect(dedupeKey(EVENTS.payout, { ...signed, type: 'PAYOUT', transactionAmount: 1, businessId: 'BUS-9' })).toBe(key);
		// Each signed field does.
		for (const field of ['accountNumber', 'onusReference', 'paymentStatus'] as const) {
			expect(dedupeKey(EVENTS.collection, { ...signed, [field]: `${signed[field]}x` })).not.toBe(key);
		}
		// No field can stand in for its neighbour (the identity is a list, not a concatenation).
		expect(dedupeKey(EVENTS.collection, { ...signed, accountNumber: '01234', onusReference: `56789${signed.onusReference}` })).not.toBe(key);
	});

	it('keys a tokenization notification by link id and status', () => {
		const body = { event: 'card_tokenization_link.completed', cardTokenizationLinkId: 'ctl_1', status: 'COMPLETED', cardTokenId: 't' };
		const key = dedupeKey(EVENTS.cardTokenizationLinkCompleted, body);
		expect(dedupeKey(EVENTS.cardTokenizationLinkCompleted, { ...body, cardTokenId: 'other' })).toBe(key);
		expect(dedupeKey(EVENTS.cardTokenizationLinkCompleted, { ...body, cardTokenizationLinkId: 'ctl_2' })).not.toBe(key);
		expect(dedupeKey(EVENTS.cardTokenizationLinkCompleted, { ...body, status: 'PENDING' })).not.toBe(key);
	});
});

describe('SeenRegistry', () => {
	const window = { ttlMs: 1000, maxEntries: 10 };

	it('keeps one memory per scope, and registries apart', () => {
		const a = new SeenRegistry();
		const b = new SeenRegistry();
		expect(a.for('s', window)).toBe(a.for('s', window));
		expect(a.for('s', window)).not.toBe(a.for('t', window));
		expect(a.for('s', window)).not.toBe(b.for('s', window));
		a.for('s', window).checkAndAdd('k', 0);
		expect(b.for('s', window).has('k', 0)).toBe(false);
	});

	it('drops the oldest scope beyond its bound, and forgets all on clear', () => {
		const r = new SeenRegistry(2);
		const first = r.for('1', window);
		r.for('2', window);
		r.for('3', window);
		expect(r.for('1', window)).not.toBe(first);
		const again = r.for('2', window);
		r.clear();
		expect(r.for('2', window)).not.toBe(again);
	});

	it("the trigger's registry is reset by resetSeenKeys", () => {
		const scope = { workflowId: 'wf', nodeId: 'node', mode: 'webhook' };
		const before = openMemory(scope, 0, () => ({})).seen;
		before.claim('k', 0);
		resetSeenKeys();
		expect(openMemory(scope, 0, () => ({})).seen.has('k', 0)).toBe(false);
	});
});
