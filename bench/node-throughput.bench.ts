/**
 * `npm run bench -- node-throughput [--items=2000] [--rounds=2]`
 *
 * "Get Payment" for N items (default 2,000) against the local sandbox, side by
 * side in one run:
 *  - the PayOnUs node (Manual Trigger -> Code -> PayOnUs, in a real n8n),
 *  - n8n's HTTP Request node with this package's credential (predefined
 *    credential type payOnUsApi), same workflow shape,
 *  - straight undici from this process, one request after the other (what a
 *    node processing items in order could reach at best).
 * Reported: items/s of each (the n8n figures use the node's own executionTime
 * from the run data; the whole execution wall time is shown too) and the
 * ratios. Goals: PayOnUs within 1.5x of undici, and not slower than the HTTP
 * Request node. Rounds alternate the three, the median counts.
 */
import type { IDataObject } from 'n8n-workflow';
import { Pool, fetch } from 'undici';
import { startSandbox } from '../sandbox/server';
import { executionData, startN8n, type N8nInstance, type WorkflowJson } from '../test/harness/n8n';

export const description = 'Get Payment x N: PayOnUs node vs HTTP Request node (same credential) vs raw undici';

const NODE = 'Node';

function median(values: number[]): number {
	const s = [...values].sort((a, b) => a - b);
	const m = Math.floor(s.length / 2);
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function workflow(name: string, items: IDataObject[], node: IDataObject): WorkflowJson {
	return {
		name,
		nodes: [
			{ id: 'b1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'b2',
				name: 'Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
			},
			{ id: 'b3', name: NODE, position: [400, 0], ...node },
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Runs a workflow; returns the node's own time and the execution's wall time (ms). */
async function timeRun(n8n: N8nInstance, id: string, expected: number): Promise<{ nodeMs: number; wallMs: number }> {
	const execution = await n8n.runWorkflow(id, { timeoutMs: 600000 });
	const runData = executionData(execution).resultData?.runData as Record<string, Array<IDataObject>> | undefined;
	const run = runData?.[NODE]?.[0] as { executionTime?: number; data?: { main?: IDataObject[][] }; error?: IDataObject } | undefined;
	if (!run || run.error) throw new Error(`bench run failed: ${JSON.stringify(run?.error ?? execution.status)}`);
	const count = run.data?.main?.[0]?.length ?? 0;
	if (count !== expected) throw new Error(`expected ${expected} items, got ${count}`);
	const wallMs = new Date(String(execution.stoppedAt)).getTime() - new Date(String(execution.startedAt)).getTime();
	return { nodeMs: run.executionTime ?? wallMs, wallMs };
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const itemsCount = Number(args.find((a) => a.startsWith('--items='))?.split('=')[1] ?? 2000);
	const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 2);

	const sandbox = await startSandbox({ port: 0, config: { requestLogLimit: 1000 } });
	const n8n = await startN8n({ db: 'sqlite' });
	const pool = new Pool(sandbox.url, { connections: 1, pipelining: 1 });
	try {
		// A token for the undici baseline (its own API client: separate token slot).
		const tokenRes = await fetch(`${sandbox.url}/api/v1/access-token`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ apiClientId: 'sandbox-client-3', apiClientSecret: 'sandbox-secret-3' }),
		});
		const token = ((await tokenRes.json()) as { data: { access_token: string } }).data.access_token;
		const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };

		// 20 payins to look up, cycled through the items.
		const refs: string[] = [];
		for (let i = 0; i < 20; i++) {
			const res = await pool.request({
				method: 'POST',
				path: '/api/v1/virtual-accounts/dynamic',
				headers: auth,
				body: JSON.stringify({ amount: 100 + i, reference: `bench-${i}`, businessId: 'BUS-2001', customer: { name: 'Bench', email: 'bench@example.com' } }),
			});
			refs.push(((await res.body.json()) as { data: { onusReference: string } }).data.onusReference);
		}
		const items = Array.from({ length: itemsCount }, (_, i) => ({ onusReference: refs[i % refs.length] }));

		const { id: credentialId } = await n8n.createCredential({
			name: 'PayOnUs bench',
			type: 'payOnUsApi',
			data: {
				environment: 'custom',
				baseUrl: sandbox.url,
				clientId: 'sandbox-client-1',
				clientSecret: 'sandbox-secret-1',
				webhookVerificationKey: 'bench-key',
				merchantId: 'MER-1001',
				businessId: 'BUS-2001',
				// n8n 2.8's public API schema needs this explicitly (its if/then on domains).
				allowedHttpRequestDomains: 'all',
			},
		});
		const credentials = { payOnUsApi: { id: credentialId, name: 'PayOnUs bench' } };
		const payOnUsNode = {
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
		const httpNode = {
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			credentials,
			parameters: {
				method: 'GET',
				url: `${sandbox.url}/api/v1/payment-requests/businesses/BUS-2001`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'payOnUsApi',
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'onusReference', value: '={{ $json.onusReference }}' }] },
				options: {},
			},
		};
		const ids = {
			payOnUs: (await n8n.createWorkflow(workflow('bench: PayOnUs node', items, payOnUsNode))).id,
			http: (await n8n.createWorkflow(workflow('bench: HTTP Request node', items, httpNode))).id,
			payOnUsWarm: (await n8n.createWorkflow(workflow('bench: PayOnUs warm-up', items.slice(0, 50), payOnUsNode))).id,
			httpWarm: (await n8n.createWorkflow(workflow('bench: HTTP warm-up', items.slice(0, 50), httpNode))).id,
		};

		const undiciRun = async (): Promise<number> => {
			const started = performance.now();
			for (const item of items) {
				const res = await pool.request({
					method: 'GET',
					path: `/api/v1/payment-requests/businesses/BUS-2001?onusReference=${encodeURIComponent(item.onusReference)}`,
					headers: auth,
				});
				const body = (await res.body.json()) as { data: IDataObject };
				if (res.statusCode !== 200 || !body.data) throw new Error(`undici baseline got ${res.statusCode}`);
			}
			return performance.now() - started;
		};

		// Warm-up: token minted and stored, code paths compiled.
		await timeRun(n8n, ids.payOnUsWarm, 50);
		await timeRun(n8n, ids.httpWarm, 50);
		await undiciRun();

		const samples = { payOnUs: [] as number[], payOnUsWall: [] as number[], http: [] as number[], httpWall: [] as number[], undici: [] as number[] };
		for (let r = 0; r < rounds; r++) {
			const a = await timeRun(n8n, ids.payOnUs, itemsCount);
			samples.payOnUs.push(a.nodeMs);
			samples.payOnUsWall.push(a.wallMs);
			const b = await timeRun(n8n, ids.http, itemsCount);
			samples.http.push(b.nodeMs);
			samples.httpWall.push(b.wallMs);
			samples.undici.push(await undiciRun());
			console.log(
				`  round ${r + 1}: PayOnUs ${a.nodeMs.toFixed(0)} ms (execution ${a.wallMs} ms), HTTP Request ${b.nodeMs.toFixed(0)} ms (execution ${b.wallMs} ms), undici ${samples.undici[r].toFixed(0)} ms`,
			);
		}
		const rate = (ms: number) => Number(((itemsCount * 1000) / ms).toFixed(0));
		const med = { payOnUs: median(samples.payOnUs), http: median(samples.http), undici: median(samples.undici) };
		const table = [
			{ path: 'PayOnUs node (n8n)', medianMs: Math.round(med.payOnUs), itemsPerSecond: rate(med.payOnUs), executionWallMs: median(samples.payOnUsWall) },
			{ path: 'HTTP Request node + payOnUsApi (n8n)', medianMs: Math.round(med.http), itemsPerSecond: rate(med.http), executionWallMs: median(samples.httpWall) },
			{ path: 'undici, sequential (limit)', medianMs: Math.round(med.undici), itemsPerSecond: rate(med.undici), executionWallMs: null },
		];
		console.table(table);
		const ratios = {
			payOnUsOverUndici: Number((med.payOnUs / med.undici).toFixed(2)),
			payOnUsOverHttpRequest: Number((med.payOnUs / med.http).toFixed(2)),
			httpRequestOverUndici: Number((med.http / med.undici).toFixed(2)),
		};
		const goals = {
			within1_5xOfUndici: ratios.payOnUsOverUndici <= 1.5,
			notSlowerThanHttpRequest: ratios.payOnUsOverHttpRequest <= 1.0,
		};
		console.log('  ratios (time, lower is faster):', ratios, 'goals met:', goals);
		return { items: itemsCount, rounds, table, ratios, goals, samples };
	} finally {
		await pool.close();
		await n8n.stop();
		await sandbox.stop();
	}
}
