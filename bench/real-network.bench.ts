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
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { Agent, Pool, fetch, setGlobalDispatcher } from 'undici';
import * as PayOnUsNode from '../nodes/PayOnUs/PayOnUs.node';
import { itemsNode, manualWorkflow, sandboxAccessToken } from '../test/harness/fixtures';
import { n8nInstallDir, n8nNode, N8N_VERSION, startN8n, type N8nInstance, type WorkflowJson } from '../test/harness/n8n';
import { benchCredential, inParallel, nodeRun } from './common';
import { summarize, type ProfileSummary } from './cpu-profile';
import type { Call, Job } from './real-network-client';

export const description =
	'over TLS at 0/50/150 ms RTT: Get Payment and Create Transfer — PayOnUs node vs HTTP Request node vs n8n helper alone (floor) vs undici keep-alive';

const NODE = 'Node';
const PAYMENT_PATH = '/api/v1/payment-requests/businesses/BUS-2001';
const TRANSFER_PATH = '/api/v1/transfer-requests/bank-transfer';
const MIN_COUNT = 40;

/**
 * Money-Moving Concurrency measured (--money-concurrency=N for another): 2, as
 * in the README's table; the node's default is 1 (one after the other).
 */
const MONEY_CONCURRENCY = Math.max(2, PayOnUsNode.MONEY_MOVING_CONCURRENCY_DEFAULT);
const READ_CONCURRENCY = PayOnUsNode.READ_CONCURRENCY;

function transferBody(reference: string): IDataObject {
	return {
		transferType: 'WALLET_TO_BANK_ACCOUNT',
		amount: 100,
		currency: 'NGN',
		countryCode: 'NG',
		reference,
		narration: 'bench',
		businessId: 'BUS-2001',
		beneficiaryAccountNumber: '9999991112',
		beneficiaryAccountName: 'Sandbox Success Beneficiary',
		beneficiaryBankCode: '044',
	};
}

/** The sandbox in its own process, with TLS and the link. */
async function startSandboxProcess(): Promise<{ url: string; caFile: string; child: ChildProcess }> {
	const cli = join(__dirname, '..', 'sandbox', 'cli.js');
	const child = spawn(process.execPath, [cli, '--port', '0', '--tls', '--rtt-ms', '0', '--jitter-ms', '0', '--json', '--request-log-limit', '40000'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const line = await new Promise<string>((resolve, reject) => {
		const rl = createInterface({ input: child.stdout! });
		rl.once('line', resolve);
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	const info = JSON.parse(line) as { url: string; caFile: string };
	return { url: info.url, caFile: info.caFile, child };
}

/** The baselines' process (helper floor, undici limit). */
class Baselines {
	private seq = 0;
	private waiting = new Map<number, { resolve: (ms: number) => void; reject: (e: Error) => void }>();
	private constructor(private readonly child: ChildProcess) {
		child.on('message', (m: { id?: number; ms?: number; error?: string }) => {
			const w = m.id !== undefined ? this.waiting.get(m.id) : undefined;
			if (!w) return;
			this.waiting.delete(m.id as number);
			if (m.error) w.reject(new Error(m.error));
			else w.resolve(m.ms as number);
		});
	}

	static async start(caFile: string): Promise<Baselines> {
		const child = fork(join(__dirname, 'real-network-client.js'), [], {
			execPath: n8nNode(),
			env: { ...process.env, NODE_OPTIONS: '', NODE_EXTRA_CA_CERTS: caFile, PAYONUS_N8N_INSTALL_DIR: n8nInstallDir() },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		await new Promise<void>((resolve, reject) => {
			child.once('message', () => resolve());
			child.once('exit', (code) => reject(new Error(`baseline process exited with ${code}`)));
		});
		return new Baselines(child);
	}

	async run(job: Omit<Job, 'id'>): Promise<number> {
		const id = ++this.seq;
		return await new Promise<number>((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.child.send({ ...job, id });
		});
	}

	stop(): void {
		this.child.send('close');
		setTimeout(() => this.child.kill(), 3000).unref();
	}
}

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
	const payout500 = args.includes('--payout-500');
	const mmConcurrency = Number(flag('money-concurrency', String(MONEY_CONCURRENCY)));
	// --profile: n8n runs with --cpu-prof (NODE_OPTIONS); the profile's top entries are printed after n8n stops.
	const profileDir = args.includes('--profile') ? join(__dirname, '..', '..', 'bench', 'results', `profile-${Date.now().toString(36)}`) : undefined;

	const sandbox = await startSandboxProcess();
	const ca = (await import('node:fs')).readFileSync(sandbox.caFile, 'utf8');
	// This process (control calls, seeding) trusts the sandbox's CA too.
	setGlobalDispatcher(new Agent({ connect: { ca } }));
	const base = sandbox.url;
	const control = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
		const res = await fetch(`${base}/_sandbox${path}`, {
			method,
			...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
		});
		const json = (await res.json()) as { data: T };
		if (res.status !== 200) throw new Error(`control ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
		return json.data;
	};
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
		const refs: string[] = new Array(fullReads);
		await inParallel(fullReads, 8, async (i) => {
			const res = await pool.request({
				method: 'POST',
				path: '/api/v1/virtual-accounts/dynamic',
				headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ amount: 100 + (i % 900), reference: `rn-${i}`, businessId: 'BUS-2001', customer: { name: 'Bench', email: 'bench@example.com' } }),
			});
			const body = (await res.body.json()) as { data?: { onusReference?: string } };
			if (res.statusCode !== 200 || !body.data?.onusReference) throw new Error(`creating payin ${i} got ${res.statusCode}`);
			refs[i] = body.data.onusReference;
		});
		await pool.close();

		const credentials = await benchCredential(n8n, base);
		const payOnUsRead = {
			type: 'n8n-nodes-payonus.payOnUs',
			typeVersion: 1,
			credentials,
			parameters: {
				resource: 'payin',
				operation: 'getPayment',
				businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
				onusReference: '={{ $json.onusReference }}',
			},
		};
		const httpRead = {
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentials,
			parameters: {
				method: 'GET',
				url: `${base}${PAYMENT_PATH}`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'payOnUsApi',
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'onusReference', value: '={{ $json.onusReference }}' }] },
				options: {},
			},
		};
		const payOnUsTransfer = {
			type: 'n8n-nodes-payonus.payOnUs',
			typeVersion: 1,
			credentials,
			parameters: {
				resource: 'payout',
				operation: 'createTransfer',
				transferType: 'WALLET_TO_BANK_ACCOUNT',
				businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
				amount: 100,
				currency: 'NGN',
				countryCode: 'NG',
				reference: '={{ $json.reference }}',
				beneficiaryBankCode: '044',
				beneficiaryAccountNumber: '9999991112',
				beneficiaryAccountName: 'Sandbox Success Beneficiary',
				narration: 'bench',
				options: { moneyMovingConcurrency: mmConcurrency },
			},
		};
		const httpTransfer = {
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentials,
			parameters: {
				method: 'POST',
				url: `${base}${TRANSFER_PATH}`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'payOnUsApi',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'json',
				jsonBody: `={{ JSON.stringify(Object.assign(${JSON.stringify(transferBody('x'))}, { reference: $json.reference })) }}`,
				options: {},
			},
		};

		const inN8n = async (name: string, node: IDataObject, items: IDataObject[]) => {
			const wf: WorkflowJson = manualWorkflow(name, [itemsNode(items.map((json) => ({ json }))), { name: NODE, ...node }]);
			const { id } = await n8n!.createWorkflow(wf);
			const execution = await n8n!.runWorkflow(id, { timeoutMs: 15 * 60_000 });
			const { executionTime, output } = nodeRun(execution, NODE, items.length);
			await n8n!.deleteWorkflow(id).catch(() => undefined);
			return { ms: executionTime ?? 0, output };
		};

		// The sandbox's log: one answered call per reference, nothing else on that path.
		const clearLog = async () => await control('DELETE', '/requests');
		const checkLog = async (what: string, method: 'GET' | 'POST', path: string, expected: string[]) => {
			const log = await control<Array<{ method: string; path: string; query?: IDataObject; body?: IDataObject; status?: number; durationMs?: number }>>(
				'GET',
				`/requests?path=${encodeURIComponent(path)}`,
			);
			const calls = log.filter((e) => e.path === path);
			lastServerMs = calls.reduce((a, e) => a + (e.durationMs ?? 0), 0) / Math.max(1, calls.length);
			const seen = new Map<string, number>();
			for (const e of calls) {
				if (e.status !== 200 || e.method !== method) throw new Error(`${what}: the sandbox answered ${e.status} to ${e.method} ${path}`);
				const ref = String(method === 'GET' ? e.query?.onusReference : e.body?.reference);
				seen.set(ref, (seen.get(ref) ?? 0) + 1);
			}
			const wrong = expected.filter((r) => seen.get(r) !== 1);
			if (calls.length !== expected.length || wrong.length > 0) {
				throw new Error(`${what}: ${calls.length} calls logged for ${expected.length} items; ${wrong.length} references not exactly once`);
			}
			// Nothing else was called (no lookups, no name enquiries): the API calls logged since the clear, by path.
			const all = await control<Array<{ method: string; path: string }>>('GET', '/requests?path=/api/');
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
			await control('PUT', '/link', { rttMs, jitterMs });
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

		let payout: IDataObject | undefined;
		if (payout500) {
			const jitterMs = Math.round((payoutRtt * jitterPercent) / 100);
			await control('PUT', '/link', { rttMs: payoutRtt, jitterMs });
			const list = newRefs(500);
			await clearLog();
			const started = Date.now();
			const one = await inN8n(`rn payout500 items`, payOnUsTransfer, list.map((reference) => ({ reference })));
			const itemsWall = (Date.now() - started) / 1000;
			await checkLog('PayOnUs node x500', 'POST', TRANSFER_PATH, list);
			const batch = `rnbulk${Date.now().toString(36)}`;
			const bulkNode = {
				type: 'n8n-nodes-payonus.payOnUs',
				typeVersion: 1,
				credentials,
				parameters: {
					resource: 'payout',
					operation: 'bulkTransfer',
					source: 'items',
					businessId: { __rl: true, mode: 'id', value: 'BUS-2001' },
					currency: 'NGN',
					reference: batch,
				},
			};
			console.log(`  500 transfers (Create Transfer, x${mmConcurrency}) at ${payoutRtt} ms: ${(one.ms / 1000).toFixed(1)} s`);
			// Distinct amounts: identical rows are refused as duplicates unless "Allow Duplicate Rows" is on.
			const rowsJson = Array.from({ length: 500 }, (_, i) => ({
				beneficiaryAccountNumber: '9999991112',
				beneficiaryAccountName: 'Sandbox Success Beneficiary',
				beneficiaryBankCode: '044',
				amount: 100 + i,
				narration: 'bench',
			}));
			const wf = manualWorkflow('rn payout500 bulk', [itemsNode(rowsJson.map((json) => ({ json }))), { name: NODE, ...bulkNode }]);
			const { id } = await n8n.createWorkflow(wf);
			const bulkStarted = Date.now();
			const execution = await n8n.runWorkflow(id, { timeoutMs: 15 * 60_000 });
			const bulkWall = (Date.now() - bulkStarted) / 1000;
			const bulk = nodeRun(execution, NODE, 1);
			payout = {
				rttMs: payoutRtt,
				jitterMs,
				transfers: 500,
				createTransferSeconds: Number((one.ms / 1000).toFixed(1)),
				createTransferExecutionSeconds: Number(itemsWall.toFixed(1)),
				createTransferConcurrency: mmConcurrency,
				bulkTransferSeconds: Number(((bulk.executionTime ?? 0) / 1000).toFixed(1)),
				bulkTransferExecutionSeconds: Number(bulkWall.toFixed(1)),
				bulkRows: (bulk.output[0] as IDataObject).totalCount ?? null,
			};
			console.log('  500 transfers:', payout);
		}
		report = { extraCalls, n8nVersion: N8N_VERSION, rtts, jitterPercent, readConcurrency: READ_CONCURRENCY, moneyMovingConcurrency: mmConcurrency, rows, ratios, notes, payout };
	} finally {
		baselines?.stop();
		await n8n?.stop();
		sandbox.child.kill('SIGTERM');
	}
	if (profileDir) report.profile = profileSummary(profileDir);
	return report;
}

/** The n8n main process's profile (the one with this package's frames), summarised. */
function profileSummary(dir: string): ProfileSummary | { problem: string } {
	const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
	let best: ProfileSummary | undefined;
	for (const f of files) {
		const s = summarize(join(dir, f), 30);
		const mine = s.areas.find((a) => a.area.startsWith('n8n-nodes-payonus'))?.ms ?? 0;
		const bestMine = best?.areas.find((a) => a.area.startsWith('n8n-nodes-payonus'))?.ms ?? -1;
		if (mine > bestMine) best = s;
	}
	if (!best) return { problem: `no .cpuprofile in ${dir} (n8n must exit cleanly to write it)` };
	console.log(`\n  CPU profile of n8n (${dir}): busy ${best.totalMs} ms`);
	console.table(best.areas.slice(0, 15));
	console.table(best.top);
	console.log('  time below this package\'s outermost frames (inclusive):');
	console.table(best.packageInclusive);
	console.log('  what this package\'s frames called (self time of everything below, by the first frame outside the package):');
	console.table(best.packageCalls);
	return best;
}
