/**
 * `npm run bench -- webhook-drills [--events=1000] [--forgeries=1000] [--concurrency=16] [--modes=regular,queue] [--profile] [--n8n-env=KEY=VALUE,...]`
 *
 * Real n8n (PAYONUS_N8N_VERSION, labelled with the version that runs) + the
 * PayOnUs Trigger as designed (Confirm With the Service on, two outputs:
 * Confirmed and Unconfirmed) on an active workflow, once per mode: regular
 * (SQLite, one process) and queue mode (PostgreSQL + Redis, one worker runs
 * the executions, the main only answers webhooks). Every genuine event is a
 * real payin in the sandbox, so the trigger can confirm it.
 *  1. Forgery drill: >= 1,000 bad requests (no hash, wrong hash, right hash of
 *     another body, tampered status, tampered amount replaying a delivered
 *     event, wrong key, malformed JSON, huge body, wrong method, unknown event,
 *     forged tokenization, and copies of signed notifications the service
 *     never confirms: SUCCESSFUL for unpaid payins) at the production URL;
 *     counts by category and response code; executions per output. Goal:
 *     Confirmed 0; Unconfirmed at most one per distinct signed event the
 *     service does not confirm (the cost decided for such an event: one
 *     execution a day, not one per copy).
 *  2. Delivery drill: N valid signed events, each delivered three times, at
 *     concurrency C; executions started (goal: exactly N Confirmed, 0
 *     Unconfirmed) and accept latency.
 *  Side by side in the same run: the same valid traffic against n8n's own
 *  Webhook node (no verification, no dedupe) for the latency ratio.
 *
 * Executions are counted from n8n's database (recorded-executions.ts), each
 * phase waited for until none is new or running and nothing changes; a wait
 * that gives up is reported (`settle`), never taken silently. n8n's public
 * executions list is not used to count: in queue mode it leaves out
 * executions the main still holds as running although the worker finished
 * them (recorded-executions.ts says why); the report shows how many
 * (`hiddenByApiList`).
 *
 * `--profile`: n8n runs under --cpu-prof and the main's profile is summarised
 * (bench/cpu-profile.ts). `--n8n-env=KEY=VALUE,...`: n8n's own settings for
 * every process of the run (e.g. N8N_EXPRESSION_ENGINE_POOL_SIZE=4), to see
 * what a deployment setting changes; the report names them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox } from '../sandbox/server';
import { N8N_VERSION, startN8n, type Execution, type N8nInstance, type StartOptions } from '../dev/n8n';
import { nodeItems } from '../dev/n8n/execution';
import { KEY, createCredential } from '../dev/sandboxCredential';
import { SandboxApi } from '../dev/sandboxScenarios';
import { TRIGGER_NAME, triggerWorkflow } from '../dev/workflows';
import { sleep } from '../dev/wait';
import { percentile } from './common';
import { cpuProfileEnv, n8nProfileSummary, profileFolder } from './cpu-profile';
import { executionsWithData, listedByApi, recordedExecutions, settleRecorded, type Recorded, type Settled } from './recorded-executions';

export const description =
	'PayOnUs Trigger in real n8n, confirmation on: forgery drill (0 Confirmed, at most 1 Unconfirmed per unconfirmable signed event) and triple-delivery drill (exactly N Confirmed)';

const arg = (args: string[], name: string, fallback: number) =>
	Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

const hashOf = (a: string, r: string, s: string, key = KEY) => createHash('sha256').update(a + r + s + key).digest('hex');

interface Shot {
	category: string;
	method?: 'POST' | 'GET' | 'PUT';
	body: string;
	headers: Record<string, string>;
}

async function fire(url: string, shots: Shot[], concurrency: number, agent: Agent) {
	const results: Array<{ category: string; status: number; ms: number; outcome: string }> = new Array(shots.length);
	let next = 0;
	const worker = async () => {
		while (next < shots.length) {
			const i = next++;
			const shot = shots[i];
			const started = performance.now();
			let status = 0;
			let outcome = 'error';
			try {
				const res = await request(url, {
					method: shot.method ?? 'POST',
					headers: { 'content-type': 'text/plain', ...shot.headers },
					body: shot.method === 'GET' ? undefined : shot.body,
					dispatcher: agent,
				});
				status = res.statusCode;
				const text = await res.body.text();
				outcome = /"duplicate":true/.test(text) ? 'suppressed' : /"ignored"/.test(text) ? 'ignored' : status === 200 ? 'started' : 'rejected';
			} catch {
				status = -1;
			}
			results[i] = { category: shot.category, status, ms: performance.now() - started, outcome };
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return results;
}

function collection(i: number, tag: string): IDataObject {
	return {
		id: `evt-${tag}-${i}`,
		type: i % 2 === 0 ? 'COLLECTION' : 'PAYOUT',
		currency: 'NGN',
		businessId: 'BUS-2001',
		accountNumber: String(1000000000 + i),
		onusReference: `ONUS-${i % 2 === 0 ? 'NUB' : 'TRNF'}-${String(i).padStart(13, '0')}-${tag}`,
		paymentStatus: 'SUCCESSFUL',
		transactionAmount: 1000 + i,
		merchantReference: `drill-${tag}-${i}`,
	};
}

function signed(body: IDataObject, category = 'valid'): Shot {
	return {
		category,
		body: JSON.stringify(body),
		headers: { hash: hashOf(String(body.accountNumber), String(body.onusReference), String(body.paymentStatus)) },
	};
}

/** The notification the service sends for a sandbox payin (signed fields from the record). */
function notificationOf(account: IDataObject, i: number, tag: string): IDataObject {
	return {
		id: `evt-${tag}-${i}`,
		type: 'COLLECTION',
		currency: 'NGN',
		businessId: 'BUS-2001',
		accountNumber: String(account.accountNumber),
		onusReference: String(account.onusReference),
		paymentStatus: 'SUCCESSFUL',
		transactionAmount: Number(account.amount ?? 1000),
		merchantReference: String(account.merchantReference ?? account.reference ?? ''),
	};
}

/** `count` payins in the sandbox, paid (the sandbox's own notifications go nowhere). */
async function sandboxPayins(api: SandboxApi, count: number, tag: string, paid = true): Promise<IDataObject[]> {
	const out: IDataObject[] = new Array(count);
	let next = 0;
	await Promise.all(
		Array.from({ length: 16 }, async () => {
			while (next < count) {
				const i = next++;
				out[i] = paid ? await api.collection(`wd-${tag}-${i}`, 1000) : await api.unpaidPayin(`wd-${tag}-${i}`, 1000);
			}
		}),
	);
	return out;
}

/** Activates and waits until the production URL answers (not n8n's 404, nor a 5xx). */
async function activateAndWait(n8n: N8nInstance, id: string, url: string, agent: Agent): Promise<void> {
	// n8n >= 2.3x publishes in the background; in queue mode its publication
	// status can stay in_progress although the webhook is registered (the
	// harness's wait gave up after 60 s): wait for the URL itself instead.
	await n8n.api('POST', `/workflows/${id}/activate`);
	const deadline = Date.now() + 120_000;
	for (;;) {
		const res = await request(url, { method: 'POST', body: '', headers: { 'content-type': 'text/plain' }, dispatcher: agent });
		await res.body.text();
		// 404: not registered yet; 5xx: n8n not ready to run it yet.
		if (res.statusCode !== 404 && res.statusCode < 500) return;
		if (Date.now() > deadline) throw new Error(`workflow ${id}: ${url} still answers ${res.statusCode} after 120 s`);
		await sleep(250);
	}
}

function forgeries(total: number, tag: string, replayable: IDataObject[], unconfirmable: IDataObject[]): Shot[] {
	// i: the shot's number; k: its number within its category (every replayable and
	// unconfirmable event is used once before any is used again).
	const makers: Array<(i: number, k: number) => Shot> = [
		(i) => ({ category: 'no hash', body: JSON.stringify(collection(i, tag)), headers: {} }),
		(i) => ({ category: 'wrong hash', body: JSON.stringify(collection(i, tag)), headers: { hash: createHash('sha256').update(`x${i}`).digest('hex') } }),
		(i) => {
			const other = collection(i + 1, tag);
			return { category: 'right hash of another body', body: JSON.stringify(collection(i, tag)), headers: signed(other).headers };
		},
		(i) => {
			const b = collection(i, tag);
			return { category: 'tampered status', body: JSON.stringify({ ...b, paymentStatus: 'FAILED' }), headers: signed(b).headers };
		},
		(_i, k) => {
			// Amount is not covered by the hash: a replay of a delivered event with a new amount.
			const b = replayable[k % replayable.length];
			return { category: 'tampered amount (replay)', body: JSON.stringify({ ...b, transactionAmount: 999999 }), headers: signed(b).headers };
		},
		(i) => {
			const b = collection(i, tag);
			return { category: 'wrong key', body: JSON.stringify(b), headers: { hash: hashOf(String(b.accountNumber), String(b.onusReference), 'SUCCESSFUL', 'not-the-key') } };
		},
		(i) => ({ category: 'malformed JSON', body: JSON.stringify(collection(i, tag)).slice(0, -3), headers: signed(collection(i, tag)).headers }),
		(i) => ({ category: 'huge body (300 KiB)', body: JSON.stringify({ ...collection(i, tag), pad: 'x'.repeat(300 * 1024) }), headers: signed(collection(i, tag)).headers }),
		(i) => ({ category: 'wrong method (GET)', method: 'GET', body: '', headers: signed(collection(i, tag)).headers }),
		(i) => ({ category: 'unknown event', body: JSON.stringify({ ...collection(i, tag), type: 'CHARGEBACK' }), headers: signed(collection(i, tag)).headers }),
		(i, k) => {
			// A genuine signature of an event the service does not confirm (SUCCESSFUL for an unpaid payin).
			const b = unconfirmable[k % unconfirmable.length];
			return { category: 'signed, never confirmed (copies)', body: JSON.stringify({ ...b, transactionAmount: 1000 + i }), headers: signed(b).headers };
		},
		(i) => ({
			category: 'forged tokenization',
			body: JSON.stringify({ event: 'card_tokenization_link.completed', cardTokenizationLinkId: `CTL-FORGED-${i}`, cardTokenId: `tok-${i}`, businessId: 'BUS-2001', status: 'COMPLETED' }),
			headers: {},
		}),
	];
	const shots: Shot[] = [];
	for (let i = 0; shots.length < total; i++) shots.push(makers[i % makers.length](i, Math.floor(i / makers.length)));
	return shots;
}

type Mode = 'regular' | 'queue';

/** How n8n runs: the default single process, or queue mode (executions on a worker). */
const MODES: Record<Mode, { label: string; options: StartOptions }> = {
	regular: { label: `${N8N_VERSION} (sqlite, regular mode: webhooks and executions in one process)`, options: { db: 'sqlite' } },
	queue: {
		label: `${N8N_VERSION} (postgres, queue mode: main answers webhooks, one worker runs executions)`,
		options: { db: 'postgres', queueWorkers: 1 },
	},
};

/** Items on each output of the trigger, over executions. */
function outputs(executions: Execution[]): { verified: IDataObject[]; notConfirmed: IDataObject[] } {
	const verified: IDataObject[] = [];
	const notConfirmed: IDataObject[] = [];
	for (const e of executions) {
		verified.push(...nodeItems(e, TRIGGER_NAME, 0));
		notConfirmed.push(...nodeItems(e, TRIGGER_NAME, 1));
	}
	return { verified, notConfirmed };
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const events = arg(args, 'events', 1000);
	const forgeryCount = arg(args, 'forgeries', 1000);
	const concurrency = arg(args, 'concurrency', 16);
	const modes = (args.find((a) => a.startsWith('--modes='))?.split('=')[1] ?? 'regular,queue').split(',');
	const n8nEnv = Object.fromEntries(
		(args.find((a) => a.startsWith('--n8n-env='))?.slice('--n8n-env='.length) ?? '')
			.split(',')
			.filter((kv) => kv.includes('='))
			.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
	);
	const unknown = modes.filter((m) => !(m in MODES));
	if (unknown.length > 0) throw new Error(`unknown mode ${unknown.join(', ')}; known: ${Object.keys(MODES).join(', ')}`);
	const reports: Record<string, Record<string, unknown>> = {};
	for (const mode of modes as Mode[]) {
		console.log(`  --- ${MODES[mode].label}`);
		const profileDir = args.includes('--profile') ? profileFolder(`webhook-drills-${mode}`) : undefined;
		reports[mode] = await drill(mode, { events, forgeryCount, concurrency, n8nEnv }, profileDir);
		if (profileDir) reports[mode].profile = n8nProfileSummary(profileDir);
	}
	return { concurrency, n8nEnv, modes: reports };
}

interface Sizes {
	events: number;
	forgeryCount: number;
	concurrency: number;
	/** n8n settings added to every process (--n8n-env). */
	n8nEnv: Record<string, string>;
}

async function drill(mode: Mode, sizes: Sizes, profileDir?: string): Promise<Record<string, unknown>> {
	const { events, forgeryCount, concurrency } = sizes;
	const sb = await startSandbox({ port: 0 });
	const options = { ...MODES[mode].options, env: { ...MODES[mode].options.env, ...sizes.n8nEnv } };
	// A profile is written when n8n exits: give its shutdown a bound shorter than the harness's grace period.
	const n8n = await startN8n(
		profileDir ? { ...options, env: { ...options.env, ...cpuProfileEnv(profileDir), N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '8' } } : options,
	);
	const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
	try {
		const api = new SandboxApi(sb.url);
		await api.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
		const credentialId = await createCredential(n8n, sb.url, 'PayOnUs drills');
		const webhookId = randomUUID();
		// As a new node has it: Simplify on; every status (the drills' events are of any status).
		const workflow = triggerWorkflow('webhook drills', webhookId, credentialId, { confirmWithService: true, simplify: true, statuses: [] });
		const { id } = await n8n.createWorkflow(workflow);
		const url = n8n.webhookUrl(`${webhookId}/webhook`);
		await activateAndWait(n8n, id, url, agent);
		const tag = String(Date.now());

		// 0. Warm-up: genuine events (real paid payins) the tampered-amount forgeries replay,
		// and signed notifications for unpaid payins (the service never confirms them).
		const replayable = (await sandboxPayins(api, 10, `r${tag}`)).map((a, i) => notificationOf(a, i, `r${tag}`));
		const unconfirmable = (await sandboxPayins(api, 10, `u${tag}`, false)).map((a, i) => notificationOf(a, i, `u${tag}`));
		await fire(url, replayable.map((b) => signed(b, 'warm-up')), 4, agent);
		const recorded = () => recordedExecutions(n8n, id);
		const waits: Record<string, Settled> = {};
		const settle = async (phase: string, afterId: number, atLeast: number, read = recorded): Promise<Settled> => {
			// Unconfirmed executions start after a few reads of the service (about 3 s): a quiet 5 s.
			const settled = await settleRecorded(read, { afterId, atLeast, quietMs: 5000, giveUpMs: 600_000 });
			waits[phase] = settled;
			if (!settled.settled) console.log(`  !! ${phase}: ${settled.reason}`);
			return settled;
		};
		const lastId = (executions: Recorded[], before: number) => executions.reduce((max, e) => Math.max(max, e.id), before);
		const warmUp = await settle('warm-up', 0, replayable.length);
		const beforeForgery = lastId(warmUp.executions, 0);

		// 1. Forgery drill.
		const forgedShots = forgeries(forgeryCount, tag, replayable, unconfirmable);
		const unconfirmableSent = new Set(
			forgedShots.filter((shot) => shot.category.startsWith('signed, never confirmed')).map((shot) => String(JSON.parse(shot.body).onusReference)),
		).size;
		const forged = await fire(url, forgedShots, concurrency, agent);
		const forgerySettled = await settle('forgery', beforeForgery, unconfirmableSent);
		const forgeryRuns = outputs(await executionsWithData(n8n, forgerySettled.executions.map((e) => e.id)));
		const afterForgery = lastId(forgerySettled.executions, beforeForgery);
		const byCategory: Record<string, Record<string, number>> = {};
		const byStatus: Record<string, number> = {};
		for (const r of forged) {
			byCategory[r.category] ??= {};
			byCategory[r.category][r.status] = (byCategory[r.category][r.status] ?? 0) + 1;
			byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
		}
		const forgeryExecutions = forgerySettled.executions.length;
		console.log(
			`  forgery drill: ${forged.length} requests, executions started: ${forgeryExecutions} (Confirmed items ${forgeryRuns.verified.length}, Unconfirmed items ${forgeryRuns.notConfirmed.length}, distinct unconfirmable signed events sent ${unconfirmableSent})`,
		);
		for (const [category, codes] of Object.entries(byCategory)) console.log(`    ${category.padEnd(28)} ${JSON.stringify(codes)}`);

		// 2. Delivery drill: each event three times, copies spread over the run.
		const bodies = (await sandboxPayins(api, events, `d${tag}`)).map((a, i) => notificationOf(a, i, `d${tag}`));
		const shots: Shot[] = [];
		for (let round = 0; round < 3; round++) {
			// Copies of one event are at most ~2*concurrency requests apart: some overlap in flight.
			for (let start = 0; start < events; start += concurrency) {
				for (let i = start; i < Math.min(events, start + concurrency); i++) shots.push(signed(bodies[i], `copy ${round + 1}`));
			}
		}
		// Interleave the rounds block by block so copies really race each other.
		const interleaved: Shot[] = [];
		const block = concurrency;
		for (let start = 0; start < events; start += block) {
			for (let round = 0; round < 3; round++) {
				for (let i = start; i < Math.min(events, start + block); i++) interleaved.push(shots[round * events + i]);
			}
		}
		const startedAt = Date.now();
		const delivered = await fire(url, interleaved, concurrency, agent);
		const deliverSeconds = (Date.now() - startedAt) / 1000;
		const deliverySettled = await settle('delivery', afterForgery, events);
		const afterDelivery = lastId(deliverySettled.executions, afterForgery);
		const deliveryExecutions = deliverySettled.executions.length;
		const statusCounts: Record<string, number> = {};
		for (const r of delivered) statusCounts[r.status] = (statusCounts[r.status] ?? 0) + 1;
		const latencies = delivered.map((r) => r.ms);

		// Which events started executions (distinct onusReference, duplicates), over every execution so far.
		const all = recorded();
		const withData = await executionsWithData(n8n, all.map((e) => e.id));
		const hiddenByApiList = all.length - (await listedByApi(n8n, id));
		const deliveryRuns = outputs(withData.filter((e) => Number(e.id) > afterForgery));
		const refs = new Map<string, number>();
		for (const e of withData) {
			for (const item of nodeItems(e, TRIGGER_NAME, 0)) {
				const ref = String(item.onusReference ?? item.cardTokenizationLinkId);
				refs.set(ref, (refs.get(ref) ?? 0) + 1);
			}
		}
		const drillRefs = bodies.map((b) => String(b.onusReference));
		const missing = drillRefs.filter((r) => !refs.has(r)).length;
		const repeated = drillRefs.filter((r) => (refs.get(r) ?? 0) > 1).length;
		const tampered = replayable.filter((b) => (refs.get(String(b.onusReference)) ?? 0) > 1).length;

		// 3. Side by side: n8n's own Webhook node, same traffic shape (one copy each).
		const plainId = randomUUID();
		const plain = await n8n.createWorkflow({
			name: 'plain webhook baseline',
			nodes: [
				{
					id: 'plain',
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: plainId,
					parameters: { httpMethod: 'POST', path: plainId, responseMode: 'onReceived', options: {} },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await activateAndWait(n8n, plain.id, n8n.webhookUrl(plainId), agent);
		const baselineBodies = (await sandboxPayins(api, events, `b${tag}`)).map((a, i) => notificationOf(a, i, `b${tag}`));
		const ours = await fire(url, baselineBodies.map((b) => signed(b)), concurrency, agent);
		// The trigger answers before its executions are created: let them finish so
		// the Webhook node's run does not pay for them.
		await settle('side by side: PayOnUs Trigger', afterDelivery, events);
		// The activation probe above may have started one plain execution: count after it.
		const plainRecorded = () => recordedExecutions(n8n, plain.id);
		const plainBefore = lastId(plainRecorded(), 0);
		const theirs = await fire(n8n.webhookUrl(plainId), baselineBodies.map((b) => signed(b)), concurrency, agent);
		await settle('side by side: Webhook node', plainBefore, events, plainRecorded);
		const oursP = { p50: percentile(ours.map((r) => r.ms), 50), p99: percentile(ours.map((r) => r.ms), 99) };
		const theirsP = { p50: percentile(theirs.map((r) => r.ms), 50), p99: percentile(theirs.map((r) => r.ms), 99) };

		const report = {
			n8n: MODES[mode].label,
			trigger: 'PayOnUs Trigger, Confirm With the Service on, Simplify on',
			concurrency,
			counting: {
				how: "n8n's database (execution_entity), each phase waited for until none is new or running and nothing changed for 5 s (give-up 600 s)",
				settled: Object.values(waits).every((w) => w.settled),
				waits: Object.fromEntries(
					Object.entries(waits).map(([phase, w]) => [phase, { settled: w.settled, seconds: Number((w.waitedMs / 1000).toFixed(1)), ...(w.reason ? { reason: w.reason } : {}) }]),
				),
				recorded: all.length,
				hiddenByApiList,
			},
			forgery: {
				requests: forged.length,
				executionsStarted: forgeryExecutions,
				verifiedItems: forgeryRuns.verified.length,
				notConfirmedItems: forgeryRuns.notConfirmed.length,
				distinctUnconfirmableSignedEvents: unconfirmableSent,
				executionStatuses: forgerySettled.statuses,
				byStatus,
				byCategory,
			},
			delivery: {
				events,
				requests: delivered.length,
				statusCounts,
				executionsStarted: deliveryExecutions,
				executionStatuses: deliverySettled.statuses,
				verifiedItems: deliveryRuns.verified.length,
				notConfirmedItems: deliveryRuns.notConfirmed.length,
				missingEvents: missing,
				eventsStartedMoreThanOnce: repeated,
				replayedTamperedAmountEventsStartedTwice: tampered,
				seconds: deliverSeconds,
				requestsPerSecond: Number((delivered.length / deliverSeconds).toFixed(1)),
				acceptLatencyMs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
				byOutcome: Object.fromEntries(
					['started', 'suppressed'].map((o) => {
						const ms = delivered.filter((r) => r.outcome === o).map((r) => r.ms);
						return [o, { count: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99) }];
					}),
				),
				forgeryRejectLatencyMs: { p50: percentile(forged.map((r) => r.ms), 50), p99: percentile(forged.map((r) => r.ms), 99) },
				// Rejections by answer: 401 (signature), 400 (body/event), 404 (n8n, wrong method), 200 (forged tokenization, answered then dropped).
				forgeryLatencyByStatusMs: Object.fromEntries(
					Object.keys(byStatus).map((code) => {
						const ms = forged.filter((r) => String(r.status) === code).map((r) => r.ms);
						return [code, { count: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99) }];
					}),
				),
			},
			sideBySide: {
				note: `${events} distinct valid events, one copy each, concurrency ${concurrency}, same n8n`,
				payOnUsTriggerMs: oursP,
				n8nWebhookNodeMs: theirsP,
				ratioP50: Number((oursP.p50 / theirsP.p50).toFixed(2)),
				ratioP99: Number((oursP.p99 / theirsP.p99).toFixed(2)),
			},
		};
		console.log(JSON.stringify(report.delivery, null, 2));
		console.log(JSON.stringify(report.sideBySide, null, 2));
		return report;
	} finally {
		await agent.close().catch(() => undefined);
		await n8n.stop();
		await sb.stop();
	}
}
