/**
 * `npm run bench -- real-network [--rtts=0,50,150] [--repeat=3] [--jitter=10] [--reads=1000] [--transfers=500]
 *                                [--budget=20] [--payout-500]`
 *
 * Speed over a realistic link: the sandbox serves HTTPS (a CA made at start,
 * trusted through NODE_EXTRA_CA_CERTS) behind an emulated link that adds a
 * round-trip time to the connection set-up and to every chunk each way
 * (sandbox/link.ts). At each RTT, side by side in one run:
 *  - Get Payment (each item a different payin) and Create Transfer (each item
 *    a new reference, bank transfer of 100 NGN from BUS-2001's 10,000,000),
 *  - paths:
 *    (a) the PayOnUs node in a real n8n (its own executionTime),
 *    (b) the HTTP Request node with the payOnUsApi credential (same n8n; it
 *        starts the requests of ALL its items at once and awaits them
 *        together: no concurrency limit, no money safety),
 *    (c) n8n's own request helper alone at the node's concurrency (floor: a
 *        new agent per request, so TCP + TLS handshakes on every call),
 *    (d) undici with keep-alive at the node's concurrency (limit),
 *    (e) Get Payment only: the floor's call made by a minimal node inside
 *        the same n8n (bench/inN8n/HelperInN8n.node.ts), beside the PayOnUs
 *        node in each pass (pass 1: node, (e), floor; pass 2: floor, (e),
 *        node): (e) ÷ (c) is what n8n's process costs a read, (a) ÷ (e)
 *        what the PayOnUs node adds in that process.
 *    (c) and (d) run in their own process on the Node that runs n8n (see
 *    bench/real-network-client.ts); the sandbox runs in its own process too.
 * Counts: the full counts at 0 ms; at higher RTTs each measurement is scaled
 * down to about --budget seconds (estimated from the RTT, the concurrency and
 * the round trips per call), never below 40 items. The output says which
 * counts ran: items/s is what is compared.
 * Every path is checked against the sandbox's request log: one answered
 * call per item reference (Get payment: the payin; Create transfer: the
 * reference, and no lookups or resends), the node's output in input order.
 *
 * --repeat=N: the matrix N times in one start; the summary table gives each
 * items/s and ratio as the median of the N runs with its range (the README's
 * performance table shows `--repeat=3`).
 * --passes=N (default 2): within each run, the PayOnUs node and the floor (and
 * (e) beside the node) are measured N times each, in turn and in mirrored order (node, floor, floor,
 * node, ...), every measurement with its own items; the run's items/s of each
 * is its items over its time summed across the passes. The machine's speed
 * drifts over seconds (the floor alone read 310 to 450 items/s at 50 ms on one
 * machine), and the order of the two would otherwise always favour the same
 * side. Each pass's own ratio is in the ratios table (`node ÷ floor by pass`).
 * --passes=1 is the protocol of the runs before 2026-11-29 (node, then floor).
 * --payout-500: afterwards, at the largest RTT, 500 transfers with the node's
 * default Money-Moving Concurrency, and one Bulk Transfer of 500 rows (Input
 * Items): seconds of each, at --payout-rtt (default 150). A few minutes more;
 * alone: `npm run bench -- real-network --rtts=none --payout-500`.
 * --money-concurrency=N: the node's Money-Moving Concurrency for the
 * transfers (default: its default); the floor and undici use the
 * same. Reads: the node's Max Requests in Flight default (the ceiling of its
 * adaptation) likewise. The HTTP Request
 * node cannot be held to a concurrency: it starts every item's request at
 * once (its Batching option only sleeps between batches).
 * Each row also gives the TCP connections its calls opened through the link
 * (connectionsPerCall): 1 for every path through n8n's helpers (a new agent,
 * so a new TCP + TLS connection, per request), near 0 for undici keep-alive.
 * --return-all=N (default 10000, 0: skip): afterwards, at --return-all-rtt
 * (default 150) ms, List Payments Return All over at least N payments: the
 * node's default (pages fetched ahead) vs Max Requests in Flight 1 (one page
 * after another); same records in the same order.
 * --rate-limited=N (default 1000, 0: skip): afterwards, under the sandbox
 * profile rate-limited (50 calls/s per client) at 50 ms, Get Payment of N
 * items: failed items and 429s counted.
 * --profile: n8n runs under --cpu-prof; the profile's top entries are printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { Agent, Pool, setGlobalDispatcher } from 'undici';
import { MONEY_MOVING_CONCURRENCY_DEFAULT, READ_CEILING_DEFAULT } from '../nodes/PayOnUs/run/concurrency';
import { RATE_LIMIT_PER_SECOND } from '../sandbox/profiles';
import { SandboxClient } from '../sandbox/client';
import { itemsNode } from '../dev/workflows';
import { sandboxAccessToken } from '../dev/sandboxCredential';
import { N8N_VERSION, startN8n, type N8nInstance } from '../dev/n8n';
import { benchCredential, nodeRun } from './common';
import { cpuProfileEnv, n8nProfileSummary, profileFolder } from './cpu-profile';
import type { Call } from './floor';
import { Baselines, startSandboxProcess } from './real-network-processes';
import { QuietRunner } from './quietRun';
import { payout500 } from './real-network-payout';
import {
	createPayins, httpCreateTransfer, httpGetPayment, payOnUsCreateTransfer, payOnUsGetPayment, PAYMENT_PATH, TRANSFER_PATH, transferBody,
} from './throughput-nodes';

export const description =
	'over TLS at 0/50/150 ms RTT: Get Payment and Create Transfer — PayOnUs node vs HTTP Request node vs n8n helper alone (floor) vs undici keep-alive';

const NODE = 'Node';
/** (e) of the header: the floor's call from a minimal node inside n8n. */
const IN_N8N = 'n8n helper inside n8n';
const MIN_COUNT = 40;
/** The node's speed against the floor it must reach at every RTT. */
const FLOOR_GOAL = 0.9;
/** The paths measured in turn, --passes times each per run (the third, (e), for Get Payment only). */
const IN_TURN = ['PayOnUs node', 'n8n helper alone (floor)', IN_N8N];

/** The PayOnUs node's defaults: Money-Moving Concurrency and the reads' ceiling. */
const MONEY_CONCURRENCY = MONEY_MOVING_CONCURRENCY_DEFAULT;
const READ_CONCURRENCY = READ_CEILING_DEFAULT;

interface Row {
	/** Which of the --repeat runs (1-based). */
	run: number;
	/** Which of the run's --passes (1-based; the HTTP Request node and undici: 1). */
	pass: number;
	rttMs: number;
	op: 'Get payment' | 'Create transfer';
	path: string;
	/** Calls in flight at most ('all': every item at once). */
	concurrency: number | 'all';
	items: number;
	ms: number;
	itemsPerSecond: number;
	scaled: string;
	serverMsPerCall: number;
	/** TCP connections opened through the link per item (1: a new connection, so TCP + TLS, for every call; near 0: kept alive). */
	connectionsPerCall: number;
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const flag = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
	// --rtts=none: no side-by-side matrix (e.g. with --payout-500 alone).
	const rttsFlag = flag('rtts', '0,50,150');
	const rtts = rttsFlag === 'none' ? [] : rttsFlag.split(',').map(Number);
	const payoutRtt = Number(flag('payout-rtt', '150'));
	const jitterPercent = Number(flag('jitter', '10'));
	const fullReads = Number(flag('reads', '1000'));
	const fullTransfers = Number(flag('transfers', '500'));
	const budget = Number(flag('budget', '25'));
	const runPayout500 = args.includes('--payout-500');
	// --repeat=N: the whole matrix N times in one start (same n8n, sandbox and link); the summary gives each figure's median and range.
	const repeat = Math.max(1, Math.floor(Number(flag('repeat', '1'))));
	// --passes=N: the node and the floor measured N times each per run, in mirrored order (see the header).
	const passes = Math.max(1, Math.floor(Number(flag('passes', '2'))));
	const mmFlag = args.find((a) => a.startsWith('--money-concurrency='));
	const mmConcurrency = Number(flag('money-concurrency', String(MONEY_CONCURRENCY)));
	const returnAllCount = Number(flag('return-all', '10000'));
	const returnAllRtt = Number(flag('return-all-rtt', '150'));
	const rateLimitedCount = Number(flag('rate-limited', '1000'));
	// --profile: n8n runs with --cpu-prof (NODE_OPTIONS); the profile's top entries are printed after n8n stops.
	const profileDir = args.includes('--profile') ? profileFolder() : undefined;

	const sandbox = await startSandboxProcess();
	const ca = readFileSync(sandbox.caFile, 'utf8');
	// This process (control calls, seeding) trusts the sandbox's CA too.
	const trusting = new Agent({ connect: { ca } });
	setGlobalDispatcher(trusting);
	const base = sandbox.url;
	const control = new SandboxClient(base, { dispatcher: trusting });
	let report: Record<string, unknown> = {};
	let n8n: N8nInstance | undefined;
	let baselines: Baselines | undefined;
	let quiet: QuietRunner | undefined;
	const rows: Row[] = [];
	const notes: string[] = [];
	try {
		[n8n, baselines] = await Promise.all([
			startN8n({
				db: 'sqlite',
				env: {
					NODE_EXTRA_CA_CERTS: sandbox.caFile,
					// (e): ./inN8n/HelperInN8n.node.ts, compiled beside this file.
					N8N_CUSTOM_EXTENSIONS: join(__dirname, 'inN8n'),
					...(profileDir ? cpuProfileEnv(profileDir) : {}),
				},
			}),
			Baselines.start(sandbox.caFile),
		]);
		const floorRuns = baselines; // (narrowed: the measurements below are closures)
		const token = await sandboxAccessToken(base, 3);
		const pool = new Pool(base, { connections: 8, connect: { ca } });
		const refs = await createPayins(pool, token, fullReads, 'rn');
		await pool.close();

		const credentials = await benchCredential(n8n, base);
		const payOnUsRead = payOnUsGetPayment(credentials);
		const httpRead = httpGetPayment(credentials, base);
		// The default Money-Moving Concurrency unless --money-concurrency is given.
		const payOnUsTransfer = payOnUsCreateTransfer(credentials, mmFlag ? mmConcurrency : undefined);
		const httpTransfer = httpCreateTransfer(credentials, base);

		// n8n is not asked anything while a measured node runs (./quietRun.ts).
		const runner = (quiet = await QuietRunner.start(n8n));
		const inN8n = async (name: string, node: IDataObject, items: IDataObject[]) => {
			const execution = await runner.run(name, [itemsNode(items.map((json) => ({ json }))), { name: NODE, ...node }], 15 * 60_000);
			const { executionTime, output } = nodeRun(execution, NODE, items.length);
			return { ms: executionTime ?? 0, output };
		};

		// The sandbox's log: one answered call per reference, nothing else on that path.
		// The link's connection count before a measurement (clearLog) and after it (checkLog): connections that measurement opened.
		const connectionsOpened = async () => (await control.link())?.connectionsOpened ?? NaN;
		let connectionsBefore = 0;
		const clearLog = async () => {
			await control.clearRequests();
			connectionsBefore = await connectionsOpened();
		};
		const checkLog = async (what: string, method: 'GET' | 'POST', path: string, expected: string[]) => {
			lastConnections = (await connectionsOpened()) - connectionsBefore;
			const log = await control.requests({ path, tokenCalls: true });
			const calls = log.filter((e) => e.path === path);
			lastServerMs = calls.reduce((a, e) => a + (e.durationMs ?? 0), 0) / Math.max(1, calls.length);
			const seen = new Map<string, number>();
			for (const e of calls) {
				if (e.status !== 200 || e.method !== method) throw new Error(`${what}: the sandbox answered ${e.status} to ${e.method} ${path}`);
				const ref = String(method === 'GET' ? e.query?.onusReference : (e.body as IDataObject | null)?.reference);
				seen.set(ref, (seen.get(ref) ?? 0) + 1);
			}
			const wrong = expected.filter((r) => seen.get(r) !== 1);
			if (calls.length !== expected.length || wrong.length > 0) {
				throw new Error(`${what}: ${calls.length} calls logged for ${expected.length} items; ${wrong.length} references not exactly once`);
			}
			// Nothing else was called (no lookups, no name enquiries): the API calls logged since the clear, by path.
			const all = await control.requests({ path: '/api/', tokenCalls: true });
			const others = new Map<string, number>();
			for (const e of all) if (e.path !== path) others.set(`${e.method} ${e.path}`, (others.get(`${e.method} ${e.path}`) ?? 0) + 1);
			if (others.size > 0) extraCalls.push({ what, rttMs: currentRtt, calls: Object.fromEntries(others) });
		};
		const extraCalls: IDataObject[] = [];
		/** Mean time the sandbox spent on one call of the last checked run (its request log's durationMs). */
		let lastServerMs = 0;
		let lastConnections = 0;
		let currentRtt = 0;
		let currentRun = 1;
		let currentPass = 1;
		/** Two measurements in this pass's order: as given in odd passes, swapped in even ones. */
		const mirrored = async (a: () => Promise<void>, b: () => Promise<void>) => {
			const [first, second] = currentPass % 2 === 1 ? [a, b] : [b, a];
			await first();
			await second();
		};
		/** The node and the floor `passes` times each, in mirrored order: node, floor, floor, node, ... */
		const inTurn = async (node: () => Promise<void>, floor: () => Promise<void>) => {
			for (currentPass = 1; currentPass <= passes; currentPass++) await mirrored(node, floor);
			currentPass = 1;
		};
		const checkOrder = (what: string, output: IDataObject[], key: string, expected: string[]) => {
			const wrong = output.findIndex((json, i) => json[key] !== expected[i]);
			if (wrong >= 0) throw new Error(`${what}: output ${wrong} is not the record of input item ${wrong}`);
		};

		/** Items a measurement gets at this RTT: about `budget` seconds' worth, at least MIN_COUNT, at most `full`. */
		const countFor = (full: number, rttMs: number, concurrency: number, roundTrips: number) => {
			if (rttMs === 0) return full;
			const perItem = (roundTrips * rttMs) / 1000 / concurrency;
			return Math.min(full, Math.max(MIN_COUNT, Math.floor(budget / perItem)));
		};
		let transferSeq = 0;
		const newRefs = (n: number) => {
			const tag = `rn${Date.now().toString(36)}-${++transferSeq}`;
			return Array.from({ length: n }, (_, i) => `${tag}-${i + 1}`);
		};
		const record = (rttMs: number, op: Row['op'], path: string, concurrency: number | 'all', items: number, full: number, ms: number) => {
			const row: Row = {
				run: currentRun,
				pass: currentPass,
				rttMs,
				op,
				path,
				concurrency,
				items,
				ms: Math.round(ms),
				itemsPerSecond: Number(((items * 1000) / ms).toFixed(1)),
				scaled: items < full ? `${items} of ${full}` : 'full',
				serverMsPerCall: Number(lastServerMs.toFixed(2)),
				connectionsPerCall: Number((lastConnections / items).toFixed(2)),
			};
			rows.push(row);
			const label = passes > 1 && IN_TURN.includes(path) ? `${path} #${currentPass}` : path;
			console.log(`  ${rttMs} ms ${op.padEnd(15)} ${label.padEnd(31)} x${String(concurrency).padEnd(3)} ${String(items).padStart(5)} items ${String(row.ms).padStart(7)} ms ${String(row.itemsPerSecond).padStart(8)} items/s  (sandbox ${row.serverMsPerCall} ms/call, ${row.connectionsPerCall} connections/call)`);
		};

		// Warm-up at 0 ms: token minted and stored by n8n, code paths compiled, helper loaded.
		await inN8n('rn warm PayOnUs', payOnUsRead, refs.slice(0, 50).map((onusReference) => ({ onusReference })));
		await inN8n('rn warm HTTP', httpRead, refs.slice(0, 50).map((onusReference) => ({ onusReference })));
		const warmCalls: Call[] = refs.slice(0, 50).map((r) => ({ method: 'GET', path: `${PAYMENT_PATH}?onusReference=${encodeURIComponent(r)}` }));
		await baselines.run({ kind: 'helper', baseUrl: base, token, concurrency: READ_CONCURRENCY, calls: warmCalls });
		await baselines.run({ kind: 'undici', baseUrl: base, token, concurrency: READ_CONCURRENCY, calls: warmCalls });

		for (currentRun = 1; currentRun <= repeat; currentRun++) for (const rttMs of rtts) {
			const jitterMs = Math.round((rttMs * jitterPercent) / 100);
			await control.setLink({ rttMs, jitterMs });
			currentRtt = rttMs;
			console.log(`\n  --- ${repeat > 1 ? `run ${currentRun} of ${repeat}: ` : ''}RTT ${rttMs} ms, jitter ${jitterMs} ms (TLS; n8n ${N8N_VERSION}) ---`);

			// Get payment.
			const nRead = countFor(fullReads, rttMs, READ_CONCURRENCY, 3);
			// The HTTP Request node sends ALL its items at once (no limit), so it gets the node's count.
			const nReadHttp = nRead;
			const nReadUndici = countFor(fullReads, rttMs, READ_CONCURRENCY, 1);
			const readItems = (n: number) => refs.slice(0, n).map((onusReference) => ({ onusReference }));
			const readCalls = (n: number): Call[] =>
				refs.slice(0, n).map((r) => ({ method: 'GET', path: `${PAYMENT_PATH}?onusReference=${encodeURIComponent(r)}` }));

			// In n8n, the PayOnUs node and (e) one after the other, their order mirrored
			// too (pass 1: node, (e), floor; pass 2: floor, (e), node): an execution
			// tends to pay for the one before it (garbage, the bench's read of its data).
			const readNode = async () => {
				await clearLog();
				const a = await inN8n(`rn ${rttMs} PayOnUs get`, payOnUsRead, readItems(nRead));
				await checkLog('PayOnUs node', 'GET', PAYMENT_PATH, refs.slice(0, nRead));
				checkOrder('PayOnUs node', a.output, 'onusReference', refs);
				record(rttMs, 'Get payment', 'PayOnUs node', READ_CONCURRENCY, nRead, fullReads, a.ms);
			};
			const readInside = async () => {
				await clearLog();
				const inside = { type: 'CUSTOM.helperInN8n', typeVersion: 1, parameters: { url: `${base}${PAYMENT_PATH}`, token, concurrency: READ_CONCURRENCY } };
				const e = await inN8n(`rn ${rttMs} helper in n8n get`, inside, readItems(nRead));
				await checkLog(IN_N8N, 'GET', PAYMENT_PATH, refs.slice(0, nRead));
				checkOrder(IN_N8N, e.output, 'onusReference', refs);
				record(rttMs, 'Get payment', IN_N8N, READ_CONCURRENCY, nRead, fullReads, e.ms);
			};
			await inTurn(
				async () => await mirrored(readNode, readInside),
				async () => {
					await clearLog();
					const c = await floorRuns.run({ kind: 'helper', baseUrl: base, token, concurrency: READ_CONCURRENCY, calls: readCalls(nRead) });
					await checkLog('n8n helper', 'GET', PAYMENT_PATH, refs.slice(0, nRead));
					record(rttMs, 'Get payment', 'n8n helper alone (floor)', READ_CONCURRENCY, nRead, fullReads, c);
				},
			);

			await clearLog();
			const b = await inN8n(`rn ${rttMs} HTTP get`, httpRead, readItems(nReadHttp));
			await checkLog('HTTP Request node', 'GET', PAYMENT_PATH, refs.slice(0, nReadHttp));
			record(rttMs, 'Get payment', 'HTTP Request node', 'all', nReadHttp, fullReads, b.ms);

			await clearLog();
			const d = await baselines.run({ kind: 'undici', baseUrl: base, token, concurrency: READ_CONCURRENCY, calls: readCalls(nReadUndici) });
			await checkLog('undici', 'GET', PAYMENT_PATH, refs.slice(0, nReadUndici));
			record(rttMs, 'Get payment', 'undici keep-alive (limit)', READ_CONCURRENCY, nReadUndici, fullReads, d);

			// Create transfer.
			const nTr = countFor(fullTransfers, rttMs, mmConcurrency, 3);
			const nTrHttp = nTr;
			const nTrUndici = countFor(fullTransfers, rttMs, mmConcurrency, 1);
			const transferCalls = (list: string[]): Call[] => list.map((r) => ({ method: 'POST', path: TRANSFER_PATH, body: transferBody(r) }));

			await inTurn(
				async () => {
					const list = newRefs(nTr);
					await clearLog();
					const e = await inN8n(`rn ${rttMs} PayOnUs transfer`, payOnUsTransfer, list.map((reference) => ({ reference })));
					await checkLog('PayOnUs node', 'POST', TRANSFER_PATH, list);
					checkOrder('PayOnUs node', e.output, 'merchantReference', list);
					record(rttMs, 'Create transfer', 'PayOnUs node', mmConcurrency, nTr, fullTransfers, e.ms);
				},
				async () => {
					const list = newRefs(nTr);
					await clearLog();
					const f = await floorRuns.run({ kind: 'helper', baseUrl: base, token, concurrency: mmConcurrency, calls: transferCalls(list) });
					await checkLog('n8n helper', 'POST', TRANSFER_PATH, list);
					record(rttMs, 'Create transfer', 'n8n helper alone (floor)', mmConcurrency, nTr, fullTransfers, f);
				},
			);

			let list = newRefs(nTrHttp);
			await clearLog();
			const g = await inN8n(`rn ${rttMs} HTTP transfer`, httpTransfer, list.map((reference) => ({ reference })));
			await checkLog('HTTP Request node', 'POST', TRANSFER_PATH, list);
			record(rttMs, 'Create transfer', 'HTTP Request node', 'all', nTrHttp, fullTransfers, g.ms);

			list = newRefs(nTrUndici);
			await clearLog();
			const h = await baselines.run({ kind: 'undici', baseUrl: base, token, concurrency: mmConcurrency, calls: transferCalls(list) });
			await checkLog('undici', 'POST', TRANSFER_PATH, list);
			record(rttMs, 'Create transfer', 'undici keep-alive (limit)', mmConcurrency, nTrUndici, fullTransfers, h);
		}

		// Ratios per run, RTT and operation (per item, so scaled counts compare); with --repeat, each figure's median and range over the runs.
		const ratios: IDataObject[] = [];
		const summary: IDataObject[] = [];
		const spread = (values: number[]) => {
			const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
			const median = sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
			return { median: Number(median.toFixed(2)), min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
		};
		const shown = (v: { median: number; min: number; max: number }) => (repeat > 1 ? `${v.median} (${v.min}–${v.max})` : String(v.median));
		for (const rttMs of rtts) {
			for (const op of ['Get payment', 'Create transfer'] as const) {
				const perRun = [];
				for (let run = 1; run <= repeat; run++) {
					// A path's items/s in this run: its items over its time, summed across the passes.
					const measured = (path: string, pass?: number) =>
						rows.filter((r) => r.run === run && r.rttMs === rttMs && r.op === op && r.path === path && (pass === undefined || r.pass === pass));
					const rate = (path: string, pass?: number) => {
						const list = measured(path, pass);
						const ms = list.reduce((sum, r) => sum + r.ms, 0);
						return list.length === 0 || ms <= 0 ? NaN : Number(((list.reduce((sum, r) => sum + r.items, 0) * 1000) / ms).toFixed(1));
					};
					const byPass = Array.from({ length: passes }, (_, i) => Number((rate('PayOnUs node', i + 1) / rate('n8n helper alone (floor)', i + 1)).toFixed(2)));
					const node = rate('PayOnUs node');
					const floor = rate('n8n helper alone (floor)');
					const http = rate('HTTP Request node');
					const limit = rate('undici keep-alive (limit)');
					const inside = rate(IN_N8N);
					const one = {
						run,
						rttMs,
						op,
						'node ÷ HTTP (all at once)': Number((node / http).toFixed(2)),
						'node ÷ floor (speed)': Number((node / floor).toFixed(2)),
						'node ÷ undici keep-alive (speed)': Number((node / limit).toFixed(2)),
						...(passes > 1 ? { 'node ÷ floor by pass': byPass.join(', ') } : {}),
						...(Number.isFinite(inside)
							? { 'in n8n ÷ floor (speed)': Number((inside / floor).toFixed(2)), 'node ÷ in n8n (speed)': Number((node / inside).toFixed(2)) }
							: {}),
					};
					ratios.push(one);
					perRun.push({ node, floor, http, limit, inside, ...one });
				}
				// Goal: at every RTT, reads and transfers at ≥ 0.95× n8n's own request helper at the same concurrency (the floor of any node that must use n8n's helpers).
				const vsFloor = spread(perRun.map((r) => r['node ÷ floor (speed)']));
				summary.push({
					rttMs,
					op,
					'PayOnUs node': shown(spread(perRun.map((r) => r.node))),
					'HTTP Request node (all at once)': shown(spread(perRun.map((r) => r.http))),
					'n8n helper alone (floor)': shown(spread(perRun.map((r) => r.floor))),
					'undici keep-alive (limit)': shown(spread(perRun.map((r) => r.limit))),
					'node ÷ HTTP': shown(spread(perRun.map((r) => r['node ÷ HTTP (all at once)']))),
					'node ÷ floor': shown(vsFloor),
					...(perRun.some((r) => Number.isFinite(r.inside))
						? {
								'helper inside n8n': shown(spread(perRun.map((r) => r.inside))),
								'in n8n ÷ floor': shown(spread(perRun.map((r) => r['in n8n ÷ floor (speed)'] ?? NaN))),
								'node ÷ in n8n': shown(spread(perRun.map((r) => r['node ÷ in n8n (speed)'] ?? NaN))),
							}
						: {}),
					goal: `≥${FLOOR_GOAL}× floor (median): ${vsFloor.median >= FLOOR_GOAL ? 'met' : 'NOT met'}`,
				});
			}
		}
		console.log(`\n  n8n ${N8N_VERSION}; node concurrency: reads ${READ_CONCURRENCY}, money-moving ${mmConcurrency}; HTTP Request node: every item in flight at once (n8n's HttpRequestV3 starts all requests, then awaits them)`);
		if (rows.length > 0) {
			console.table(rows);
			console.table(ratios);
			console.log(`  ${repeat > 1 ? `median (range) of ${repeat} runs` : 'one run'}: items/s and ratios`);
			console.table(summary);
		}
		if (extraCalls.length > 0) console.log('  calls besides the measured one:', JSON.stringify(extraCalls));
		if (rows.some((r) => r.scaled !== 'full')) {
			notes.push(`counts scaled down at higher RTT to about ${budget} s per measurement (min ${MIN_COUNT}); items/s is what is compared`);
			console.log(`  note: ${notes[notes.length - 1]}`);
		}
		const at = rtts.length > 0 ? rtts[rtts.length - 1] : payoutRtt;
		const nodeTransfers = rows.find((r) => r.rttMs === at && r.op === 'Create transfer' && r.path === 'PayOnUs node');
		if (nodeTransfers) {
			const est = 500 / nodeTransfers.itemsPerSecond;
			notes.push(`500 transfers at ${at} ms with the node (x${mmConcurrency}): about ${est.toFixed(0)} s (from items/s)`);
			console.log(`  ${notes[notes.length - 1]}`);
		}

		const returnAll = returnAllCount > 0 ? await measureReturnAll() : undefined;
		const rateLimited = rateLimitedCount > 0 ? await measureRateLimited() : undefined;

		/** Return All of List Payments at returnAllRtt: pages fetched ahead (default) vs one after another (Max Requests in Flight 1). */
		async function measureReturnAll(): Promise<IDataObject> {
			await control.setLink({ rttMs: 0, jitterMs: 0 });
			const seedPool = new Pool(base, { connections: 16, connect: { ca } });
			const t0 = Date.now();
			await createPayins(seedPool, token, Math.max(0, returnAllCount - refs.length), `rnall${Date.now().toString(36)}`);
			await seedPool.close();
			console.log(`\n  --- Return All: seeded ${Math.max(0, returnAllCount - refs.length)} more payins in ${Date.now() - t0} ms ---`);
			await control.setLink({ rttMs: returnAllRtt, jitterMs: Math.round((returnAllRtt * jitterPercent) / 100) });
			const listNode = (options: IDataObject) => ({
				type: 'n8n-nodes-payonus.payOnUs',
				typeVersion: 1,
				credentials,
				parameters: { resource: 'payin', operation: 'listPayments', returnAll: true, filters: {}, options },
			});
			const runList = async (name: string, options: IDataObject) => {
				const execution = await runner.run(name, [{ name: NODE, ...listNode(options) }], 15 * 60_000);
				const { executionTime, output } = nodeRun(execution, NODE, -1);
				return { ms: executionTime ?? 0, refs: output.map((o) => String(o.onusReference)) };
			};
			await clearLog();
			const ahead = await runList('rn return all ahead', {});
			const pagesAhead = (await control.requests({ path: '/api/v1/payment-requests' })).length;
			await clearLog();
			const sequential = await runList('rn return all sequential', { maxRequestsInFlight: 1 });
			const pagesSequential = (await control.requests({ path: '/api/v1/payment-requests' })).length;
			const same = ahead.refs.length === sequential.refs.length && ahead.refs.every((r, i) => r === sequential.refs[i]);
			if (!same) throw new Error(`Return All: pages fetched ahead gave ${ahead.refs.length} records, one after another ${sequential.refs.length}, or another order`);
			if (new Set(ahead.refs).size !== ahead.refs.length) throw new Error('Return All: a record appears twice');
			const result = {
				rttMs: returnAllRtt,
				records: ahead.refs.length,
				pagesAhead,
				pagesSequential,
				aheadMs: Math.round(ahead.ms),
				sequentialMs: Math.round(sequential.ms),
				speedup: Number((sequential.ms / ahead.ms).toFixed(2)),
				sameRecordsSameOrder: same,
				goal: `≥5× one page after another: ${sequential.ms / ahead.ms >= 5 ? 'met' : 'NOT met'}`,
			};
			console.log('  Return All:', result);
			return result;
		}

		/** Get Payment under the rate-limited profile (50 ms): failed items, 429s, calls a second. */
		async function measureRateLimited(): Promise<IDataObject> {
			const rtt = 50;
			await control.setLink({ rttMs: rtt, jitterMs: Math.round((rtt * jitterPercent) / 100) });
			await control.setProfiles(['rate-limited']);
			const n = Math.min(rateLimitedCount, refs.length);
			try {
				await clearLog();
				const started = Date.now();
				const chain = [itemsNode(refs.slice(0, n).map((onusReference) => ({ json: { onusReference } }))), { name: NODE, ...payOnUsRead }];
				const execution = await runner.run('rn rate limited', chain, 15 * 60_000);
				const wallMs = Date.now() - started;
				let output: IDataObject[] = [];
				let failure = '';
				try {
					output = nodeRun(execution, NODE, n).output;
				} catch (error) {
					failure = (error as Error).message;
				}
				const log = (await control.requests({ path: PAYMENT_PATH })).filter((e) => e.path === PAYMENT_PATH);
				const tooMany = log.filter((e) => e.status === 429).length;
				// Where in the run the 429s came: per second from the first call (the start's burst against the steady probes).
				const first = Math.min(...log.map((e) => Date.parse(e.at)));
				const bySecond: number[] = [];
				for (const e of log) {
					if (e.status !== 429) continue;
					const sec = Math.floor((Date.parse(e.at) - first) / 1000);
					bySecond[sec] = (bySecond[sec] ?? 0) + 1;
				}
				const ok = log.filter((e) => e.status === 200).length;
				const seconds = wallMs / 1000;
				const failed = failure ? n - output.filter((o) => !('error' in o)).length : output.filter((o) => 'error' in o).length;
				const result = {
					rttMs: rtt,
					items: n,
					limitPerSecond: RATE_LIMIT_PER_SECOND,
					failedItems: failed,
					calls: log.length,
					answered200: ok,
					answered429: tooMany,
					seconds: Number(seconds.toFixed(1)),
					itemsPerSecond: Number((n / seconds).toFixed(1)),
					'429s per item': Number((tooMany / n).toFixed(3)),
					'429s by second': Array.from(bySecond, (c) => c ?? 0).join(' '),
					// The limit implies about n / limit seconds; the goal: 0 failed items and at most 8 429s per second of the run (set when a run started at 8 in flight; reads now start at their ceiling, the bound stays).
					goal: `0 failed, 429s ≤ ${Math.ceil(seconds) * 8}: ${failed === 0 && tooMany <= Math.ceil(seconds) * 8 ? 'met' : 'NOT met'}`,
					...(failure ? { failure } : {}),
				};
				console.log('  Rate-limited profile:', result);
				return result;
			} finally {
				await control.setProfiles([]);
			}
		}

		const payout = runPayout500
			? await payout500({ quiet: runner, control, credentials, payOnUsTransfer, newRefs, inN8n, checkLog, rttMs: payoutRtt, jitterPercent, moneyMovingConcurrency: mmConcurrency })
			: undefined;
		report = { extraCalls, n8nVersion: N8N_VERSION, rtts, jitterPercent, readCeiling: READ_CONCURRENCY, moneyMovingConcurrency: mmConcurrency, repeat, passes, rows, ratios, summary, returnAll, rateLimited, notes, payout };
	} finally {
		await quiet?.close();
		baselines?.stop();
		await n8n?.stop();
		sandbox.child.kill('SIGTERM');
	}
	if (profileDir) report.profile = n8nProfileSummary(profileDir);
	return report;
}
