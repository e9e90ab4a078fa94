/**
 * Safety edges of the webhook side (issue 22, points 2-5 and 12): the PayOnUs
 * Trigger's seen/held memories, the payment page's emitted-checkout memory
 * and partial payments, the poll trigger's key bound.
 *
 * In-process rows run this package's node code with n8n-core's real request
 * helpers (dev/inProcessN8n.ts) against an in-process sandbox whose
 * records the sandbox API made; time is injected (each node's clock.ts); a restart is
 * the process memory reset with static data kept (the real-n8n restart is in
 * test/e2e/trigger.confirm.test.ts). `--trigger-bound=N` replays past N events
 * instead of the real 10,000 (quicker; same mechanism).
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { PayOnUsApi } from '../../credentials/PayOnUsApi.credentials';
import { PayOnUsTrigger } from '../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { DEDUPE_WINDOW, PERSISTED_KEYS, resetSeenKeys } from '../../nodes/PayOnUsTrigger/claim';
import { CONFIRM_TIMING } from '../../nodes/PayOnUsTrigger/confirm';
import { clock as triggerClock } from '../../nodes/PayOnUsTrigger/clock';
import { clock as pageClock } from '../../nodes/PayOnUsPaymentPage/clock';
import { claimsFor } from '../../nodes/PayOnUsPaymentPage/request/emittedCheckouts';
import { advance, MAX_SEEN, type StreamState } from '../../nodes/PayOnUsPollTrigger/cursor';
import { newCheckoutId } from '../../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../dev/inProcessN8n';
import { SandboxApi } from '../../dev/sandboxScenarios';
import { bankPage } from './pageFixture';
import { row, type SafetyArea, type SafetyRow } from './types';

const KEY = 'whk-test-key'; // sandboxCredential's verification key
const hashOf = (b: IDataObject) =>
	createHash('sha256').update(String(b.accountNumber) + String(b.onusReference) + String(b.paymentStatus) + KEY).digest('hex');

interface Delivery {
	status: number;
	verified: number;
	notConfirmed: number;
	reason?: string;
}

/** One PayOnUs Trigger "process": its node code, one static data object, a credential on the sandbox. */
class TriggerRig {
	staticData: IDataObject = {};
	constructor(private readonly fake: FakeN8n) {}

	async deliver(body: IDataObject): Promise<Delivery> {
		const raw = JSON.stringify(body);
		const answer = { status: 0 };
		const res = {
			status(code: number) {
				answer.status = code;
				return res;
			},
			json() {
				return res;
			},
		};
		const params: IDataObject = { events: ['COLLECTION', 'PAYOUT'], options: {} };
		const base = this.fake.context();
		const ctx = {
			...base,
			getRequestObject: () => ({ headers: { 'content-type': 'text/plain', hash: hashOf(body) }, rawBody: Buffer.from(raw) }),
			getResponseObject: () => res,
			getBodyData: () => raw,
			getNodeParameter: (name: string, fallback: unknown) => (name in params ? params[name] : fallback),
			getMode: () => 'webhook',
			getWorkflow: () => ({ id: 'wf-safety-webhooks' }),
			getWorkflowStaticData: () => this.staticData,
			logger: { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined },
		};
		const result = await new PayOnUsTrigger().webhook.call(ctx as never);
		const nc = result.workflowData?.[1] ?? [];
		const reason = (nc[0]?.json?.confirmation as IDataObject | undefined)?.reason;
		return {
			status: answer.status,
			verified: result.workflowData?.[0]?.length ?? 0,
			notConfirmed: nc.length,
			reason: reason === undefined ? undefined : String(reason),
		};
	}
}

function notification(account: IDataObject, over: IDataObject = {}): IDataObject {
	return {
		type: 'COLLECTION',
		currency: 'NGN',
		businessId: 'BUS-2001',
		accountNumber: String(account.accountNumber),
		onusReference: String(account.onusReference),
		paymentStatus: 'SUCCESSFUL',
		transactionAmount: Number(account.amount ?? 1500),
		...over,
	};
}

async function paidPayins(api: SandboxApi, count: number, tag: string): Promise<IDataObject[]> {
	const out: IDataObject[] = new Array(count);
	let next = 0;
	await Promise.all(
		Array.from({ length: 16 }, async () => {
			while (next < count) {
				const i = next++;
				out[i] = await api.collection(`se-${tag}-${i}`, 1500);
			}
		}),
	);
	return out;
}

const NET = 'PayOnUs Trigger once-per-event';

async function triggerRows(sb: SandboxHandle, args: string[]): Promise<SafetyRow[]> {
	const rows: SafetyRow[] = [];
	const api = new SandboxApi(sb.url);
	await api.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
	const fake = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
	CONFIRM_TIMING.pauseMs = 0;
	let clock = Date.now();
	triggerClock.now = () => clock;
	const realBound = DEDUPE_WINDOW.maxEntries;
	const bound = Number(args.find((a) => a.startsWith('--trigger-bound='))?.split('=')[1] ?? DEDUPE_WINDOW.maxEntries);
	try {
		// 1. A day later.
		resetSeenKeys();
		let rig = new TriggerRig(fake);
		const [first] = await paidPayins(api, 1, `day-${Date.now()}`);
		const original = await rig.deliver(notification(first));
		// A day passes for both: the node's clock and the service's.
		clock += 25 * 60 * 60 * 1000;
		await api.advanceClock(25 * 60 * 60);
		const replay = await rig.deliver(notification(first, { transactionAmount: 999_999 }));
		const [second] = await paidPayins(api, 1, `day2-${Date.now()}`);
		const fresh = await rig.deliver(notification(second));
		rows.push(
			row(
				NET,
				'signed COLLECTION replayed 25 h later (injected clock; key aged out), amount changed',
				'Confirmed 1 then Unconfirmed 1 ("may have been handled"); a new event still Confirmed',
				`Confirmed ${original.verified} then ${replay.verified ? `Confirmed ${replay.verified}` : `Unconfirmed ${replay.notConfirmed}${replay.reason?.includes('may have been handled') ? ' ("may have been handled")' : ''}`}; a new event ${fresh.verified ? 'still Confirmed' : 'NOT on Confirmed'}`,
				{ duplicateStarts: replay.verified, blindWindows: fresh.verified === 1 ? 0 : 1 },
			),
		);

		// 2. Past the count bound (the real bound unless --trigger-bound=).
		DEDUPE_WINDOW.maxEntries = bound;
		resetSeenKeys();
		rig = new TriggerRig(fake);
		const many = await paidPayins(api, bound + 1, `count-${Date.now()}`);
		await api.advanceClock(60);
		many.push(...(await paidPayins(api, 1, `count-new-${Date.now()}`)));
		let started = 0;
		for (const account of many.slice(0, bound + 1)) {
			const d = await rig.deliver(notification(account));
			started += d.verified;
			if (!d.verified && process.env.SE_DEBUG) console.log(d.reason);
		}
		const oldReplay = await rig.deliver(notification(many[0]));
		const newOne = await rig.deliver(notification(many[bound + 1]));
		rows.push(
			row(
				NET,
				`signed COLLECTION replayed after ${bound.toLocaleString('en-US')} later events (count bound ${bound === realBound ? '10,000' : `scaled to ${bound}`})`,
				`${(bound + 1).toLocaleString('en-US')} Confirmed; replay Unconfirmed 1; next new event Confirmed`,
				`${started.toLocaleString('en-US')} Confirmed; replay ${oldReplay.verified ? `Confirmed ${oldReplay.verified}` : `Unconfirmed ${oldReplay.notConfirmed}`}; next new event ${newOne.verified ? 'Confirmed' : 'NOT on Confirmed'}`,
				{ duplicateStarts: oldReplay.verified, blindWindows: (bound + 1 - started) + (newOne.verified === 1 ? 0 : 1) },
			),
		);

		// 3. Restart beyond the persisted keys (process memory gone, static data kept).
		DEDUPE_WINDOW.maxEntries = realBound;
		resetSeenKeys();
		rig = new TriggerRig(fake);
		const batch = await paidPayins(api, PERSISTED_KEYS + 10, `restart-${Date.now()}`);
		for (const account of batch) await rig.deliver(notification(account));
		resetSeenKeys();
		// The next payin is made after the restart (a minute later on the service's clock).
		await api.advanceClock(60);
		batch.push(...(await paidPayins(api, 1, `restart-new-${Date.now()}`)));
		const afterRestart = await rig.deliver(notification(batch[0]));
		const recent = await rig.deliver(notification(batch[PERSISTED_KEYS + 9]));
		const nextNew = await rig.deliver(notification(batch[PERSISTED_KEYS + 10]));
		rows.push(
			row(
				NET,
				`signed COLLECTION replayed after a restart, ${PERSISTED_KEYS + 10} events back (${PERSISTED_KEYS} keys persisted; in-process restart)`,
				'oldest: Unconfirmed 1; newest: duplicate; next new event Confirmed',
				`oldest: ${afterRestart.verified ? `Confirmed ${afterRestart.verified}` : `Unconfirmed ${afterRestart.notConfirmed}`}; newest: ${recent.verified ? 'Confirmed' : recent.notConfirmed ? 'Unconfirmed' : 'duplicate'}; next new event ${nextNew.verified ? 'Confirmed' : 'NOT on Confirmed'}`,
				{ duplicateStarts: afterRestart.verified + recent.verified, blindWindows: nextNew.verified === 1 ? 0 : 1 },
			),
		);

		// 4. One signed body the service never confirms, copied 1,000 times.
		resetSeenKeys();
		rig = new TriggerRig(fake);
		const unpaid = await api.unpaidPayin(`se-held-${Date.now()}`, 1500);
		let nc = 0;
		let ver = 0;
		for (let i = 0; i < 1000; i++) {
			const d = await rig.deliver(notification(unpaid, { transactionAmount: 1500 + i }));
			nc += d.notConfirmed;
			ver += d.verified;
		}
		rows.push(
			row(
				NET,
				'signed SUCCESSFUL for an unpaid payin, 1,000 copies (amounts changed)',
				'Unconfirmed 1, Confirmed 0',
				`Unconfirmed ${nc}, Confirmed ${ver}`,
				{ duplicateStarts: Math.max(0, nc - 1), falseSuccesses: ver },
			),
		);

		// 5. The customer then pays: the service's retry is not refused.
		await api.api('POST', '/api/v1/fund-ngn-account', {
			onusReference: unpaid.onusReference,
			accountNumber: unpaid.accountNumber,
			amount: 1500,
			paymentStatus: 'SUCCESSFUL',
			forDynamicAccount: true,
		});
		const retry = await rig.deliver(notification(unpaid));
		const retry2 = await rig.deliver(notification(unpaid));
		rows.push(
			row(
				NET,
				'the same event after the payin is paid (a legitimate retry), twice',
				'Confirmed 1, then duplicate',
				`Confirmed ${retry.verified}, then ${retry2.verified ? 'Confirmed again' : 'duplicate'}`,
				{ duplicateStarts: retry2.verified, blindWindows: retry.verified === 1 ? 0 : 1 },
			),
		);
	} finally {
		triggerClock.now = () => Date.now();
		DEDUPE_WINDOW.maxEntries = realBound;
		resetSeenKeys();
	}
	return rows;
}

const PAGE = 'Payment page once-per-payment';

async function pageRows(sb: SandboxHandle): Promise<SafetyRow[]> {
	const { checkout, emitted } = await bankPage(sb);
	const start = checkout.fresh(newCheckoutId());
	const view = await checkout.step(start.state, 'start', { email: 'ada@example.com', method: 'bank' });
	const onus = String(view.attempt?.r ?? '');
	const payin = sb.state.payins.get(onus);
	if (!payin) throw new Error(`no payin ${onus} in the sandbox`);
	// The other reading of the spec's silence: SUCCESSFUL with less than the amount received.
	Object.assign(payin, { paymentStatus: 'SUCCESSFUL', amountPaid: 2000 });
	const partial = await checkout.show(view.state);
	const rows = [
		row(
			PAGE,
			'payin SUCCESSFUL with amountPaid 2,000 of 5,000 (sandbox record edited: the spec is silent)',
			'not paid, Paid items 0',
			`${partial.kind === 'paid' ? 'paid' : 'not paid'}, Paid items ${emitted.length}`,
			{ falseSuccesses: emitted.length },
		),
	];

	// The emitted memory as the page wires it (claimsFor: claim -> judge -> keep), past its 7-day window.
	const DAY = 86_400_000;
	Object.assign(payin, { amountPaid: 5000 });
	const paid = await checkout.show(view.state);
	const record = paid.record ?? {};
	const where = { workflowId: `se-page-${Date.now()}`, nodeId: 'page', mode: 'webhook' };
	const staticData: IDataObject = {};
	let starts = 0;
	const claim = (ref: string, now: number) => {
		pageClock.now = () => now;
		if (claimsFor(where, staticData, () => undefined).claim(ref, record) && ref === 'PP-this') starts++;
	};
	claim('PP-this', 0);
	claim('PP-other', 1); // another checkout, same second
	claim('PP-this', 8 * DAY);
	pageClock.now = () => Date.now();
	rows.push(
		row(
			PAGE,
			'paid checkout\'s receipt link reopened 8 days later (past the 7-day memory; memory as the page wires it)',
			'Paid started 1',
			`Paid started ${starts}`,
			{ duplicateStarts: Math.max(0, starts - 1), blindWindows: starts === 0 ? 1 : 0 },
		),
	);
	return rows;
}

function pollRows(): SafetyRow[] {
	const today = '2025-03-10';
	const perHour = 500;
	const pad = (n: number) => String(n).padStart(2, '0');
	const time = (h: number, i: number) => `${today} ${pad(h)}:${pad(Math.floor((i * 60) / perHour))}:${pad((i * 7) % 60)}`;
	const counts = new Map<string, number>();
	let state: StreamState | undefined = { cursor: today, seen: {} };
	let evicted = 0;
	for (let hour = 0; hour < 24; hour++) {
		const records: IDataObject[] = [];
		for (let h = 0; h <= hour; h++) {
			for (let i = 0; i < perHour; i++) {
				const paid = h < hour;
				records.push({
					onusReference: `R-${h}-${i}`,
					paymentStatus: paid ? 'SUCCESSFUL' : 'PENDING',
					createdDate: time(h, i),
					lastUpdatedDate: paid ? time(h + 1, i) : time(h, i),
				});
			}
		}
		const r = advance(state, records, { today, overlapDays: 1, baseline: false });
		evicted += r.evicted;
		for (const e of r.emit) {
			const k = `${String(e.onusReference)}|${String(e.paymentStatus)}`;
			counts.set(k, (counts.get(k) ?? 0) + 1);
		}
		state = r.next;
	}
	const expected = 24 * perHour + 23 * perHour;
	const dup = [...counts.values()].reduce((a, c) => a + Math.max(0, c - 1), 0);
	return [
		row(
			'Poll trigger once-per-change',
			`12,000 payins in a day, each PENDING then SUCCESSFUL an hour later, polled hourly (key bound ${MAX_SEEN.toLocaleString('en-US')}; cursor over generated records)`,
			`${expected.toLocaleString('en-US')} changes emitted once each, bound passed`,
			`${counts.size.toLocaleString('en-US')} changes emitted${dup ? `, ${dup} twice` : ' once each'}, ${evicted > 0 ? 'bound passed' : 'bound NOT passed'}`,
			{ duplicateStarts: dup, blindWindows: expected - counts.size },
		),
	];
}

export const area: SafetyArea = {
	name: 'webhooks',
	needsN8n: false,
	async run(args: string[]): Promise<SafetyRow[]> {
		const sb = await startSandbox({ port: 0 });
		try {
			const rows: SafetyRow[] = [];
			rows.push(...(await triggerRows(sb, args)));
			rows.push(...(await pageRows(sb)));
			rows.push(...pollRows());
			return rows;
		} finally {
			await sb.stop();
		}
	},
};

