/**
 * PayOnUs Poll Trigger, one poll's steps (nodes/PayOnUsPollTrigger/poll.ts)
 * where the other poll tests do not look: settings are read before any
 * request; the cursor moves only after a whole poll; a stream no longer
 * watched keeps its cursor; Overlap (Days) is kept within 1 to 7. (What is
 * new: ./PayOnUsPollTrigger.node.test.ts and ./window.test.ts; its reads:
 * ./service.test.ts.)
 */
import type { IDataObject } from 'n8n-workflow';

import { createClient, fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));

import { clock } from '../../../nodes/PayOnUsPollTrigger/clock';
import { poll } from '../../../nodes/PayOnUsPollTrigger/poll';

const TODAY = '2026-01-15';
clock.now = () => Date.parse(`${TODAY}T12:00:00Z`);

/** Every list call answers `records` (filtered by nothing). */
function service(records: Record<'payins' | 'payouts', IDataObject[]>) {
	const asked: IDataObject[] = [];
	fakeClient.paginate.mockImplementation(async (opts: { path: string; qs: IDataObject }) => {
		asked.push(opts.qs);
		return (opts.path.includes('payment-requests') ? records.payins : records.payouts).map((r) => ({ ...r }));
	});
	return asked;
}

function context(params: IDataObject, staticData: IDataObject) {
	return {
		getNodeParameter: (name: string, fallback: unknown) => (name in params ? params[name] : fallback),
		getMode: () => 'trigger',
		getWorkflow: () => ({ id: 'wf-steps' }),
		getNode: () => ({ id: 'poll-steps', name: 'PayOnUs Poll Trigger', typeVersion: 1.2 }),
		getWorkflowStaticData: () => staticData,
	};
}

const record = (ref: string, status = 'PENDING') => ({
	onusReference: ref,
	paymentStatus: status,
	createdDate: `${TODAY} 10:00:00`,
	lastUpdatedDate: `${TODAY} 10:00:00`,
});

beforeEach(() => {
	fakeClient.paginate.mockReset();
	createClient.mockClear();
	fakeClient.defaults = { merchantId: 'MER-1001' };
});

describe('poll', () => {
	it('refuses an empty Watch before any client is made or request sent', async () => {
		await expect(poll(context({ watch: [] }, {}) as never)).rejects.toThrow(/Choose at least one thing to watch/);
		expect(createClient).not.toHaveBeenCalled();
		expect(fakeClient.paginate).not.toHaveBeenCalled();
	});

	it('moves the cursor only after a whole poll: a failed read leaves it as it was', async () => {
		const staticData: IDataObject = {};
		service({ payins: [record('ONUS-1')], payouts: [] });
		await poll(context({ watch: ['payins', 'payouts'] }, staticData) as never);
		const before = JSON.parse(JSON.stringify(staticData)) as IDataObject;

		fakeClient.paginate.mockImplementation(async (opts: { path: string }) => {
			if (opts.path.includes('transfer-requests')) throw new Error('service unreachable');
			return [record('ONUS-1'), record('ONUS-2')];
		});
		await expect(poll(context({ watch: ['payins', 'payouts'] }, staticData) as never)).rejects.toThrow(/unreachable/);
		expect(staticData).toEqual(before);

		// The next whole poll emits what the failed one had read.
		service({ payins: [record('ONUS-1'), record('ONUS-2')], payouts: [] });
		const out = await poll(context({ watch: ['payins', 'payouts'] }, staticData) as never);
		expect(out?.[0].map((i) => i.json.onusReference)).toEqual(['ONUS-2']);
	});

	it('keeps the cursor of a stream no longer watched (watching it again loses nothing, emits nothing twice)', async () => {
		const staticData: IDataObject = {};
		service({ payins: [], payouts: [record('ONUS-T1')] });
		await poll(context({ watch: ['payins', 'payouts'] }, staticData) as never);
		const payouts = (staticData.payonusPoll as IDataObject).payouts;

		await poll(context({ watch: ['payins'] }, staticData) as never);
		expect((staticData.payonusPoll as IDataObject).payouts).toEqual(payouts);

		service({ payins: [], payouts: [record('ONUS-T1'), record('ONUS-T2')] });
		const out = await poll(context({ watch: ['payins', 'payouts'] }, staticData) as never);
		expect(out?.[0].map((i) => [i.json.onusReference, i.json.resource, i.json.change])).toEqual([['ONUS-T2', 'payout', 'new']]);
	});

	it.each([
		[0, '2026-01-14'],
		[3, '2026-01-12'],
		[30, '2026-01-08'],
		['x', '2026-01-14'],
	])('Overlap (Days) %p reads from %s (kept within 1 to 7)', async (overlapDays, fromDate) => {
		const asked = service({ payins: [], payouts: [] });
		await poll(context({ watch: ['payins'], options: { overlapDays } }, {}) as never);
		expect(asked.map((qs) => qs.fromDate)).toEqual([fromDate]);
	});
});
