/**
 * `npm run bench -- node-throughput [--items=2000] [--rounds=3] [--concurrency=8]`
 *
 * "Get Payment" for N items (default 2,000, each a DIFFERENT payin) against
 * the local sandbox, side by side in one run:
 *  - the PayOnUs node (Manual Trigger -> Code -> PayOnUs, in a real n8n; a
 *    read-only operation, so it runs READ_CONCURRENCY = 8 calls in flight),
 *  - n8n's HTTP Request node with this package's credential (predefined
 *    credential type payOnUsApi), same workflow shape (one item after the other),
 *  - straight undici from this process, one request after the other
 *    (one keep-alive connection): the sequential limit,
 *  - straight undici with the node's concurrency (8 requests in flight over
 *    8 keep-alive connections): the limit at the same concurrency,
 *  - n8n's own request helper (`httpRequest` of the installed n8n-core, what
 *    `httpRequestWithAuthentication` ends in) called from this process with
 *    the same concurrency, outside any workflow: the floor every node that
 *    follows n8n's rules shares (it builds a new HTTP agent per request, so
 *    no keep-alive), whatever the node does.
 * Every path is checked against the sandbox's request log: exactly N
 * `GET /api/v1/payment-requests/businesses/BUS-2001` calls answered 200,
 * one per item reference; the PayOnUs node's output is checked item by item
 * (same order as its input). Reported: items/s of each (the n8n figures use
 * the node's own executionTime from the run data; the execution wall time is
 * shown too) and the ratios. Goals: PayOnUs within 1.5x of undici, and not
 * slower than the HTTP Request node. Rounds alternate the paths; the median
 * counts.
 */
import type { IDataObject } from 'n8n-workflow';
import { Pool } from 'undici';
import { SandboxClient } from '../sandbox/client';
import { startSandbox } from '../sandbox/server';
import { READ_CONCURRENCY } from '../nodes/PayOnUs/PayOnUs.node';
import { itemsNode, manualWorkflow } from '../dev/workflows';
import { sandboxAccessToken } from '../dev/sandboxCredential';
import { n8nInstallDir, startN8n, type N8nInstance, type WorkflowJson } from '../dev/n8n';
import { benchCredential, median, nodeRun } from './common';
import { FloorDriver, type Call } from './floor';
import { createPayins, httpGetPayment, payOnUsGetPayment, PAYMENT_PATH } from './throughput-nodes';

export const description = 'Get Payment x N: PayOnUs node vs HTTP Request node (same credential) vs raw undici';

const NODE = 'Node';

function workflow(name: string, items: IDataObject[], node: IDataObject): WorkflowJson {
	return manualWorkflow(name, [itemsNode(items.map((json) => ({ json }))), { name: NODE, ...node }]);
}

interface NodeRun {
	nodeMs: number;
	wallMs: number;
	output: IDataObject[];
}

/** Runs a workflow; returns the node's own time, the execution's wall time (ms) and the node's output. */
async function timeRun(n8n: N8nInstance, id: string, expected: number): Promise<NodeRun> {
	const execution = await n8n.runWorkflow(id, { timeoutMs: 600000 });
	const { executionTime, output } = nodeRun(execution, NODE, expected);
	const wallMs = new Date(String(execution.stoppedAt)).getTime() - new Date(String(execution.startedAt)).getTime();
	return { nodeMs: executionTime ?? wallMs, wallMs, output };
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const flag = (name: string, fallback: number) =>
		Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
	const itemsCount = flag('items', 2000);
	const rounds = flag('rounds', 3);
	const concurrency = flag('concurrency', READ_CONCURRENCY);

	const sandbox = await startSandbox({ port: 0, config: { requestLogLimit: itemsCount * 2 + 100 } });
	const n8n = await startN8n({ db: 'sqlite' });
	// Seeding over `concurrency` keep-alive connections; the baselines (bench/floor.ts) keep their own pools.
	const widePool = new Pool(sandbox.url, { connections: concurrency, pipelining: 1 });
	const floor = new FloorDriver(n8nInstallDir());
	const control = new SandboxClient(sandbox.url);
	try {
		// A token for the undici baselines (its own API client: separate token slot).
		const token = await sandboxAccessToken(sandbox.url, 3);

		// One payin per item: every item looks up a different record.
		const refs = await createPayins(widePool, token, itemsCount, 'bench');
		const items = refs.map((onusReference) => ({ onusReference }));

		const credentials = await benchCredential(n8n, sandbox.url);
		const payOnUsNode = payOnUsGetPayment(credentials);
		const httpNode = httpGetPayment(credentials, sandbox.url);
		const ids = {
			payOnUs: (await n8n.createWorkflow(workflow('bench: PayOnUs node', items, payOnUsNode))).id,
			http: (await n8n.createWorkflow(workflow('bench: HTTP Request node', items, httpNode))).id,
			payOnUsWarm: (await n8n.createWorkflow(workflow('bench: PayOnUs warm-up', items.slice(0, 50), payOnUsNode))).id,
			httpWarm: (await n8n.createWorkflow(workflow('bench: HTTP warm-up', items.slice(0, 50), httpNode))).id,
		};

		// The baselines: the same reads, one per item, checked record by record (bench/floor.ts).
		const calls: Call[] = refs.map((ref) => ({ method: 'GET', path: `${PAYMENT_PATH}?onusReference=${encodeURIComponent(ref)}`, onusReference: ref }));
		const baseline = (kind: 'helper' | 'undici', inFlight: number) => async () =>
			await floor.run({ kind, baseUrl: sandbox.url, token, concurrency: inFlight, calls });
		const undiciSequential = baseline('undici', 1);
		const undiciConcurrent = baseline('undici', concurrency);
		const helperConcurrent = baseline('helper', concurrency);

		/** The sandbox saw exactly one answered Get payment per item reference since the last clear. */
		const clearLog = async () => {
			await control.clearRequests();
		};
		const checkLog = async (path: string) => {
			const log = await control.requests({ method: 'GET', path: PAYMENT_PATH });
			const seen = new Map<string, number>();
			for (const e of log) {
				if (e.status !== 200) throw new Error(`${path}: the sandbox answered ${e.status} to a Get payment`);
				const ref = String(e.query?.onusReference ?? '');
				seen.set(ref, (seen.get(ref) ?? 0) + 1);
			}
			const missing = refs.filter((r) => seen.get(r) !== 1);
			if (log.length !== itemsCount || missing.length > 0) {
				throw new Error(`${path}: the sandbox logged ${log.length} Get payment calls, ${missing.length} item references not exactly once`);
			}
		};
		const checkOrder = (output: IDataObject[]) => {
			const wrong = output.findIndex((json, i) => json.onusReference !== refs[i]);
			if (wrong >= 0) throw new Error(`PayOnUs node output ${wrong} is not the payin of input item ${wrong}`);
		};

		// Warm-up: token minted and stored, code paths compiled.
		await timeRun(n8n, ids.payOnUsWarm, 50);
		await timeRun(n8n, ids.httpWarm, 50);
		await undiciSequential();
		await undiciConcurrent();
		await helperConcurrent();

		const samples = {
			payOnUs: [] as number[],
			payOnUsWall: [] as number[],
			http: [] as number[],
			httpWall: [] as number[],
			undici: [] as number[],
			undiciConcurrent: [] as number[],
			helper: [] as number[],
		};
		for (let r = 0; r < rounds; r++) {
			await clearLog();
			const a = await timeRun(n8n, ids.payOnUs, itemsCount);
			await checkLog('PayOnUs node');
			checkOrder(a.output);
			samples.payOnUs.push(a.nodeMs);
			samples.payOnUsWall.push(a.wallMs);
			await clearLog();
			const b = await timeRun(n8n, ids.http, itemsCount);
			await checkLog('HTTP Request node');
			samples.http.push(b.nodeMs);
			samples.httpWall.push(b.wallMs);
			await clearLog();
			samples.undici.push(await undiciSequential());
			await checkLog('undici sequential');
			await clearLog();
			samples.undiciConcurrent.push(await undiciConcurrent());
			await checkLog('undici concurrent');
			await clearLog();
			samples.helper.push(await helperConcurrent());
			await checkLog('n8n request helper');
			console.log(
				`  round ${r + 1}: PayOnUs ${a.nodeMs.toFixed(0)} ms (execution ${a.wallMs} ms), HTTP Request ${b.nodeMs.toFixed(0)} ms (execution ${b.wallMs} ms), undici ${samples.undici[r].toFixed(0)} ms, undici x${concurrency} ${samples.undiciConcurrent[r].toFixed(0)} ms, n8n helper x${concurrency} ${samples.helper[r].toFixed(0)} ms`,
			);
		}
		const rate = (ms: number) => Number(((itemsCount * 1000) / ms).toFixed(0));
		const med = {
			payOnUs: median(samples.payOnUs),
			http: median(samples.http),
			undici: median(samples.undici),
			undiciConcurrent: median(samples.undiciConcurrent),
			helper: median(samples.helper),
		};
		const table = [
			{ path: `PayOnUs node (n8n, ${READ_CONCURRENCY} in flight)`, medianMs: Math.round(med.payOnUs), itemsPerSecond: rate(med.payOnUs), executionWallMs: median(samples.payOnUsWall) },
			{ path: 'HTTP Request node + payOnUsApi (n8n)', medianMs: Math.round(med.http), itemsPerSecond: rate(med.http), executionWallMs: median(samples.httpWall) },
			{ path: 'undici, sequential (limit)', medianMs: Math.round(med.undici), itemsPerSecond: rate(med.undici), executionWallMs: null },
			{ path: `undici, ${concurrency} in flight (limit)`, medianMs: Math.round(med.undiciConcurrent), itemsPerSecond: rate(med.undiciConcurrent), executionWallMs: null },
			{ path: `n8n request helper alone, ${concurrency} in flight (floor)`, medianMs: Math.round(med.helper), itemsPerSecond: rate(med.helper), executionWallMs: null },
		];
		console.table(table);
		const ratios = {
			payOnUsOverUndici: Number((med.payOnUs / med.undici).toFixed(2)),
			payOnUsOverUndiciConcurrent: Number((med.payOnUs / med.undiciConcurrent).toFixed(2)),
			payOnUsOverHttpRequest: Number((med.payOnUs / med.http).toFixed(2)),
			httpRequestOverUndici: Number((med.http / med.undici).toFixed(2)),
			helperOverUndici: Number((med.helper / med.undici).toFixed(2)),
			payOnUsOverHelper: Number((med.payOnUs / med.helper).toFixed(2)),
		};
		const goals = {
			within1_5xOfUndici: ratios.payOnUsOverUndici <= 1.5,
			within1_5xOfUndiciSameConcurrency: ratios.payOnUsOverUndiciConcurrent <= 1.5,
			notSlowerThanHttpRequest: ratios.payOnUsOverHttpRequest <= 1.0,
		};
		console.log('  ratios (time, lower is faster):', ratios, 'goals met:', goals);
		return { items: itemsCount, rounds, concurrency, nodeConcurrency: READ_CONCURRENCY, table, ratios, goals, samples };
	} finally {
		await floor.close();
		await widePool.close();
		await n8n.stop();
		await sandbox.stop();
	}
}
