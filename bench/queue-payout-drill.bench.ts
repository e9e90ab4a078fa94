/**
 * `npm run bench -- queue-payout-drill [--collections=500] [--concurrency=16] [--checkouts=50] [--claim] [--restart-redis [--volatile-redis]]`
 *
 * Issue 37: `--checkouts=N` adds N Payment Page checkouts (the "Sell with a
 * link" example) paid with the tab closed: their notifications go through
 * the receiver like the collections' (3 copies each), which forwards each to
 * the page's `/notify` (webhook process 1); the buyer's browser never comes
 * back. `--claim` switches the examples' claim steps on (n8n's Redis node,
 * INCR) on a claim Redis of the drill's own (a separate redis-server on a
 * free port, run as a production one must be: append-only file, fsync on
 * every write); `--restart-redis` (implies --claim) kills that Redis
 * (SIGKILL, a crash) half-way through the deliveries and starts it again
 * 2 s later; `--volatile-redis` runs it without any file, as the machine's
 * Redis here is, so the restart empties it (what that costs).
 *
 * The time from a checkout's notification to its page run is reported in
 * three parts: the first copy sent -> the receiver run that forwarded it
 * started on the worker (the trigger's answer, then the wait in the queue),
 * that run's start -> its forward (**Hand to the payment page**), the
 * forward -> the page's run started (the page's Get Payment, then the
 * queue again).
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
import { inParallel, percentile } from './common';
import { claimRedisCredential, createErrorWorkflow, FAILED_RUN, fundAccount, startBankCheckout, startClaimRedis, type ClaimRedis } from '../dev/queueClaims';
import { sandboxAccessToken } from '../dev/sandboxCredential';
import { loadExample, prepareExample, PAGE_HANDOFF_NODE, PAYMENT_PAGE_TYPE, REDIS_CREDENTIAL_TYPE } from '../scripts/lib/examples';
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
	const checkouts = arg(args, 'checkouts', 50);
	const restartRedis = args.includes('--restart-redis');
	const volatileRedis = args.includes('--volatile-redis');
	const claimOn = restartRedis || args.includes('--claim');
	const tag = Date.now().toString(36);
	const filesDir = mkdtempSync(join(tmpdir(), 'payonus-queue-payout-'));
	const outcomeFile = join(filesDir, 'auto-payouts.log');
	const began = Date.now();

	const sb = await startSandbox({ port: 0 });
	const receiver = await sink();
	let n8n: N8nInstance | undefined;
	let mail: MailCatcher | undefined;
	let claimRedis: ClaimRedis | undefined;
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
		// The claim steps (issue 37): on a claim Redis of the drill's own.
		let redisCredential: { id: string; name: string } | undefined;
		if (claimOn) {
			claimRedis = await startClaimRedis({ persistent: !volatileRedis });
			const { id } = await n8n.createCredential({ name: 'Claim Redis', type: REDIS_CREDENTIAL_TYPE, data: claimRedisCredential(claimRedis) });
			redisCredential = { id, name: 'Claim Redis' };
		}
		// The workflows' error workflow (as docs/going-live.md sets it up): a failed run e-mails a person.
		const errorWorkflow = await createErrorWorkflow(n8n, { id: smtpId, name: SMTP_CREDENTIAL_NAME });
		// The page ("Sell with a link"), bounds raised (every buyer of the drill is 127.0.0.1).
		const sell = prepareExample(loadExample('sellWithLink'), { credential, redisCredential, errorWorkflow, settings: { salesFile: join(filesDir, 'sales.log') } });
		const pageNode = sell.nodes.find((n) => n.type === PAYMENT_PAGE_TYPE)!;
		const many = 100_000; // the highest a page takes (MAX_LIMIT)
		pageNode.parameters = { ...pageNode.parameters, methods: ['bank'], options: { attemptsPerVisitor: many, attemptsPerTarget: many, attemptsPerPage: many, callsPerVisitor: many, callsPerPage: many } };
		const pageId = String((await n8n.createWorkflow(sell as never)).id);
		await n8n.activate(pageId);
		const pagePath = String(pageNode.parameters.path);
		const imported = await importEventExamples(n8n, {
			credential,
			smtpCredential: { id: smtpId, name: SMTP_CREDENTIAL_NAME },
			settings: { autoPayout: exampleSettings('autoPayout', filesDir) },
			pageNotifyUrl: n8n.webhookProcessUrl(0, `${pagePath}/notify`),
			redisCredential,
			errorWorkflow,
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
		// Page checkouts, started as a buyer's browser starts them (webhook process 2), paid by the bank; the tab closed.
		const bankToken = await sandboxAccessToken(sb.url, 3);
		for (let tries = 0; tries < 60 && (await fetch(n8n.webhookProcessUrl(1, pagePath))).status === 404; tries++) await sleep(500);
		const checkoutRefs: string[] = new Array(checkouts);
		await inParallel(checkouts, 4, async (i) => {
			checkoutRefs[i] = await startBankCheckout(n8n!.webhookProcessUrl(1, pagePath), { workflowId: pageId, nodeId: String(pageNode.id) }, { email: `buyer${i}@example.com`, name: `Buyer ${i}` });
		});
		const checkoutPayins = new Map<string, string>(); // onusReference -> checkout reference
		for (const payin of (await control.ledger()).payins) {
			const m = /^(PP-[0-9a-f]+)-1$/.exec(String(payin.merchantReference));
			if (m && checkoutRefs.includes(m[1])) {
				await fundAccount(sb.url, bankToken, payin);
				checkoutPayins.set(String(payin.onusReference), m[1]);
			}
		}
		if (checkoutPayins.size !== checkouts) throw new Error(`${checkoutPayins.size} of ${checkouts} checkouts have a payin`);
		refs.push(...checkoutPayins.keys());
		const refSet = new Set(refs);
		let captured: Delivery[] = [];
		for (let tries = 0; tries < 60; tries++) {
			const deliveries = await control.deliveries();
			captured = deliveries.filter((d) => d.event === 'COLLECTION' && refSet.has(String(d.body.onusReference)));
			if (new Set(captured.map((d) => String(d.body.onusReference))).size >= refs.length) break;
			await sleep(500);
		}
		const byRef = new Map<string, Delivery>();
		for (const d of captured) if (!byRef.has(String(d.body.onusReference))) byRef.set(String(d.body.onusReference), d);
		if (byRef.size < refs.length) throw new Error(`only ${byRef.size} of ${refs.length} collection notifications were captured`);
		console.log(`  ${collections} collections and ${checkouts} page checkouts made and their notifications captured in ${((Date.now() - made) / 1000).toFixed(1)} s`);
		const events = refs.length;

		// Warm-up: the webhook processes look the webhook up and the worker loads the workflow.
		await sleep(2000);

		// Three copies each; copy k of collection i goes to webhook process (i + k) % 2, and the
		// copies of a block of `concurrency` collections are sent together: they race in flight.
		type Shot = { ref: string; copy: number; process: number; body: string; hash: string };
		const shots: Shot[] = [];
		for (let start = 0; start < events; start += concurrency) {
			for (let copy = 0; copy < 3; copy++) {
				for (let i = start; i < Math.min(events, start + concurrency); i++) {
					const d = byRef.get(refs[i]) as Delivery;
					shots.push({ ref: refs[i], copy: copy + 1, process: (i + copy) % 2, body: JSON.stringify(d.body), hash: d.headers.hash });
				}
			}
		}
		const answers: Array<{ status: number; outcome: string; process: number; ms: number }> = new Array(shots.length);
		const sentAt = Date.now();
		const firstSent = new Map<string, number>();
		let restarted: Promise<void> | undefined;
		await inParallel(shots.length, concurrency, async (k) => {
			const shot = shots[k];
			if (restartRedis && k === Math.floor(shots.length / 2) && claimRedis) {
				const r = claimRedis;
				restarted = (async () => {
					await r.stop();
					console.log(`  claim Redis killed at delivery ${k} of ${shots.length}; started again in 2 s`);
					await sleep(2000);
					await r.start();
				})();
			}
			if (!firstSent.has(shot.ref)) firstSent.set(shot.ref, Date.now());
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
		await restarted;
		const deliverSeconds = (Date.now() - sentAt) / 1000;
		console.log(`  ${shots.length} deliveries sent in ${deliverSeconds.toFixed(1)} s; waiting for the executions...`);

		const executions = await settle(n8n, workflowId, 1, 540_000);
		// the consumers run inside the receiver's executions (Execute Workflow waits for each)
		const runs = {
			autoPayout: await settle(n8n, imported.ids.autoPayout, 0, 120_000, 3000),
			notifications: await settle(n8n, imported.ids.notifications, 0, 120_000, 3000),
			cardOnFile: await settle(n8n, imported.ids.cardOnFile, 0, 60_000, 3000),
			page: await settle(n8n, pageId, 0, 120_000, 3000),
		};
		await settle(n8n, errorWorkflow, 0, 60_000, 3000); // its e-mails are read below
		// The page: each checkout's first run (from the notification), and how many went on (one sales line each).
		const pageStarts = new Map<string, number>();
		for (const e of runs.page) {
			const full = await n8n.getExecution(String(e.id));
			const item = (executionData(full).resultData?.runData as Record<string, Array<{ data?: { main?: Array<Array<{ json: IDataObject }>> } }>> | undefined)?.['Payment page']?.[0]?.data?.main?.[0]?.[0]?.json;
			const ref = String(item?.merchantCheckoutReference ?? '');
			const at = Date.parse(String(e.startedAt));
			if (ref && (!pageStarts.has(ref) || at < (pageStarts.get(ref) as number))) pageStarts.set(ref, at);
		}
		const startDelays: number[] = [];
		for (const [onus, ref] of checkoutPayins) {
			const started = pageStarts.get(ref);
			if (started !== undefined) startDelays.push(started - (firstSent.get(onus) as number));
		}
		// Where that time goes: the receiver run that forwarded each checkout (its first).
		const forwards = new Map<string, { runStart: number; forwardAt: number; consumersBefore: boolean }>();
		for (const e of executions) {
			const full = await n8n.getExecution(String(e.id));
			const runData = executionData(full).resultData?.runData as Record<string, Array<{ startTime?: number; data?: { main?: Array<Array<{ json: IDataObject }>> } }>> | undefined;
			const hand = runData?.[PAGE_HANDOFF_NODE]?.[0];
			const onus = String(runData?.['PayOnUs event']?.[0]?.data?.main?.[0]?.[0]?.json?.onusReference ?? '');
			if (!hand?.startTime || !checkoutPayins.has(onus)) continue;
			const payoutAt = runData?.['Auto-payout on collection']?.[0]?.startTime;
			const at = { runStart: Date.parse(String(e.startedAt)), forwardAt: hand.startTime, consumersBefore: payoutAt !== undefined && payoutAt < hand.startTime };
			if (!forwards.has(onus) || at.forwardAt < (forwards.get(onus) as { forwardAt: number }).forwardAt) forwards.set(onus, at);
		}
		const phase = { toReceiverRun: [] as number[], inReceiverRun: [] as number[], forwardToPageRun: [] as number[] };
		for (const [onus, f] of forwards) {
			phase.toReceiverRun.push(f.runStart - (firstSent.get(onus) as number));
			phase.inReceiverRun.push(f.forwardAt - f.runStart);
			const started = pageStarts.get(checkoutPayins.get(onus) as string);
			if (started !== undefined) phase.forwardToPageRun.push(started - f.forwardAt);
		}
		const p50p99 = (v: number[]) => ({ p50: percentile(v, 50), p99: percentile(v, 99) });
		// The claims the claim Redis holds at the end (each event and checkout once, restarted or not).
		const claimsHeld = claimRedis
			? {
					events: Number(claimRedis.cli('eval', "return #redis.call('keys', ARGV[1])", '0', 'payonus:event:*')),
					checkouts: Number(claimRedis.cli('eval', "return #redis.call('keys', ARGV[1])", '0', 'payonus:checkout:*')),
				}
			: undefined;
		const salesFile = join(filesDir, 'sales.log');
		const sales = existsSync(salesFile) ? readFileSync(salesFile, 'utf8').split('\n').filter(Boolean) : [];
		const salesPer = (ref: string) => sales.filter((l) => l.includes(ref)).length;
		const checkoutsOnce = checkoutRefs.filter((r) => salesPer(r) === 1).length;
		const checkoutsTwice = checkoutRefs.filter((r) => salesPer(r) > 1).length;
		const drainSeconds = (Date.now() - sentAt) / 1000;
		const byStatus: Record<string, number> = {};
		for (const e of [...executions, ...runs.autoPayout, ...runs.notifications, ...runs.cardOnFile, ...runs.page]) {
			byStatus[String(e.status)] = (byStatus[String(e.status)] ?? 0) + 1;
		}
		const subjects = (await mail.messages()).map((m) => m.subject);
		const toldAPerson = subjects.filter((x) => x.startsWith(FAILED_RUN)).length;
		const mailsCaught = subjects.filter((s) => refs.some((r) => s.includes(r))).length;
		const mailsPer = (r: string) => subjects.filter((s) => s.includes(r)).length;
		const emailedOnce = refs.filter((r) => mailsPer(r) === 1).length;
		const emailedTwice = refs.filter((r) => mailsPer(r) > 1).length;
		const emailedNever = refs.filter((r) => mailsPer(r) === 0).length;

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

		const acceptMs = answers.map((a) => a.ms);
		const report = {
			n8n: `${N8N_VERSION}, queue mode: PostgreSQL + Redis, main + 1 worker (concurrency 10) + 2 webhook processes`,
			claimStep: claimOn
				? `on (Redis INCR on a separate redis-server, ${volatileRedis ? 'no persistence' : 'appendonly, fsync always'})${restartRedis ? ', claim Redis killed half-way and restarted' : ''}`
				: 'off',
			claimsHeldAtTheEnd: claimsHeld,
			pageCheckoutsPaidWithTheTabClosed: checkouts,
			checkoutsWentOnOnce: checkoutsOnce,
			checkoutsWentOnTwiceOrMore: checkoutsTwice,
			checkoutsNeverStarted: checkoutRefs.filter((r) => !pageStarts.has(r)).length,
			pageRuns: runs.page.length,
			pageRunsSuppressedByTheClaim: runs.page.length - sales.length,
			notificationToPageStartMs: { p50: percentile(startDelays, 50), p99: percentile(startDelays, 99), max: startDelays.length ? Math.max(...startDelays) : NaN },
			notificationToPageStartParts: {
				firstCopySentToReceiverRunStartedMs: p50p99(phase.toReceiverRun),
				receiverRunStartedToForwardMs: p50p99(phase.inReceiverRun),
				forwardToPageRunStartedMs: p50p99(phase.forwardToPageRun),
				forwardsAfterTheConsumers: [...forwards.values()].filter((f) => f.consumersBefore).length,
			},
			triggerAcceptMs: { p50: percentile(acceptMs, 50), p99: percentile(acceptMs, 99) },
			eventsEmailedOnce: emailedOnce,
			eventsEmailedTwiceOrMore: emailedTwice,
			eventsNotEmailed: emailedNever,
			receiverRunsSuppressedByTheClaim: executions.length - runs.notifications.length,
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
			failedExecutions: (byStatus.error ?? 0) + (byStatus.crashed ?? 0) + (byStatus.canceled ?? 0),
			failedRunsEmailedToAPerson: toldAPerson,
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
		console.log(`  | claim step | events (collections + checkouts) | receiver runs | suppressed by the claim | notifications runs | e-mailed once / twice+ / never | paid exactly once / twice+ | checkouts on once / twice+ / never started | page runs | notification -> page start p50 / p99 ms | accept p50 / p99 ms | failed executions |`);
		console.log(`  | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
		console.log(
			`  | ${report.claimStep} | ${collections} + ${checkouts} | ${executions.length} | ${report.receiverRunsSuppressedByTheClaim} | ${runs.notifications.length} | ${emailedOnce} / ${emailedTwice} / ${emailedNever} | ${report.collectionsPaidExactlyOnce} / ${report.collectionsPaidMoreThanOnce} | ${checkoutsOnce} / ${checkoutsTwice} / ${report.checkoutsNeverStarted} | ${runs.page.length} | ${report.notificationToPageStartMs.p50} / ${report.notificationToPageStartMs.p99} | ${report.triggerAcceptMs.p50} / ${report.triggerAcceptMs.p99} | ${report.failedExecutions} |`,
		);
		console.log('');
		console.log(JSON.stringify(report, null, 2));
		if (failedLines.length > 0 || (outcomes['already paid'] ?? 0) > 0) {
			// One repeated run as n8n recorded it: the transfer node's item marked alreadyDone.
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
		await claimRedis?.close();
		receiver.server.close();
		await sb.stop();
		rmSync(filesDir, { recursive: true, force: true });
	}
}
