/**
 * Return All fetching pages ahead (nodes/shared/api/paging.ts, `parallel`):
 * once the first page tells how many pages there are, the others are asked
 * for together; the records come back in list order, the walk ends by the
 * same rules, and a page that fails fails the whole list (never a partial one).
 */
import type { IDataObject } from 'n8n-workflow';
import { collectPages } from '../../../../nodes/shared/api/paging';

function list(total: number, cap = Infinity) {
	const records = Array.from({ length: total }, (_, i) => ({ id: `R${i}` }));
	const t: { inFlight: number; peak: number; asked: number[]; failPage?: number } = { inFlight: 0, peak: 0, asked: [] };
	const get = async (_path: string, qs: IDataObject) => {
		const page = Number(qs.page);
		const size = Math.min(Number(qs.size), cap);
		t.asked.push(page);
		t.inFlight++;
		t.peak = Math.max(t.peak, t.inFlight);
		// Later pages answer first.
		await new Promise((r) => setTimeout(r, Math.max(0, 30 - page)));
		t.inFlight--;
		if (t.failPage === page) throw new Error(`page ${page} failed`);
		return {
			content: records.slice(page * size, (page + 1) * size),
			pageNo: page,
			pageSize: size,
			totalNumberOfItems: total,
			lastPage: Math.max(0, Math.ceil(total / size) - 1),
		};
	};
	return { records, t, get };
}

const opts = { path: '/x', style: 'zeroBased' as const, pageSize: 100, maxPages: 10_000 };

describe('Return All with pages fetched ahead', () => {
	it('asks the pages together once the first tells the count, and returns every record in order', async () => {
		const { records, t, get } = list(2050);
		const out = await collectPages(get, { ...opts, parallel: 8 });
		expect(out).toEqual(records);
		expect(t.asked[0]).toBe(0);
		expect(t.peak).toBe(8);
		expect(new Set(t.asked).size).toBe(21);
		expect(t.asked).toHaveLength(21);
	});

	it('without `parallel`, one page after another (as before)', async () => {
		const { records, t, get } = list(450);
		expect(await collectPages(get, opts)).toEqual(records);
		expect(t.peak).toBe(1);
	});

	it('a service capping the page size below the size asked (stated in the answer): still every record, in order', async () => {
		const { records, get } = list(333, 20);
		expect(await collectPages(get, { ...opts, parallel: 16 })).toEqual(records);
	});

	it('a page that fails fails the whole list: never a partial result', async () => {
		const { t, get } = list(1000);
		t.failPage = 6;
		await expect(collectPages(get, { ...opts, parallel: 8 })).rejects.toThrow('page 6 failed');
	});

	it('with a limit, asks only the pages the limit needs', async () => {
		const { records, t, get } = list(5000);
		const out = await collectPages(get, { ...opts, pageSize: 100, limit: 250, parallel: 8 });
		expect(out).toEqual(records.slice(0, 250));
		expect(t.asked.length).toBeLessThanOrEqual(3);
	});
});
