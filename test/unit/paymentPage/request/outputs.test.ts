/** Payment Page, step "emit" (request/outputs.ts): the items one request hands n8n. */
import { emitting, PageOutputs, simplified } from '../../../../nodes/PayOnUsPaymentPage/request/outputs';

function claims(taken: string[] = []) {
	const seen = new Set(taken);
	const calls: unknown[][] = [];
	return {
		calls,
		claim: (key: string, date?: unknown) => {
			calls.push([key, date]);
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		},
	};
}

describe('emitting', () => {
	it('emits the Paid item only when this request claims its checkout (with its payin record)', () => {
		const outputs = new PageOutputs();
		const c = claims(['PP-taken']);
		const { emit } = emitting(outputs, c, false);
		expect(emit({ onusReference: 'X', createdDate: '2026-01-01 10:00:00' }, 'PP-taken')).toBe(false);
		expect(outputs.any).toBe(false);
		expect(emit({ onusReference: 'Y' }, 'PP-new')).toBe(true);
		expect(outputs.paid).toEqual({ onusReference: 'Y' });
		// The whole payin goes with the claim: past the memory, its last change decides (rule 3).
		expect(c.calls).toEqual([
			['PP-taken', { onusReference: 'X', createdDate: '2026-01-01 10:00:00' }],
			['PP-new', { onusReference: 'Y' }],
		]);
	});

	it('has Not Paid only with the option, each key once', () => {
		expect(emitting(new PageOutputs(), claims(), false).emitNotPaid).toBeUndefined();
		const outputs = new PageOutputs();
		const { emitNotPaid } = emitting(outputs, claims(), true);
		expect(emitNotPaid!({ outcome: 'failed' }, 'PP-a:failed:1')).toBe(true);
		expect(emitNotPaid!({ outcome: 'failed' }, 'PP-a:failed:1')).toBe(false);
		expect(outputs.workflowData()).toEqual([[], [{ json: { outcome: 'failed' } }]]);
	});
});

describe('PageOutputs.workflowData', () => {
	it('Paid first, Not Paid only when there is any', () => {
		const outputs = new PageOutputs();
		outputs.paid = { a: 1 };
		expect(outputs.workflowData()).toEqual([[{ json: { a: 1 } }]]);
		outputs.notPaid.push({ b: 2 });
		expect(outputs.workflowData()).toEqual([[{ json: { a: 1 } }], [{ json: { b: 2 } }]]);
	});
});

describe('simplified', () => {
	const record = { onusReference: 'ONUS-1', merchantCheckoutReference: 'PP-1', paymentStatus: 'SUCCESSFUL', amount: 5000, extra1: 1, extra2: 2 };

	it('leaves an answer without items alone, and does not read Simplify for it', () => {
		const read = jest.fn(() => true);
		const result = { noWebhookResponse: true };
		expect(simplified(result, read)).toBe(result);
		expect(read).not.toHaveBeenCalled();
	});

	it('Simplify on: each output in its short shape; off: the items as they are', () => {
		const result = { workflowData: [[{ json: record }], [{ json: { ...record, outcome: 'failed' } }]], webhookResponse: 'x' };
		expect(simplified(result, () => false)).toBe(result);
		const short = simplified(result, () => true);
		expect(short.webhookResponse).toBe('x');
		expect(short.workflowData![0][0].json).toHaveProperty('merchantCheckoutReference', 'PP-1');
		expect(short.workflowData![0][0].json).not.toHaveProperty('extra1');
		expect(short.workflowData).toHaveLength(2);
	});
});
