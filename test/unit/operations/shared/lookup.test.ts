import type { IDataObject } from 'n8n-workflow';
import * as payin from '../../../../nodes/PayOnUs/resources/payin';
import * as payout from '../../../../nodes/PayOnUs/resources/payout';
import * as cardTokenization from '../../../../nodes/PayOnUs/resources/cardTokenization';
import * as wallet from '../../../../nodes/PayOnUs/resources/wallet';
import { findByReference, LOOKUP_MAX_PAGES, PAYMENT_REQUESTS, transfersOf } from '../../../../nodes/shared/moneyMoving';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { fakeClient } from '../../fakes';

/** A newest-first list of `total` records; `at` holds the one we look for. */
function list(total: number, at: number, record: IDataObject) {
	return Array.from({ length: total }, (_, i) => (i === at ? record : { reference: `x-${i}`, merchantReference: `x-${i}` }));
}

describe('lookup by reference (payins and transfers alike)', () => {
	it('payins: when the reference filter is ignored, scans the newest pages (page/size from 0) and checks the match', async () => {
		const mine = { reference: 'order-1', businessId: 'BUS-2001', onusReference: 'ONUS-1' };
		const records = list(250, 130, mine);
		const client = fakeClient((o: RequestOptions) => {
			const page = Number(o.qs?.page);
			const size = Number(o.qs?.size);
			return { content: records.slice(page * size, page * size + size), lastPage: Math.ceil(records.length / size) - 1 };
		});
		expect(await findByReference(client, PAYMENT_REQUESTS, 'BUS-2001', 'order-1')).toEqual(mine);
		expect(client.calls.map((c) => c.qs)).toEqual([
			{ reference: 'order-1', businessId: 'BUS-2001', page: 0, size: 20 },
			{ businessId: 'BUS-2001', page: 0, size: 100 },
			{ businessId: 'BUS-2001', page: 1, size: 100 },
		]);
	});

	it('payins: a record of another business is not ours, and an honoured filter ends the search', async () => {
		const client = fakeClient(() => ({ content: [{ reference: 'order-1', businessId: 'BUS-2002' }] }));
		expect(await findByReference(client, PAYMENT_REQUESTS, 'BUS-2001', 'order-1')).toBeUndefined();
		expect(client.calls).toHaveLength(1);
	});

	it('the scan is bounded, and hitting the bound is an error, never "not found"', async () => {
		// Issue 14: a bounded scan that stopped with more to read used to answer "not found" (then the call was resent).
		const client = fakeClient((o: RequestOptions) => ({
			content: Array.from({ length: 100 }, (_, i) => ({ merchantReference: `x-${String(o.qs?.pageNo)}-${i}`, onusReference: `O-${String(o.qs?.pageNo)}-${i}` })),
			lastPage: 1000,
		}));
		await expect(findByReference(client, transfersOf('MER-1001'), 'BUS-2001', 'pay-1')).rejects.toThrow(/bound of 100 pages/);
		expect(client.calls).toHaveLength(1 + LOOKUP_MAX_PAGES);
		expect(client.calls[LOOKUP_MAX_PAGES].qs).toEqual({ merchantId: 'MER-1001', businessId: 'BUS-2001', pageNo: LOOKUP_MAX_PAGES, pageSize: 100 });
	});
});

describe('operation descriptions (read by AI agents using the node as a tool)', () => {
	const all = [payin, payout, cardTokenization, wallet].flatMap((resource) => Object.values(resource));
	const moneyMoving = ['chargeCard', 'chargeTokenizedCard', 'mobileMoneyCollection', 'eftPayment', 'createDynamicAccount', 'createFixedAccount', 'createTransfer', 'bulkTransfer'];

	it('every money-moving operation says it moves money', () => {
		for (const value of moneyMoving) {
			const op = all.find((o) => o.value === value)!;
			expect(`${value}: ${op.description}`).toMatch(/moves money/);
		}
	});

	it('every operation says what it returns', () => {
		for (const op of all) expect(`${op.value}: ${op.description}`).toMatch(/Returns /);
	});
});
