/** The Poll Trigger's cursor (cursor.ts): what it remembers, from where it reads, and state it cannot read. */
import { advance, readFrom, readStream } from '../../../nodes/PayOnUsPollTrigger/cursor';

describe('cursor', () => {
	it('prunes remembered keys that can no longer be read', () => {
		const today = '2025-03-10';
		const state = { cursor: '2025-03-01', seen: { 'old|PENDING': '2025-02-27', 'keep|PENDING': '2025-03-09' } };
		const r = advance(state, [{ onusReference: 'n', paymentStatus: 'PENDING', createdDate: '2025-03-10 01:00:00' }], {
			today,
			overlapDays: 1,
			baseline: false,
		});
		expect(r.next.cursor).toBe('2025-03-10');
		expect(Object.keys(r.next.seen).sort()).toEqual(['keep|PENDING', 'n|PENDING']);
	});

	it('never moves the read start past today for future-dated records', () => {
		const r = advance(undefined, [{ onusReference: 'f', paymentStatus: 'X', createdDate: '2030-01-01 00:00:00' }], {
			today: '2025-03-10',
			overlapDays: 1,
			baseline: true,
		});
		expect(r.next.cursor).toBe('2025-03-10');
		expect(readFrom(r.next, '2025-03-10', 1)).toBe('2025-03-09');
		expect(r.next.seen['f|X']).toBe('2030-01-01 00:00:00');
	});

	it('reads malformed state as empty', () => {
		expect(readStream('x')).toBeUndefined();
		expect(readStream({ cursor: 'nope', seen: { a: 'bad', b: '2025-01-01' } })).toEqual({ cursor: undefined, seen: { b: '2025-01-01' } });
	});
});
