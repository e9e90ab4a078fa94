/**
 * Issue 36, rule 3 for every kind of event the trigger handles: each is
 * Confirmed at its first delivery and never again after its key left the
 * memory (a day later, after a restart beyond the persisted keys), by what
 * dates it (docs/reliability.md, rule 3's table):
 * - a card tokenization completion: its card token's createdDate, read back;
 *   nothing to read it with (no Merchant ID): Unconfirmed once the memory let
 *   events go (fail closed);
 * - a REFUND (never read back) and any signed event with Confirm With the
 *   Service off: the date stamped in its signed onusReference.
 * Each replay case was Confirmed again on main before this change.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { fakeClient } from '../fakes/transport';
jest.mock('../../../nodes/shared/transport', () => jest.requireActual('../fakes/transport'));
import { KEY, resetNotifications, webhookRequest } from '../fakes/notifications';

import { PERSISTED_KEYS } from '../../../nodes/PayOnUsTrigger/claim';
import { CONFIRM_TIMING } from '../../../nodes/PayOnUsTrigger/confirm';
import { clock as triggerClock } from '../../../nodes/PayOnUsTrigger/clock';
import { resetSeenKeys } from '../../../nodes/PayOnUsTrigger/claim';

const hashOf = (b: IDataObject) =>
	createHash('sha256').update(`${String(b.accountNumber)}${String(b.onusReference)}${String(b.paymentStatus)}${KEY}`).digest('hex');

/** Service time n minutes after 2025-01-01 10:00. */
const at = (n: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, 0) + n * 60_000).toISOString().slice(0, 19).replace('T', ' ');
/** The reference stamp of that time (DDMMYYYY-HHMMSS). */
const stamp = (n: number) => {
	const [d, t] = at(n).split(' ');
	const [y, m, day] = d.split('-');
	return `${day}${m}${y}-${t.replace(/:/g, '')}`;
};
const ref = (type: string, n: number) => `ONUS-${type}-${String(1_000_000_000_000 + n)}-${stamp(n)}`;

/** The fake service: payins (for collections), tokenization links and their card tokens. */
const payins = new Map<string, IDataObject>();
const links = new Map<string, { tokenId: string; tokenCreated: string }>();

function serve(): void {
	fakeClient.request.mockImplementation(async (opts: { path: string; qs?: IDataObject }) => {
		if (opts.path === '/api/v1/payment-requests') {
			const r = payins.get(String(opts.qs?.onusReference ?? ''));
			return { content: r ? [{ ...r }] : [], lastPage: 1, totalNumberOfItems: r ? 1 : 0 };
		}
		const link = /^\/api\/v1\/card-tokenization-links\/([^/]+)$/.exec(opts.path);
		if (link) {
			const l = links.get(link[1]);
			if (!l) throw Object.assign(new Error('404 Not Found'), { httpCode: '404', statusCode: 404 });
			return { id: link[1], status: 'COMPLETED', businessId: 'BUS-2001', cardTokenId: l.tokenId };
		}
		if (opts.path === '/api/v1/card-tokens') {
			const found = [...links.values()].filter((l) => l.tokenId === opts.qs?.id);
			const content = found.map((l) => ({ id: l.tokenId, businessId: 'BUS-2001', maskedPan: '411111******1111', createdDate: l.tokenCreated }));
			return { content, pageNo: 1, lastPage: 1, totalNumberOfItems: content.length };
		}
		throw new Error(`unexpected call ${opts.path}`);
	});
}

let staticData: IDataObject = {};
let clock = Date.UTC(2025, 0, 2, 12);

async function deliver(body: IDataObject, params: IDataObject = {}) {
	const out = await webhookRequest({
		body,
		hash: body.event === undefined ? hashOf(body) : undefined,
		params: { events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'], options: {}, ...params },
		workflowId: 'wf-kinds',
		nodeId: 'node-k',
		staticData,
	});
	return {
		status: out.response.status,
		duplicate: (out.response.body as IDataObject | undefined)?.duplicate === true,
		confirmed: out.confirmed,
		unconfirmed: out.notConfirmed,
		reason: String((out.notConfirmed[0]?.confirmation as IDataObject | undefined)?.reason ?? ''),
	};
}

/** A collection whose record changed at minute n (its key, let go, raises the memory's horizon). */
async function collection(n: number) {
	const onusReference = ref('NUB', n);
	payins.set(onusReference, {
		onusReference, paymentStatus: 'SUCCESSFUL', amount: 10, currency: 'NGN', businessId: 'BUS-2001', createdDate: at(n), lastUpdatedDate: at(n),
	});
	return await deliver({ type: 'COLLECTION', businessId: 'BUS-2001', accountNumber: '0123456789', onusReference, paymentStatus: 'SUCCESSFUL', transactionAmount: 10 });
}

/** A link completed at minute n (its card token created then), and its notification. */
function completion(n: number): IDataObject {
	links.set(`ctl_${n}`, { tokenId: `tok_${n}`, tokenCreated: at(n) });
	return { event: 'card_tokenization_link.completed', cardTokenizationLinkId: `ctl_${n}`, cardTokenId: `tok_${n}`, businessId: 'BUS-2001', status: 'COMPLETED' };
}

const refund = (n: number): IDataObject => ({
	type: 'REFUND', businessId: 'BUS-2001', accountNumber: '0123456789', onusReference: ref('RFND', n), paymentStatus: 'SUCCESSFUL', transactionAmount: 10,
});

const DAY = 24 * 60 * 60 * 1000;

beforeAll(() => {
	CONFIRM_TIMING.pauseMs = 0;
	triggerClock.now = () => clock;
});
afterAll(() => {
	triggerClock.now = () => Date.now();
});
beforeEach(() => {
	resetNotifications();
	payins.clear();
	links.clear();
	staticData = {};
	clock = Date.UTC(2025, 0, 2, 12);
	serve();
});

describe('a card tokenization completion is new by its card token (rule 3)', () => {
	it('a day later (the memory let it go): the replay goes to Unconfirmed, never Confirmed; a later completion is Confirmed', async () => {
		const first = completion(1);
		expect((await deliver(first)).confirmed).toHaveLength(1);
		expect((await deliver(first)).duplicate).toBe(true);
		clock += DAY + 60_000;
		const replay = await deliver(first);
		expect(replay.status).toBe(200);
		expect(replay.confirmed).toEqual([]);
		expect(replay.unconfirmed).toHaveLength(1);
		expect(replay.reason).toContain('may have been handled already');
		expect(replay.reason).toContain('card token tok_1 (link ctl_1)');
		for (let i = 0; i < 3; i++) {
			const again = await deliver(first);
			expect([again.confirmed.length, again.unconfirmed.length]).toEqual([0, 0]);
		}
		// A completion made after the horizon, at any age of the memory: Confirmed.
		expect((await deliver(completion(2))).confirmed).toHaveLength(1);
	});

	it('after a restart beyond the persisted keys: not Confirmed again; a new completion is', async () => {
		const first = completion(1);
		expect((await deliver(first)).confirmed).toHaveLength(1);
		for (let n = 2; n <= PERSISTED_KEYS + 3; n++) expect((await collection(n)).confirmed).toHaveLength(1);
		resetSeenKeys(); // a restart: the process memory gone, static data kept
		const replay = await deliver(first);
		expect(replay.confirmed).toEqual([]);
		expect(replay.unconfirmed).toHaveLength(1);
		expect(replay.reason).toContain('may have been handled already');
		expect((await deliver(completion(PERSISTED_KEYS + 10))).confirmed).toHaveLength(1);
	});

	it('nothing to date it with (no Merchant ID): Confirmed while the memory holds everything, Unconfirmed once it let events go', async () => {
		fakeClient.defaults = {};
		expect((await deliver(completion(1))).confirmed).toHaveLength(1);
		expect((await collection(2)).confirmed).toHaveLength(1);
		clock += DAY + 60_000;
		const replay = await deliver(completion(1));
		expect(replay.confirmed).toEqual([]);
		expect(replay.reason).toContain('nothing dates this completion (no Merchant ID to read its card token with)');
		expect(replay.reason).toContain('may have been handled already');
	});
});

describe('events not read back are dated by their signed onusReference (rule 3)', () => {
	it('a REFUND replayed a day later goes to Unconfirmed; a later refund is Confirmed', async () => {
		expect((await deliver(refund(1))).confirmed).toHaveLength(1);
		clock += DAY + 60_000;
		const replay = await deliver(refund(1));
		expect(replay.confirmed).toEqual([]);
		expect(replay.unconfirmed).toHaveLength(1);
		expect(replay.reason).toContain('the date stamped in its signed onusReference dates it');
		expect(replay.reason).toContain('may have been handled already');
		expect((await deliver(refund(1))).duplicate).toBe(true);
		expect((await deliver(refund(2))).confirmed).toHaveLength(1);
	});

	it('Confirm With the Service off: a COLLECTION replayed after a restart beyond the persisted keys goes to Unconfirmed', async () => {
		const off = { confirmWithService: false };
		const body = (n: number): IDataObject => ({
			type: 'COLLECTION', businessId: 'BUS-2001', accountNumber: '0123456789', onusReference: ref('NUB', n), paymentStatus: 'SUCCESSFUL', transactionAmount: 10,
		});
		for (let n = 1; n <= PERSISTED_KEYS + 3; n++) expect((await deliver(body(n), off)).confirmed).toHaveLength(1);
		resetSeenKeys();
		const replay = await deliver(body(1), off);
		expect(replay.confirmed).toEqual([]);
		expect(replay.unconfirmed).toHaveLength(1);
		expect((await deliver(body(PERSISTED_KEYS + 3), off)).duplicate).toBe(true);
		expect((await deliver(body(PERSISTED_KEYS + 10), off)).confirmed).toHaveLength(1);
		expect(fakeClient.request).not.toHaveBeenCalled();
	});
});
