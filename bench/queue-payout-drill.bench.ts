/**
 * `npm run bench -- queue-payout-drill [--collections=500] [--concurrency=16]`
 *
 * The scaling drill (issues 14 and 30): n8n in queue mode (PostgreSQL + Redis)
 * with TWO `n8n webhook` processes (own ports, same database, Redis and
 * encryption key), ONE worker and the main, the examples in the production
 * topology: the ONE receiving workflow (its PayOnUs Trigger is the URL the
 * service notifies) handing each event to the auto-payout, notifications
 * and card-on-file consumers (Execute Workflow), imported as `npm start`
 * imports them (the example files, the sandbox credential, an SMTP
 * credential for a local mail catcher, the Settings values for this machine).
 *
 * N real collections are made in the sandbox (a dynamic NGN account each,
 * paid through the fund simulation); the sandbox's own notification of each
 * (body and `hash` header, as it signs them) is captured, then delivered
 * THREE times, the copies alternating between the two webhook processes and
 * interleaved so that copies race each other in flight. The trigger's
 * duplicate suppression lives in each process, so some collections start
 * more than one execution; the payout must still be made exactly once,
 * because its reference is `share-<onusReference>` and a repeated payout is
 * refused by the service and recognised as already made.
 *
 * Reported: receiver executions started, runs per consumer, payouts made per
 * collection (sandbox ledger: goal exactly 1 each), auto-payout runs that
 * found the payout already made, failed executions, e-mails caught.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { IDataObject } from 'n8n-workflow';
import { SandboxClient, type DeliveryView as Delivery, type LedgerView } from '../sandbox/client';
import { startSandbox } from '../sandbox/server';
import { executionData, startN8n, N8N_VERSION, type N8nInstance } from '../dev/n8n';
import { importEventExamples, SMTP_CREDENTIAL_TYPE } from '../scripts/lib/examples';
import { CREDENTIAL_NAME, SMTP_CREDENTIAL_NAME, credentialData, exampleSettings } from '../scripts/lib/provision';
import { startMailCatcher, smtpCredentialData, type MailCatcher } from '../dev/mailCatcher';
import { Shop, payDynamicAccount } from '../scripts/play-customer';
import { inParallel } from './common';
import { sleep } from '../dev/wait';

export const description =
	'the receiving workflow and its consumers (auto-payout, notifications, card on file) in queue mode with 2 webhook processes + 1 worker: each collection delivered 3 times over both, paid out exactly once';

const KEY = 'queue-payout-drill-verification-key';

const arg = (args: string[], name: string, fallback: number) =>
	Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);


type LedgerTransfer = LedgerView['transfers'][number];

/** A tiny receiver for the sandbox's own notifications (answers 200; the deliveries are read from the sandbox). */
async function sink(): Promise<{ url: string; server: Server }> {
	const server = createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return { url: `http://127.0.0.1:${port}/`, server };
}

/** All executions of a workflow (public API, pages of 250), without data. */
async function allExecutions(n8n: N8nInstance, workflowId: string): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let cursor: string | undefined;
	do {
		const page = await n8n.api<{ data: IDataObject[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=false&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		);
		out.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return out;
}

const finished = (e: IDataObject) => !['new', 'running', 'waiting'].includes(String(e.status));

/** Waits until every execution has finished and the count stayed the same for `quietMs`. */
async function settle(n8n: N8nInstance, workflowId: string, atLeast: number, timeoutMs: number, quietMs = 8000): Promise<IDataObject[]> {
	const deadline = Date.now() + timeoutMs;
	let last = -1;
	let since = Date.now();
	let all: IDataObject[] = [];
	while (Date.now() < deadline) {
		all = await allExecutions(n8n, workflowId);
		const done = all.filter(finished).length;
		const key = all.length * 100000 + done;
		if (key !== last) {
			last = key;
			since = Date.now();
		}
		if (all.length >= atLeast && done === all.length && Date.now() - since > quietMs) return all;
		await sleep(1000);
	}
	console.log(`  (settle: timed out after ${timeoutMs} ms with ${all.length} executions, ${all.filter(finished).length} finished)`);
	return all;
}

function logLines(file: string): IDataObject[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((l) => l.trim() !== '')
		.map((l) => {
			try {
				return JSON.parse(l) as IDataObject;
			} catch {
				return { outcome: 'unreadable line', line: l };
			}
		});
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const collections = arg(args, 'collections', 500);
	const concurrency = arg(args, 'concurrency', 16);
	const tag = Date.now().toString(36);
	const filesDir = mkdtempSync(join(tmpdir(), 'payonus-queue-payout-'));
	const outcomeFile = join(filesDir, 'auto-payouts.log');
	const began = Date.now();

	const sb = await startSandbox({ port: 0 });
	const receiver = await sink();
	let n8n: N8nInstance | undefined;
	let mail: MailCatcher | undefined;
	const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
	const control = new SandboxClient(sb.url);
	try {
		await control.setWebhooks({ url: receiver.url, verificationKey: KEY, duplicates: 1 });
		console.log(`  starting n8n ${N8N_VERSION}: queue mode (postgres + redis), main + 1 worker + 2 webhook processes...`);
		n8n = await startN8n({
			db: 'postgres',
			queueWorkers: 1,
			webhookProcesses: 2,
			env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir, GENERIC_TIMEZONE: 'UTC' },
		});
		console.log(`  main ${n8n.baseUrl}, webhook processes ${n8n.webhookBaseUrls.join(', ')} (started in ${(n8n.startMs / 1000).toFixed(1)} s)`);

		// The examples in the production topology, imported as `npm start` imports them.
		mail = await startMailCatcher();
		const { id: credentialId } = await n8n.createCredential({ name: CREDENTIAL_NAME, type: 'payOnUsApi', data: credentialData(sb.url, KEY) });
		const credential = { id: credentialId, name: CREDENTIAL_NAME };
		const { id: smtpId } = await n8n.createCredential({ name: SMTP_CREDENTIAL_NAME, type: SMTP_CREDENTIAL_TYPE, data: smtpCredentialData(mail) });
		const imported = await importEventExamples(n8n, {
			credential,
			smtpCredential: { id: smtpId, name: SMTP_CREDENTIAL_NAME },
			settings: { autoPayout: exampleSettings('autoPayout', filesDir) },
		});
		const workflowId = imported.ids.receiver;
		const urls = n8n.webhookBaseUrls.map((_, i) => n8n!.webhookProcessUrl(i, imported.receiverPath));

		// Real collections; their notifications go to the receiver and are read back from the sandbox.
		const shop = new Shop(sb.url);
		const made = Date.now();
		const refs: string[] = new Array(collections);
		const amounts: number[] = new Array(collections);
		const collect = async (i: number) => {
			amounts[i] = 1000 + i * 7 + 0.5;
			refs[i] = await payDynamicAccount(shop, amounts[i], `${tag}-${i}`);
		};
		await collect(0); // the shop's one access token first (parallel first calls would replace each other's)
		await inParallel(collections - 1, 8, async (i) => await collect(i + 1));
		const refSet = new Set(refs);
		let captured: Delivery[] = [];
		for (let tries = 0; tries < 60; tries++) {
			const deliveries = await control.deliveries();
			captured = deliveries.filter((d) => d.event === 'COLLECTION' && refSet.has(String(d.body.onusReference)));
			if (new Set(captured.map((d) => String(d.body.onusReference))).size >= collections) break;
			await sleep(500);
		}
		const byRef = new Map<string, Delivery>();
		for (const d of captured) if (!byRef.has(String(d.body.onusReference))) byRef.set(String(d.body.onusReference), d);
		if (byRef.size < collections) throw new Error(`only ${byRef.size} of ${collections} collection notifications were captured`);
		console.log(`  ${collections} collections made and their notifications captured in ${((Date.now() - made) / 1000).toFixed(1)} s`);

		// Warm-up: the webhook processes look the webhook up and the worker loads the workflow.
		await sleep(2000);

		// Three copies each; copy k of collection i goes to webhook process (i + k) % 2, and the
		// copies of a block of `concurrency` collections are sent together: they race in flight.
		type Shot = { ref: string; copy: number; process: number; body: string; hash: string };
		const shots: Shot[] = [];
		for (let start = 0; start < collections; start += concurrency) {
			for (let copy = 0; copy < 3; copy++) {
				for (let i = start; i < Math.min(collections, start + concurrency); i++) {
					const d = byRef.get(refs[i]) as Delivery;
					shots.push({ ref: refs[i], copy: copy + 1, process: (i + copy) % 2, body: JSON.stringify(d.body), hash: d.headers.hash });
				}
			}
		}
		const answers: Array<{ status: number; outcome: string; process: number; ms: number }> = new Array(shots.length);
		const sentAt = Date.now();
		await inParallel(shots.length, concurrency, async (k) => {
			const shot = shots[k];
			const t0 = performance.now();
			let status = -1;
			let outcome = 'error';
			try {
				const res = await request(urls[shot.process], {
					method: 'POST',
					headers: { 'content-type': 'text/plain', hash: shot.hash, 'user-agent': 'PayOnUs-Sandbox-Webhook/1.0' },
					body: shot.body,
					dispatcher: agent,
				});
				status = res.statusCode;
				const text = await res.body.text();
				outcome = /"duplicate":true/.test(text) ? 'suppressed' : status === 200 ? 'accepted' : 'rejected';
			} catch {
				status = -1;
			}
			answers[k] = { status, outcome, process: shot.process, ms: performance.now() - t0 };
		});
		const deliverSeconds = (Date.now() - sentAt) / 1000;
		console.log(`  ${shots.length} deliveries sent in ${deliverSeconds.toFixed(1)} s; waiting for the executions...`);

		const executions = await settle(n8n, workflowId, 1, 540_000);
		// the consumers run inside the receiver's executions (Execute Workflow waits for each)
		const runs = {
			autoPayout: await settle(n8n, imported.ids.autoPayout, 0, 120_000, 3000),
			notifications: await settle(n8n, imported.ids.notifications, 0, 120_000, 3000),
			cardOnFile: await settle(n8n, imported.ids.cardOnFile, 0, 60_000, 3000),
		};
		const drainSeconds = (Date.now() - sentAt) / 1000;
		const byStatus: Record<string, number> = {};
		for (const e of [...executions, ...runs.autoPayout, ...runs.notifications, ...runs.cardOnFile]) {
			byStatus[String(e.status)] = (byStatus[String(e.status)] ?? 0) + 1;
		}
		const mailsCaught = (await mail.messages()).filter((m) => refs.some((r) => m.subject.includes(r))).length;

		// The ledger: payouts (transfers) per collection.
		await sleep(1000);
		const ledger = await control.ledger();
		const perRef = new Map<string, LedgerTransfer[]>();
		for (const t of ledger.transfers) {
			const m = /^share-(.+)$/.exec(t.merchantReference ?? '');
			if (m && refSet.has(m[1])) perRef.set(m[1], [...(perRef.get(m[1]) ?? []), t]);
		}
		const payoutsPerCollection: Record<string, number> = {};
		for (const ref of refs) {
			const n = perRef.get(ref)?.length ?? 0;
			payoutsPerCollection[n] = (payoutsPerCollection[n] ?? 0) + 1;
		}
		const wrongAmount = refs.filter((ref, i) => (perRef.get(ref) ?? []).some((t) => Math.abs(t.amount - Math.round(amounts[i] * 10) / 100) > 0.005)).length;

		// What each execution concluded (the example's payout log: one line per execution that reached it).
		const lines = logLines(outcomeFile);
		const outcomes: Record<string, number> = {};
		for (const l of lines) outcomes[String(l.outcome)] = (outcomes[String(l.outcome)] ?? 0) + 1;
		const runsPerRef = new Map<string, number>();
		for (const l of lines) runsPerRef.set(String(l.collection), (runsPerRef.get(String(l.collection)) ?? 0) + 1);
		const collectionsRunTwiceOrMore = refs.filter((r) => (runsPerRef.get(r) ?? 0) > 1).length;
		const alreadyPaidWithTheRecord = lines.filter((l) => {
			if (l.outcome !== 'already paid') return false;
			const paid = perRef.get(String(l.collection));
			// the record's references come masked (long digit runs) in error details: compare reference and amount
			return paid?.length === 1 && l.transferReference === paid[0].merchantReference && Math.abs(Number(l.amount) - paid[0].amount) < 0.005;
		}).length;
		const failedLines = lines.filter((l) => l.outcome === 'failed');

		const answerCounts: Record<string, number> = {};
		for (const a of answers) {
			const key = `webhook${a.process + 1} ${a.status} ${a.outcome}`;
			answerCounts[key] = (answerCounts[key] ?? 0) + 1;
		}

		const report = {
			n8n: `${N8N_VERSION}, queue mode: PostgreSQL + Redis, main + 1 worker (concurrency 10) + 2 webhook processes`,
			topology: 'one receiving workflow (PayOnUs Trigger) -> Execute Workflow -> auto-payout, notifications, card on file',
			collections,
			deliveriesPerCollection: 3,
			deliveries: shots.length,
			concurrency,
			deliveryAnswers: answerCounts,
			deliverSeconds: Number(deliverSeconds.toFixed(1)),
			sendToLastExecutionSeconds: Number(drainSeconds.toFixed(1)),
			executionsStarted: executions.length,
			receiverExecutions: executions.length,
			runsPerConsumer: { autoPayout: runs.autoPayout.length, notifications: runs.notifications.length, cardOnFile: runs.cardOnFile.length },
			mailsCaught,
			executionsByStatus: byStatus,
			collectionsRunTwiceOrMore,
			payoutsPerCollection,
			collectionsPaidExactlyOnce: payoutsPerCollection['1'] ?? 0,
			collectionsPaidMoreThanOnce: refs.filter((r) => (perRef.get(r)?.length ?? 0) > 1).length,
			collectionsNotPaid: payoutsPerCollection['0'] ?? 0,
			payoutsWithWrongAmount: wrongAmount,
			executionOutcomes: outcomes,
			executionsFoundAlreadyPaid: outcomes['already paid'] ?? 0,
			alreadyPaidShowingTheLedgerPayout: alreadyPaidWithTheRecord,
			failedExecutions: (byStatus.error ?? 0) + (byStatus.crashed ?? 0),
			executionsLoggedFailed: failedLines.length,
			failedSamples: failedLines.slice(0, 3).map((l) => String(l.error).slice(0, 300)),
			totalSeconds: Number(((Date.now() - began) / 1000).toFixed(1)),
		};

		console.log('');
		console.log(`  | collections | deliveries (3 each, 2 webhook processes) | receiver runs | auto-payout runs | notifications runs | card-on-file runs | paid exactly once | paid twice+ | not paid | found already paid | failed executions |`);
		console.log(`  | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
		console.log(
			`  | ${collections} | ${shots.length} | ${executions.length} | ${runs.autoPayout.length} | ${runs.notifications.length} | ${runs.cardOnFile.length} | ${report.collectionsPaidExactlyOnce} | ${report.collectionsPaidMoreThanOnce} | ${report.collectionsNotPaid} | ${report.executionsFoundAlreadyPaid} | ${report.failedExecutions} |`,
		);
		console.log('');
		console.log(JSON.stringify(report, null, 2));
		if (failedLines.length > 0 || (outcomes['already paid'] ?? 0) > 0) {
			// One repeated run as n8n recorded it: the transfer node's item marked alreadyDone (node version 4).
			for (const e of runs.autoPayout.slice().reverse()) {
				const full = await n8n.getExecution(String(e.id));
				const transferRuns = (executionData(full).resultData?.runData as Record<string, IDataObject[]> | undefined)?.['Pay supplier share'];
				const first = (transferRuns?.[0] as { data?: { main?: Array<Array<{ json: IDataObject }> | null> } } | undefined)?.data?.main?.[0];
				if (first && first.length > 0 && first[0].json.outcome === 'alreadyDone') {
					console.log(`  a repeated run (execution ${String(e.id)}), "Pay supplier share": ${JSON.stringify(first[0].json).slice(0, 1500)}`);
					break;
				}
			}
		}
		if (report.failedExecutions > 0) {
			const failed = [...executions, ...runs.autoPayout, ...runs.notifications]
				.filter((e) => e.status === 'error' || e.status === 'crashed')
				.slice(0, 2);
			for (const e of failed) {
				const full = await n8n.getExecution(String(e.id)).catch(() => undefined);
				console.log(`  failed execution ${String(e.id)}: ${JSON.stringify(full).slice(0, 1200)}`);
			}
		}
		return report;
	} finally {
		await agent.close().catch(() => undefined);
		await n8n?.stop();
		await mail?.stop();
		receiver.server.close();
		await sb.stop();
		rmSync(filesDir, { recursive: true, force: true });
	}
}
