import type { IDataObject } from 'n8n-workflow';
import { reconcile as op, RECONCILE_PAGE_SIZE } from '../../../../nodes/PayOnUs/resources/reconciliation/reconcile';
import type { RequestOptions } from '../../../../nodes/shared/clientInterface';
import { context, fakeClient } from '../../fakes';

const input = (over: IDataObject = {}) =>
	op.schema.parse({
		records: 'payouts',
		businessId: '',
		fromDate: '2024-05-01',
		toDate: '2024-05-31',
		referenceField: 'reference',
		amountField: 'amount',
		currencyField: 'currency',
		statusField: 'status',
		...over,
	});

const transfer = (ref: string, amount: number, status = 'SUCCESSFUL', created = '2024-05-10T10:00:00', businessId = 'BUS-2001') => ({
	onusReference: `ONUS-${ref}`,
	merchantReference: ref,
	businessId,
	amount,
	currency: 'NGN',
	paymentStatus: status,
	createdDate: created,
});

/** The service's list, served in pages of `size` (pageNo from 1). */
function pagedService(records: IDataObject[], size = 2) {
	return fakeClient((o: RequestOptions) => {
		const qs = o.qs as IDataObject;
		const page = Number(qs.pageNo ?? Number(qs.page) + 1);
		const content = records.slice((page - 1) * size, page * size);
		return { content, totalNumberOfItems: records.length, pageSize: size };
	});
}

describe('reconcile', () => {
	const service = [
		transfer('r-match', 100),
		transfer('r-amount', 250),
		transfer('r-status', 300, 'FAILED'),
		transfer('r-theirs', 40),
		transfer('r-old', 10, 'SUCCESSFUL', '2024-04-30T23:59:59'),
		transfer('r-other-biz', 10, 'SUCCESSFUL', '2024-05-02T00:00:00', 'BUS-9'),
	];
	const ours = [
		{ reference: 'r-match', amount: '100.00', currency: 'ngn', status: 'successful' },
		{ reference: 'r-amount', amount: 205, currency: 'NGN' },
		{ reference: 'r-status', amount: 300, status: 'SUCCESSFUL' },
		{ reference: 'r-ours', amount: 5 },
		{ reference: 'r-old', amount: 10 },
	];

	it('puts each record in one category, walking every page', async () => {
		const client = pagedService(service);
		const out = (await op.execute(context(client, { items: ours }), input({ businessId: 'BUS-2001' }))) as IDataObject[];
		const byRef = Object.fromEntries(out.map((o) => [o.reference, o]));
		expect(Object.fromEntries(out.map((o) => [o.reference, o.category]))).toEqual({
			'r-match': 'matched',
			'r-amount': 'amountDiffers',
			'r-status': 'statusDiffers',
			'r-theirs': 'missingOnOurSide',
			'r-ours': 'missingAtService',
			// Created before the window: ignored on the service side, so ours is missing there.
			'r-old': 'missingAtService',
		});
		expect(byRef['r-amount'].differences).toEqual(['amount: ours 205, service 250']);
		expect(byRef['r-status'].differences).toEqual(['status: ours SUCCESSFUL, service FAILED']);
		expect(byRef['r-theirs']).toMatchObject({ ours: null, service: { onusReference: 'ONUS-r-theirs', amount: 40 } });
		expect(byRef['r-ours']).toMatchObject({ ours: { item: 4, amount: 5 }, service: null });
		// Three pages of two, each asked with the window, the merchant and the business.
		expect(client.calls.map((c) => (c.qs as IDataObject).pageNo)).toEqual([1, 2, 3]);
		expect(client.calls[0]).toMatchObject({
			method: 'GET',
			path: '/api/v1/transfer-requests',
			qs: { merchantId: 'MER-1001', businessId: 'BUS-2001', fromDate: '2024-05-01', toDate: '2024-05-31', pageSize: RECONCILE_PAGE_SIZE },
		});
	});

	it('amount and status both differing is amountDiffers, with both differences', async () => {
		const out = (await op.execute(
			context(pagedService([transfer('x', 1, 'FAILED')]), { items: [{ reference: 'x', amount: 2, status: 'SUCCESSFUL' }] }),
			input(),
		)) as IDataObject[];
		expect(out).toEqual([
			expect.objectContaining({ category: 'amountDiffers', differences: ['amount: ours 2, service 1', 'status: ours SUCCESSFUL, service FAILED'] }),
		]);
	});

	it('payins: the payment requests list, zero-based pages', async () => {
		const client = pagedService([{ onusReference: 'ONUS-P', reference: 'p-1', amount: 5, currency: 'NGN', paymentStatus: 'SUCCESSFUL', createdDate: '2024-05-03T00:00:00' }]);
		const out = (await op.execute(context(client, { items: [{ reference: 'p-1', amount: 5 }] }), input({ records: 'payins' }))) as IDataObject[];
		expect(out.map((o) => o.category)).toEqual(['matched']);
		expect(client.calls[0]).toMatchObject({ path: '/api/v1/payment-requests', qs: { page: 0, size: RECONCILE_PAGE_SIZE } });
	});

	it('refuses an item without a reference and a window ending before it starts', async () => {
		await expect(op.execute(context(pagedService([]), { items: [{ amount: 1 }] }), input())).rejects.toThrow('Field "reference" (the reference) is missing [item 0]');
		expect(op.schema.safeParse({ ...input(), fromDate: '2024-06-01' }).success).toBe(false);
	});

	describe('references held more than once', () => {
		const run = async (records: IDataObject[], items: IDataObject[], businessId = '') =>
			((await op.execute(context(pagedService(records), { items }), input({ businessId }))) as IDataObject[]).map((o) => [
				o.category,
				(o.ours as IDataObject | null)?.item ?? null,
				(o.service as IDataObject | null)?.businessId ?? null,
			]);

		it('our ledger holding a reference twice against one service record: duplicateOnOurSide for each, never matched', async () => {
			expect(await run([transfer('d', 10)], [{ reference: 'd', amount: 10 }, { reference: 'd', amount: 10 }], 'BUS-2001')).toEqual([
				['duplicateOnOurSide', 1, 'BUS-2001'],
				['duplicateOnOurSide', 2, 'BUS-2001'],
			]);
		});

		it('our ledger holding a reference twice that the service lacks: duplicateOnOurSide', async () => {
			expect(await run([], [{ reference: 'd' }, { reference: 'd' }], 'BUS-2001')).toEqual([
				['duplicateOnOurSide', 1, null],
				['duplicateOnOurSide', 2, null],
			]);
		});

		it('the service holding a reference twice in one business: duplicateAtService for ours and each record', async () => {
			const twice = [transfer('s', 10), { ...transfer('s', 10), onusReference: 'ONUS-s-2' }];
			expect(await run(twice, [{ reference: 's', amount: 10 }], 'BUS-2001')).toEqual([
				['duplicateAtService', 1, null],
				['duplicateAtService', null, 'BUS-2001'],
				['duplicateAtService', null, 'BUS-2001'],
			]);
		});

		it('no Business ID: one of our records against the reference in two businesses is ambiguousBusiness; the unbooked one shows', async () => {
			const both = [transfer('b', 10), { ...transfer('b', 10, 'SUCCESSFUL', '2024-05-10T10:00:00', 'BUS-2002'), onusReference: 'ONUS-b-2' }];
			expect(await run(both, [{ reference: 'b', amount: 10 }])).toEqual([
				['ambiguousBusiness', 1, null],
				['ambiguousBusiness', null, 'BUS-2001'],
				['ambiguousBusiness', null, 'BUS-2002'],
			]);
		});

		it('no Business ID and none of ours: each business\'s record is missingOnOurSide', async () => {
			const both = [transfer('m', 10), { ...transfer('m', 10, 'SUCCESSFUL', '2024-05-10T10:00:00', 'BUS-2002'), onusReference: 'ONUS-m-2' }];
			expect(await run(both, [{ reference: 'other' }])).toEqual([
				['missingOnOurSide', null, 'BUS-2001'],
				['missingOnOurSide', null, 'BUS-2002'],
				['missingAtService', 1, null],
			]);
		});

		it('a status the spec does not list is compared, never matched against SUCCESSFUL; a text amount is read', async () => {
			const out = await op.execute(
				context(pagedService([transfer('p', 10, 'PROCESSING'), { ...transfer('r', 10, 'REJECTED'), amount: '10.00' }]), {
					items: [{ reference: 'p', amount: 10, status: 'SUCCESSFUL' }, { reference: 'r', amount: 10, status: 'SUCCESSFUL' }],
				}),
				input(),
			);
			expect((out as IDataObject[]).map((o) => [o.category, (o.service as IDataObject).amount])).toEqual([
				['statusDiffers', 10],
				['statusDiffers', 10],
			]);
		});
	});
});

describe('reconcile reads values one way and its output never runs as a formula (rule 7, issue 36)', () => {
	it('a reference given as a number is refused: it may have lost its leading zeros', async () => {
		await expect(op.execute(context(pagedService([]), { items: [{ reference: 12345, amount: 1 }] }), input())).rejects.toThrow(
			'Field "reference" (the reference) must be text, not the number 12345: a number loses leading zeros',
		);
	});

	it.each([
		['1,500', '"1,500" can be read as 1500 or 1.50'],
		['1.500', '"1.500" can be read as 1500 or 1.50'],
		['150,50', 'write 150.50'],
	])('an amount written %j is refused naming the form to write, never compared as another amount', async (amount, hint) => {
		await expect(op.execute(context(pagedService([transfer('x', 1.5)]), { items: [{ reference: 'x', amount }] }), input())).rejects.toThrow(hint);
	});

	it("text a spreadsheet would run as a formula starts with ' in the output (a report people export)", async () => {
		const evil = '=HYPERLINK("http://evil.example","Refund")';
		const out = (await op.execute(
			context(pagedService([{ ...transfer(evil, 10), onusReference: '@ONUS-1' }, transfer('ok-1', 5)]), { items: [{ reference: 'ok-1', amount: 5, status: '+SUCCESSFUL' }] }),
			input(),
		)) as IDataObject[];
		const byService = Object.fromEntries(out.map((o) => [String((o.service as IDataObject).onusReference), o]));
		expect(byService["'@ONUS-1"]).toMatchObject({ category: 'missingOnOurSide', reference: `'${evil}` });
		expect(byService['ONUS-ok-1']).toMatchObject({ reference: 'ok-1', ours: { status: "'+SUCCESSFUL", amount: 5 } });
		expect(JSON.stringify(out)).not.toMatch(/":"[=+\-@]/);
	});
});
