/**
 * PayOnUs Poll Trigger, its reads (nodes/PayOnUsPollTrigger/service.ts): which
 * list, which query, every page or the first few, once per business asked
 * for, and the records of other businesses dropped whatever the service sent.
 */
import type { IDataObject } from 'n8n-workflow';
import type { PaginateOptions, PayOnUsClient } from '../../../nodes/shared/clientInterface';
import { readRecords, type ListQuery } from '../../../nodes/PayOnUsPollTrigger/service';

/** A client whose lists answer `answer(opts)`, recording every list call. */
function client(answer: (opts: PaginateOptions) => IDataObject[] = () => []) {
	const calls: PaginateOptions[] = [];
	const c = {
		request: jest.fn(),
		paginate: jest.fn(async (opts: PaginateOptions) => {
			calls.push(opts);
			return answer(opts);
		}),
		environment: 'sandbox',
		defaults: {},
	} as unknown as PayOnUsClient;
	return { c, calls };
}

const query = (q: Partial<ListQuery> = {}): ListQuery => ({ statuses: [], businessIds: [], merchantId: 'MER-1001', ...q });

describe('readRecords', () => {
	it('payins: the payment requests from the day asked for, every page of 30, numbered from 0, no Merchant ID', async () => {
		const { c, calls } = client(() => [{ onusReference: 'ONUS-1' }]);
		expect(await readRecords(c, 'payins', query({ fromDate: '2026-01-14' }))).toEqual([{ onusReference: 'ONUS-1' }]);
		expect(calls).toEqual([
			expect.objectContaining({ path: '/api/v1/payment-requests', style: 'zeroBased', qs: { fromDate: '2026-01-14' }, returnAll: true, pageSize: 30 }),
		]);
	});

	it('payouts: the transfer requests with the Merchant ID, numbered from 1', async () => {
		const { c, calls } = client();
		await readRecords(c, 'payouts', query({ fromDate: '2026-01-14' }));
		expect(calls).toEqual([
			expect.objectContaining({ path: '/api/v1/transfer-requests', style: 'fromOne', qs: { fromDate: '2026-01-14', merchantId: 'MER-1001' } }),
		]);
	});

	it('asks the service for a status only when one is selected (with several, every status is read)', async () => {
		const one = client();
		await readRecords(one.c, 'payins', query({ statuses: ['SUCCESSFUL'] }));
		expect(one.calls[0].qs).toEqual({ status: 'SUCCESSFUL' });
		const two = client();
		await readRecords(two.c, 'payins', query({ statuses: ['SUCCESSFUL', 'FAILED'] }));
		expect(two.calls[0].qs).toEqual({});
	});

	it('asks once per business, and drops the records of businesses not asked for (a record naming none is kept)', async () => {
		const { c, calls } = client((opts) => [
			{ onusReference: `A-${String(opts.qs?.businessId)}`, businessId: opts.qs?.businessId },
			{ onusReference: `OTHER-${String(opts.qs?.businessId)}`, businessId: 'BUS-9' },
			{ onusReference: `NONE-${String(opts.qs?.businessId)}` },
		]);
		const records = await readRecords(c, 'payins', query({ businessIds: ['BUS-1', 'BUS-2'] }));
		expect(calls.map((o) => o.qs?.businessId)).toEqual(['BUS-1', 'BUS-2']);
		expect(records.map((r) => r.onusReference)).toEqual(['A-BUS-1', 'NONE-BUS-1', 'A-BUS-2', 'NONE-BUS-2']);
	});

	it('with a limit (Fetch Test Event): the first records of each business, not every page', async () => {
		const { c, calls } = client();
		await readRecords(c, 'payins', query({ businessIds: ['BUS-1', 'BUS-2'] }), 50);
		expect(calls.map((o) => [o.returnAll, o.limit])).toEqual([
			[false, 50],
			[false, 50],
		]);
	});
});
