/**
 * `npm run bench -- real-network [--rtts=0,50,150] [--jitter=10] [--reads=1000] [--transfers=500]
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
 *    (d) undici with keep-alive at the node's concurrency (limit).
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
 * --payout-500: afterwards, at the largest RTT, 500 transfers with the node's
 * default Money-Moving Concurrency, and one Bulk Transfer of 500 rows (Input
 * Items): seconds of each, at --payout-rtt (default 150). A few minutes more;
 * alone: `npm run bench -- real-network --rtts=none --payout-500`.
 * --money-concurrency=N: the node's Money-Moving Concurrency for the
 * transfers (default: the node's default); the floor and undici use the same.
 * --profile: n8n runs under --cpu-prof; the profile's top entries are printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { Agent, Pool, setGlobalDispatcher } from 'undici';
import * as PayOnUsNode from '../nodes/PayOnUs/PayOnUs.node';
import { SandboxClient } from '../sandbox/client';
import { itemsNode, manualWorkflow, sandboxAccessToken } from '../test/harness/fixtures';
import { N8N_VERSION, startN8n, type N8nInstance, type WorkflowJson } from '../test/harness/n8n';
import { benchCredential, nodeRun } from './common';
import { n8nProfileSummary } from './cpu-profile';
import type { Call } from './floor';
import { Baselines, startSandboxProcess } from './real-network-processes';
import { payout500 } from './real-network-payout';
import {
	createPayins, httpCreateTransfer, httpGetPayment, payOnUsCreateTransfer, payOnUsGetPayment, PAYMENT_PATH, TRANSFER_PATH, transferBody,
} from './throughput-nodes';

export const description =
	'over TLS at 0/50/150 ms RTT: Get Payment and Create Transfer — PayOnUs node vs HTTP Request node vs n8n helper alone (floor) vs undici keep-alive';

const NODE = 'Node';
const MIN_COUNT = 40;

/**
 * Money-Moving Concurrency measured (--money-concurrency=N for another): 2, as
 * in the README's table; the node's default is 1 (one after the other).
 */
const MONEY_CONCURRENCY = Math.max(2, PayOnUsNode.MONEY_MOVING_CONCURRENCY_DEFAULT);
const READ_CONCURRENCY = PayOnUsNode.READ_CONCURRENCY;

interface Row {
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
	const mmConcurrency = Number(flag('money-concurrency', String(MONEY_CONCURRENCY)));
	// --profile: n8n runs with --cpu-prof (NODE_OPTIONS); the profile's top entries are printed after n8n stops.
	const profileDir = args.includes('--profile') ? join(__dirname, '..', '..', 'bench', 'results', `profile-${Date.now().toString(36)}`) : undefined;

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
	const rows: Row[] = [];
	const notes: string[] = [];
	try {
		[n8n, baselines] = await Promise.all([
			startN8n({
				db: 'sqlite',
				env: {
					NODE_EXTRA_CA_CERTS: sandbox.caFile,
					...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
				},
			}),
			Baselines.start(sandbox.caFile),
		]);
		const token = await sandboxAccessToken(base, 3);
		const pool = new Pool(base, { connections: 8, connect: { ca } });
		const refs = await createPayins(pool, token, fullReads, 'rn');
		await pool.close();

		const credentials = await benchCredential(n8n, base);
		const payOnUsRead = payOnUsGetPayment(credentials);
		const httpRead = httpGetPayment(credentials, base);
		const payOnUsTransfer = payOnUsCreateTransfer(credentials, mmConcurrency);
		const httpTransfer = httpCreateTransfer(credentials, base);

		const inN8n = async (name: string, node: IDataObject, items: IDataObject[]) => {
			const wf: WorkflowJson = manualWorkflow(name, [itemsNode(items.map((json) => ({ json }))), { name: NODE, ...node }]);
			const { id } = await n8n!.createWorkflow(wf);
			const execution = await n8n!.runWorkflow(id, { timeoutMs: 15 * 60_000 });
			const { executionTime, output } = nodeRun(execution, NODE, items.length);
			await n8n!.deleteWorkflow(id).catch(() => undefined);
			return { ms: executionTime ?? 0, output };
		};

		// The sandbox's log: one answered call per reference, nothing else on that path.
		const clearLog = async () => await control.clearRequests();
		const checkLog = async (what: string, method: 'GET' | 'POST', path: string, expected: string[]) => {
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
		let currentRtt = 0;
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
				rttMs,
				op,
				path,
				concurrency,
				items,
				ms: Math.round(ms),
				itemsPerSecond: Number(((items * 1000) / ms).toFixed(1)),
				scaled: items < full ? `${items} of ${full}` : 'full',
				serverMsPerCall: Number(lastServerMs.toFixed(2)),
			};
			rows.push(row);
			console.log(`  ${rttMs} ms ${op.padEnd(15)} ${path.padEnd(28)} x${String(concurrency).padEnd(3)} ${String(items).padStart(5)} items ${String(row.ms).padStart(7)} ms ${String(row.itemsPerSecond).padStart(8)} items/s  (sandbox ${row.serverMsPerCall} ms/call)`);
		};

		// Warm-up at 0 ms: token minted and stored by n8n, code paths compiled, helper loaded.
		await inN8n('rn warm PayOnUs', payOnUsRead, refs.slice(0, 50).map((onusReference) => ({ onusReference })));
		await inN8n('rn warm HTTP', httpRead, refs.slice(0, 50).map((onusReference) => ({ onusReference })));
		const warmCalls: Call[] = refs.slice(0, 50).map((r) => ({ method: 'GET', path: `${PAYMENT_PATH}?onusReference=${encodeURIComponent(r)}` }));
		await baselines.run({ kind: 'helper', baseUrl: base, token, concurrency: READ_CONCURRENCY, calls: warmCalls });
		await baselines.run({ kind: 'undici', baseUrl: base, token, concurrency: READ_CONCURRENCY, calls: warmCalls });

		for (const rttMs of rtts) {
			const jitterMs = Math.round((rttMs * jitterPercent) / 100);
			await control.setLink({ rttMs, jitterMs });
			currentRtt = rttMs;
			console.log(`\n  --- RTT ${rttMs} ms, jitter ${jitterMs} ms (TLS; n8n ${N8N_VERSION}) ---`);

			// Get payment.
			const nRead = countFor(fullReads, rttMs, READ_CONCURRENCY, 3);
			// The HTTP Request node sends ALL its items at once (no limit), so it gets the node's count.
			const nReadHttp = nRead;
			const nReadUndici = countFor(fullReads, rttMs, READ_CONCURRENCY, 1);
			const readItems = (n: number) => refs.slice(0, n).map((onusReference) => ({ onusReference }));
			const readCalls = (n: number): Call[] =>
				refs.slice(0, n).map((r) => ({ method: 'GET', path: `${PAYMENT_PATH}?onusReference=${encodeURIComponent(r)}` }));

			await clearLog();
			const a = await inN8n(`rn ${rttMs} PayOnUs get`, payOnUsRead, readItems(nRead));
			await checkLog('PayOnUs node', 'GET', PAYMENT_PATH, refs.slice(0, nRead));
			checkOrder('PayOnUs node', a.output, 'onusReference', refs);
			record(rttMs, 'Get payment', 'PayOnUs node', READ_CONCURRENCY, nRead, fullReads, a.ms);

			await clearLog();
			const c = await baselines.run({ kind: 'helper', baseUrl: base, token, concurrency: READ_CONCURRENCY, calls: readCalls(nRead) });
			await checkLog('n8n helper', 'GET', PAYMENT_PATH, refs.slice(0, nRead));
			record(rttMs, 'Get payment', 'n8n helper alone (floor)', READ_CONCURRENCY, nRead, fullReads, c);

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

			let list = newRefs(nTr);
			await clearLog();
			const e = await inN8n(`rn ${rttMs} PayOnUs transfer`, payOnUsTransfer, list.map((reference) => ({ reference })));
			await checkLog('PayOnUs node', 'POST', TRANSFER_PATH, list);
			checkOrder('PayOnUs node', e.output, 'merchantReference', list);
			record(rttMs, 'Create transfer', 'PayOnUs node', mmConcurrency, nTr, fullTransfers, e.ms);

			list = newRefs(nTr);
			await clearLog();
			const f = await baselines.run({ kind: 'helper', baseUrl: base, token, concurrency: mmConcurrency, calls: transferCalls(list) });
			await checkLog('n8n helper', 'POST', TRANSFER_PATH, list);
			record(rttMs, 'Create transfer', 'n8n helper alone (floor)', mmConcurrency, nTr, fullTransfers, f);

			list = newRefs(nTrHttp);
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

		// Ratios per RTT and operation (per item, so scaled counts compare).
		const ratios: IDataObject[] = [];
		for (const rttMs of rtts) {
			for (const op of ['Get payment', 'Create transfer'] as const) {
				const rate = (path: string) => rows.find((r) => r.rttMs === rttMs && r.op === op && r.path === path)?.itemsPerSecond ?? NaN;
				const node = rate('PayOnUs node');
				const floor = rate('n8n helper alone (floor)');
				const http = rate('HTTP Request node');
				const limit = rate('undici keep-alive (limit)');
				ratios.push({
					rttMs,
					op,
					'node ÷ floor (time/item)': Number((floor / node).toFixed(2)),
					'node ÷ HTTP Request (speed)': Number((node / http).toFixed(2)),
					'node ÷ undici (time/item)': Number((limit / node).toFixed(2)),
					'goal floor ≤1.1': floor / node <= 1.1,
					'goal ≥3× HTTP': node / http >= 3,
				});
			}
		}
		console.log(`\n  n8n ${N8N_VERSION}; node concurrency: reads ${READ_CONCURRENCY}, money-moving ${mmConcurrency}; HTTP Request node: every item in flight at once (n8n's HttpRequestV3 starts all requests, then awaits them)`);
		if (rows.length > 0) {
			console.table(rows);
			console.table(ratios);
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

		const payout = runPayout500
			? await payout500({ n8n, control, credentials, payOnUsTransfer, newRefs, inN8n, checkLog, rttMs: payoutRtt, jitterPercent, moneyMovingConcurrency: mmConcurrency })
			: undefined;
		report = { extraCalls, n8nVersion: N8N_VERSION, rtts, jitterPercent, readConcurrency: READ_CONCURRENCY, moneyMovingConcurrency: mmConcurrency, rows, ratios, notes, payout };
	} finally {
		baselines?.stop();
		await n8n?.stop();
		sandbox.child.kill('SIGTERM');
	}
	if (profileDir) report.profile = n8nProfileSummary(profileDir);
	return report;
}
