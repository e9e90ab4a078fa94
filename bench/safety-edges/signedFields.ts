/**
 * Safety edges of issue 36 at the PayOnUs Trigger's door: rule 7 for the
 * signed fields (a genuine notification with its field boundaries moved,
 * same hash; a verification key made only of spaces) and rule 3 for events
 * other than payins and payouts (a card tokenization completion and a
 * refund replayed after the memory let them go).
 *
 * In process: this package's trigger code with n8n-core's real request
 * helpers (dev/inProcessN8n.ts) against an in-process sandbox whose records
 * the sandbox API made; time is injected (the trigger's clock.ts, the
 * sandbox's clock). A run started is an item on either output.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox } from '../../sandbox/server';
import { PayOnUsApi } from '../../credentials/PayOnUsApi.credentials';
import { PayOnUsTrigger } from '../../nodes/PayOnUsTrigger/PayOnUsTrigger.node';
import { resetSeenKeys } from '../../nodes/PayOnUsTrigger/claim';
import { CONFIRM_TIMING } from '../../nodes/PayOnUsTrigger/confirm';
import { clock as triggerClock } from '../../nodes/PayOnUsTrigger/clock';
import { CredentialStore, FakeN8n, sandboxCredential } from '../../dev/inProcessN8n';
import { SandboxApi } from '../../dev/sandboxScenarios';
import { row, type SafetyArea, type SafetyRow } from './types';

const KEY = 'whk-test-key'; // sandboxCredential's verification key
const sign = (b: IDataObject, key = KEY) =>
	createHash('sha256').update(`${String(b.accountNumber ?? '')}${String(b.onusReference)}${String(b.paymentStatus)}${key}`).digest('hex');

interface Outcome {
	status: number;
	confirmed: IDataObject[];
	unconfirmed: IDataObject[];
	/** The error n8n would answer 500 with, when the node threw. */
	error?: string;
}

/** One trigger node in one n8n process: its parameters, its static data, a credential on the sandbox. */
class Door {
	private readonly staticData: IDataObject = {};
	constructor(
		private readonly fake: FakeN8n,
		private readonly params: IDataObject,
	) {}

	async post(body: IDataObject, hash?: string): Promise<Outcome> {
		const raw = JSON.stringify(body);
		const answer = { status: 0 };
		const res = {
			status: (code: number) => ((answer.status = code), res),
			json: () => res,
		};
		const ctx = {
			...this.fake.context(),
			getRequestObject: () => ({ headers: { 'content-type': 'text/plain', ...(hash ? { hash } : {}) }, rawBody: Buffer.from(raw) }),
			getResponseObject: () => res,
			getBodyData: () => raw,
			getNodeParameter: (name: string, fallback: unknown) => (name in this.params ? this.params[name] : fallback),
			getMode: () => 'webhook',
			getWorkflow: () => ({ id: 'wf-safety-signed-fields' }),
			getWorkflowStaticData: () => this.staticData,
			logger: { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined },
		};
		try {
			const result = await new PayOnUsTrigger().webhook.call(ctx as never);
			const items = (i: number) => (result.workflowData?.[i] ?? []).map((x) => x.json);
			return { status: answer.status, confirmed: items(0), unconfirmed: items(1) };
		} catch (error) {
			return { status: 500, confirmed: [], unconfirmed: [], error: (error as Error).message };
		}
	}
}

const runs = (o: Outcome) => o.confirmed.length + o.unconfirmed.length;
const reasonOf = (o: Outcome) => String((o.unconfirmed[0]?.confirmation as IDataObject | undefined)?.reason ?? '');
const ALL_EVENTS = ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'];

/** The genuine body with its boundaries moved, each keeping the signed text (and so the hash). */
function shifted(b: IDataObject): IDataObject[] {
	const [a, r, s] = [String(b.accountNumber), String(b.onusReference), String(b.paymentStatus)];
	return [
		{ ...b, accountNumber: a.slice(0, -1), onusReference: a.slice(-1) + r },
		{ ...b, accountNumber: a + r.slice(0, 4), onusReference: r.slice(4) },
		{ ...b, accountNumber: '', onusReference: a + r },
		{ ...b, onusReference: r.slice(0, -1), paymentStatus: r.slice(-1) + s },
		{ ...b, onusReference: r + s.slice(0, 3), paymentStatus: s.slice(3) },
		{ ...b, accountNumber: a + r + s, onusReference: '', paymentStatus: '' },
	];
}

async function rows(): Promise<SafetyRow[]> {
	const out: SafetyRow[] = [];
	const sb = await startSandbox({ port: 0 });
	let clock = Date.now();
	const realNow = triggerClock.now;
	triggerClock.now = () => clock;
	CONFIRM_TIMING.pauseMs = 0;
	try {
		const api = new SandboxApi(sb.url);
		await api.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
		const fake = new FakeN8n(new CredentialStore(sandboxCredential(sb.url)), new PayOnUsApi());
		const tag = Date.now();

		// 1. Boundary-shifted copies of genuine notifications: Confirm off, a refund (never read back), Confirm on.
		resetSeenKeys();
		const account = await api.collection(`se-sf-${tag}-1`, 1500);
		const collection: IDataObject = {
			type: 'COLLECTION', currency: 'NGN', businessId: 'BUS-2001', accountNumber: String(account.accountNumber),
			onusReference: String(account.onusReference), paymentStatus: 'SUCCESSFUL', transactionAmount: 1500,
		};
		const refundRecord = await api.refund(String(account.onusReference), `se-sf-${tag}-r`);
		const refund: IDataObject = { ...collection, type: 'REFUND', onusReference: String(refundRecord.onusReference), transactionAmount: 1500 };
		const cases: Array<[string, IDataObject, IDataObject]> = [
			['COLLECTION, Confirm off', collection, { events: ALL_EVENTS, confirmWithService: false, options: {} }],
			['REFUND', refund, { events: ALL_EVENTS, options: {} }],
			['COLLECTION, Confirm on', collection, { events: ALL_EVENTS, options: {} }],
		];
		let genuineRuns = 0;
		let copies = 0;
		let refused = 0;
		let shiftedRuns = 0;
		for (const [, body, params] of cases) {
			resetSeenKeys(); // each case its own trigger (the memory is per workflow and node)
			const door = new Door(fake, params);
			genuineRuns += (await door.post(body, sign(body))).confirmed.length;
			for (const copy of shifted(body)) {
				if (sign(copy) !== sign(body)) throw new Error('a shift changed the signed text');
				const o = await door.post(copy, sign(copy));
				copies++;
				if (o.status === 401) refused++;
				shiftedRuns += runs(o);
			}
		}
		out.push(
			row(
				'PayOnUs Trigger signed fields (rule 7)',
				`genuine notification re-sent with its field boundaries moved (same hash): ${cases.map((c) => c[0]).join('; ')}`,
				`genuine Confirmed ${cases.length}; ${copies} shifted copies: 401 ${copies}, runs started 0`,
				`genuine Confirmed ${genuineRuns}; ${copies} shifted copies: 401 ${refused}, runs started ${shiftedRuns}`,
				{ duplicateStarts: shiftedRuns },
			),
		);

		// 2. A verification key made only of spaces: anyone can sign under it.
		resetSeenKeys();
		const spaces = new FakeN8n(new CredentialStore(sandboxCredential(sb.url, 1, { webhookVerificationKey: '   ' })), new PayOnUsApi());
		const blank = new Door(spaces, { events: ALL_EVENTS, confirmWithService: false, options: {} });
		const forged = [collection, refund, { ...collection, type: 'PAYOUT', onusReference: String(account.onusReference).replace('-NUB-', '-TRNF-') }];
		let blankRuns = 0;
		let named = 0;
		for (const body of forged) {
			for (const key of ['   ', KEY]) {
				const o = await blank.post(body, sign(body, key));
				blankRuns += runs(o);
				if (o.status === 500 && o.error?.includes('made only of spaces')) named++;
			}
		}
		out.push(
			row(
				'PayOnUs Trigger signed fields (rule 7)',
				'credential whose Webhook Verification Key is 3 spaces; bodies signed under "   " and under the real key (Confirm off)',
				`${forged.length * 2} refused (500, the key "made only of spaces" named), runs started 0`,
				`${named} refused (500, the key "made only of spaces" named), runs started ${blankRuns}`,
				{ falseSuccesses: blankRuns },
			),
		);

		// 3. A card tokenization completion replayed after the memory let it go (a day later), then a new one.
		resetSeenKeys();
		const door = new Door(fake, { events: ALL_EVENTS, confirmTokenization: true, options: {} });
		const completion = async (reference: string): Promise<IDataObject> => {
			const link = await api.tokenization(reference);
			const cardTokenId = sb.state.links.get(String(link.id))?.cardTokenId;
			return { event: 'card_tokenization_link.completed', cardTokenizationLinkId: link.id, cardTokenId, businessId: 'BUS-2001', status: 'COMPLETED' };
		};
		const first = await completion(`se-sf-tok-${tag}-1`);
		const original = await door.post(first);
		clock += 25 * 60 * 60 * 1000;
		await api.advanceClock(25 * 60 * 60);
		const replay = await door.post(first);
		const fresh = await door.post(await completion(`se-sf-tok-${tag}-2`));
		out.push(
			row(
				'PayOnUs Trigger once-per-event (rule 3)',
				'card tokenization completion replayed 25 h later (key aged out; dated by its card token), then a new completion',
				'Confirmed 1 then Unconfirmed 1 ("may have been handled"); the new completion Confirmed',
				`Confirmed ${original.confirmed.length} then ${replay.confirmed.length ? `Confirmed ${replay.confirmed.length}` : `Unconfirmed ${replay.unconfirmed.length}${reasonOf(replay).includes('may have been handled') ? ' ("may have been handled")' : ''}`}; the new completion ${fresh.confirmed.length ? 'Confirmed' : 'NOT on Confirmed'}`,
				{ duplicateStarts: replay.confirmed.length, blindWindows: fresh.confirmed.length === 1 ? 0 : 1 },
			),
		);

		// 4. A refund replayed after the memory let it go (dated by its signed onusReference), then a new refund.
		resetSeenKeys();
		const refunds = new Door(fake, { events: ALL_EVENTS, options: {} });
		const once = await refunds.post(refund, sign(refund));
		clock += 25 * 60 * 60 * 1000;
		await api.advanceClock(25 * 60 * 60);
		const again = await refunds.post(refund, sign(refund));
		const paid = await api.collection(`se-sf-${tag}-2`, 1500);
		const later = await api.refund(String(paid.onusReference), `se-sf-${tag}-r2`);
		const next: IDataObject = { ...refund, accountNumber: String(paid.accountNumber), onusReference: String(later.onusReference) };
		const nextOut = await refunds.post(next, sign(next));
		out.push(
			row(
				'PayOnUs Trigger once-per-event (rule 3)',
				'signed REFUND (never read back) replayed 25 h later (key aged out; dated by its onusReference), then a new refund',
				'Confirmed 1 then Unconfirmed 1 ("may have been handled"); the new refund Confirmed',
				`Confirmed ${once.confirmed.length} then ${again.confirmed.length ? `Confirmed ${again.confirmed.length}` : `Unconfirmed ${again.unconfirmed.length}${reasonOf(again).includes('may have been handled') ? ' ("may have been handled")' : ''}`}; the new refund ${nextOut.confirmed.length ? 'Confirmed' : 'NOT on Confirmed'}`,
				{ duplicateStarts: again.confirmed.length, blindWindows: nextOut.confirmed.length === 1 ? 0 : 1 },
			),
		);
	} finally {
		triggerClock.now = realNow;
		resetSeenKeys();
		await sb.stop();
	}
	return out;
}

export const area: SafetyArea = {
	name: 'signed-fields',
	needsN8n: false,
	run: async () => await rows(),
};
