/**
 * `npm run bench -- webhook-drills [--events=1000] [--forgeries=1000] [--concurrency=16] [--modes=regular,queue]`
 *
 * Real n8n (PAYONUS_N8N_VERSION, labelled with the version that runs) + the
 * PayOnUs Trigger as designed (Confirm With the Service on, two outputs:
 * Verified and Not Confirmed) on an active workflow, once per mode: regular
 * (SQLite, one process) and queue mode (PostgreSQL + Redis, one worker runs
 * the executions, the main only answers webhooks). Every genuine event is a
 * real payin in the sandbox, so the trigger can confirm it.
 *  1. Forgery drill: >= 1,000 bad requests (no hash, wrong hash, right hash of
 *     another body, tampered status, tampered amount replaying a delivered
 *     event, wrong key, malformed JSON, huge body, wrong method, unknown event,
 *     forged tokenization, and copies of signed notifications the service
 *     never confirms: SUCCESSFUL for unpaid payins) at the production URL;
 *     counts by category and response code; executions per output. Goal:
 *     Verified 0; Not Confirmed at most one per distinct signed event the
 *     service does not confirm (the cost decided for such an event: one
 *     execution a day, not one per copy).
 *  2. Delivery drill: N valid signed events, each delivered three times, at
 *     concurrency C; executions started (goal: exactly N Verified, 0 Not
 *     Confirmed) and accept latency.
 *  Side by side in the same run: the same valid traffic against n8n's own
 *  Webhook node (no verification, no dedupe) for the latency ratio.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { IDataObject } from 'n8n-workflow';
import { startSandbox } from '../sandbox/server';
import { N8N_VERSION, startN8n, type N8nInstance, type StartOptions } from '../dev/n8n';
import { nodeItems } from '../dev/n8n/execution';
import { KEY, createCredential } from '../dev/sandboxCredential';
import { SandboxApi } from '../dev/sandboxScenarios';
import { TRIGGER_NAME, triggerWorkflow } from '../dev/workflows';
import { sleep } from '../dev/wait';
import { percentile } from './common';

export const description =
	'PayOnUs Trigger in real n8n, confirmation on: forgery drill (0 Verified, at most 1 Not Confirmed per unconfirmable signed event) and triple-delivery drill (exactly N Verified)';

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

/** All executions of a workflow (public API pages of 250). */
async function allExecutions(n8n: N8nInstance, workflowId: string, includeData: boolean): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let cursor: string | undefined;
	do {
		const page = await n8n.api<{ data: IDataObject[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=${includeData}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		);
		out.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return out;
}

async function settle(n8n: N8nInstance, workflowId: string, expected: number, timeoutMs: number): Promise<number> {
	const deadline = Date.now() + timeoutMs;
	let count = -1;
	let stableSince = Date.now();
	while (Date.now() < deadline) {
		const now = (await allExecutions(n8n, workflowId, false)).length;
		if (now !== count) {
			count = now;
			stableSince = Date.now();
		}
		if (count >= expected && Date.now() - stableSince > 3000) break;
		if (count < expected && Date.now() - stableSince > 15000) break;
		await sleep(500);
	}
	return count;
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
	const makers: Array<(i: number) => Shot> = [
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
		(i) => {
			// Amount is not covered by the hash: a replay of a delivered event with a new amount.
			const b = replayable[i % replayable.length];
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
		(i) => {
			// A genuine signature of an event the service does not confirm (SUCCESSFUL for an unpaid payin).
			const b = unconfirmable[i % unconfirmable.length];
			return { category: 'signed, never confirmed (copies)', body: JSON.stringify({ ...b, transactionAmount: 1000 + i }), headers: signed(b).headers };
		},
		(i) => ({
			category: 'forged tokenization',
			body: JSON.stringify({ event: 'card_tokenization_link.completed', cardTokenizationLinkId: `CTL-FORGED-${i}`, cardTokenId: `tok-${i}`, businessId: 'BUS-2001', status: 'COMPLETED' }),
			headers: {},
		}),
	];
	const shots: Shot[] = [];
	for (let i = 0; shots.length < total; i++) shots.push(makers[i % makers.length](i));
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
function outputs(executions: IDataObject[]): { verified: IDataObject[]; notConfirmed: IDataObject[] } {
	const verified: IDataObject[] = [];
	const notConfirmed: IDataObject[] = [];
	for (const e of executions) {
		verified.push(...nodeItems(e as never, TRIGGER_NAME, 0));
		notConfirmed.push(...nodeItems(e as never, TRIGGER_NAME, 1));
	}
	return { verified, notConfirmed };
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const events = arg(args, 'events', 1000);
	const forgeryCount = arg(args, 'forgeries', 1000);
	const concurrency = arg(args, 'concurrency', 16);
	const modes = (args.find((a) => a.startsWith('--modes='))?.split('=')[1] ?? 'regular,queue').split(',');
	const unknown = modes.filter((m) => !(m in MODES));
	if (unknown.length > 0) throw new Error(`unknown mode ${unknown.join(', ')}; known: ${Object.keys(MODES).join(', ')}`);
	const reports: Record<string, Record<string, unknown>> = {};
	for (const mode of modes as Mode[]) {
		console.log(`  --- ${MODES[mode].label}`);
		reports[mode] = await drill(mode, events, forgeryCount, concurrency);
	}
	return { concurrency, modes: reports };
}

async function drill(mode: Mode, events: number, forgeryCount: number, concurrency: number): Promise<Record<string, unknown>> {
	const sb = await startSandbox({ port: 0 });
	const n8n = await startN8n(MODES[mode].options);
	const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
	try {
		const api = new SandboxApi(sb.url);
		await api.setWebhooks({ url: 'http://127.0.0.1:9/nowhere', verificationKey: KEY });
		const credentialId = await createCredential(n8n, sb.url, 'PayOnUs drills');
		const webhookId = randomUUID();
		const { id } = await n8n.createWorkflow(
			triggerWorkflow('webhook drills', webhookId, credentialId, { events: ['COLLECTION', 'PAYOUT', 'REFUND', 'card_tokenization_link.completed'], confirmWithService: true }),
		);
		const url = n8n.webhookUrl(`${webhookId}/webhook`);
		await activateAndWait(n8n, id, url, agent);
		const tag = String(Date.now());

		// 0. Warm-up: genuine events (real paid payins) the tampered-amount forgeries replay,
		// and signed notifications for unpaid payins (the service never confirms them).
		const replayable = (await sandboxPayins(api, 10, `r${tag}`)).map((a, i) => notificationOf(a, i, `r${tag}`));
		const unconfirmable = (await sandboxPayins(api, 10, `u${tag}`, false)).map((a, i) => notificationOf(a, i, `u${tag}`));
		await fire(url, replayable.map((b) => signed(b, 'warm-up')), 4, agent);
		await settle(n8n, id, 10, 30_000);
		const warmUp = await allExecutions(n8n, id, true);
		const beforeForgery = warmUp.length;

		// 1. Forgery drill.
		const forged = await fire(url, forgeries(forgeryCount, tag, replayable, unconfirmable), concurrency, agent);
		const afterForgery = await settle(n8n, id, beforeForgery + unconfirmable.length, 30_000);
		const forgeryRuns = outputs((await allExecutions(n8n, id, true)).slice(0, afterForgery - beforeForgery));
		const byCategory: Record<string, Record<string, number>> = {};
		const byStatus: Record<string, number> = {};
		for (const r of forged) {
			byCategory[r.category] ??= {};
			byCategory[r.category][r.status] = (byCategory[r.category][r.status] ?? 0) + 1;
			byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
		}
		const forgeryExecutions = afterForgery - beforeForgery;
		console.log(
			`  forgery drill: ${forged.length} requests, executions started: ${forgeryExecutions} (Verified items ${forgeryRuns.verified.length}, Not Confirmed items ${forgeryRuns.notConfirmed.length}, distinct unconfirmable signed events ${unconfirmable.length})`,
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
		const afterDelivery = await settle(n8n, id, afterForgery + events, 180_000);
		const deliveryExecutions = afterDelivery - afterForgery;
		const statusCounts: Record<string, number> = {};
		for (const r of delivered) statusCounts[r.status] = (statusCounts[r.status] ?? 0) + 1;
		const latencies = delivered.map((r) => r.ms);

		// Which events started executions (distinct onusReference, duplicates).
		const executions = await allExecutions(n8n, id, true);
		const refs = new Map<string, number>();
		const deliveryRuns = outputs(executions.slice(0, afterDelivery - afterForgery));
		for (const e of executions) {
			for (const item of nodeItems(e as never, TRIGGER_NAME, 0)) {
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
		await settle(n8n, id, afterDelivery + events, 120_000);
		const theirs = await fire(n8n.webhookUrl(plainId), baselineBodies.map((b) => signed(b)), concurrency, agent);
		await settle(n8n, plain.id, events, 120_000);
		const oursP = { p50: percentile(ours.map((r) => r.ms), 50), p99: percentile(ours.map((r) => r.ms), 99) };
		const theirsP = { p50: percentile(theirs.map((r) => r.ms), 50), p99: percentile(theirs.map((r) => r.ms), 99) };

		const report = {
			n8n: MODES[mode].label,
			concurrency,
			forgery: {
				requests: forged.length,
				executionsStarted: forgeryExecutions,
				verifiedItems: forgeryRuns.verified.length,
				notConfirmedItems: forgeryRuns.notConfirmed.length,
				distinctUnconfirmableSignedEvents: unconfirmable.length,
				byStatus,
				byCategory,
			},
			delivery: {
				events,
				requests: delivered.length,
				statusCounts,
				executionsStarted: deliveryExecutions,
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
