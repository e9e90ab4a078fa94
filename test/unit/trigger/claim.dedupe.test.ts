/**
 * The pure pieces of repeat suppression: the dedupe key of a notification
 * (signed fields only) and the reset of the trigger's memory (the per-scope
 * cases of the mechanism are in shared/claim.test.ts).
 */
import { claimEvent, dedupeKey, resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';
import { EVENTS } from '../../../nodes/PayOnUsTrigger/notification';

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

describe("the trigger's memory", () => {
	it('is reset by resetSeenKeys (a restart)', () => {
		const scope = { workflowId: 'wf', nodeId: 'node', mode: 'webhook', staticData: () => ({}) };
		const event = { event: EVENTS.collection, body: signed, receivedAt: new Date(0) };
		expect(claimEvent(scope, event, false, 0)).toBeDefined();
		expect(claimEvent(scope, event, false, 0)).toBeUndefined();
		resetSeenKeys();
		expect(claimEvent(scope, event, false, 0)).toBeDefined();
	});
});
