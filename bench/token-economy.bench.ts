/**
 * `npm run bench -- token-economy [--ops=1000] [--concurrency=50] [--scenarios=one,two,expiry,baseline] [--repeat=1]`
 *
 * --repeat=N runs each scenario N times on the same n8n processes (a fresh
 * sandbox and credential each time) and prints the failed operations of each run.
 *
 * How many access-token calls 1,000 operations cost, in real n8n against the
 * sandbox (one valid token per client, 3 token calls a minute, 429 beyond).
 * Each scenario runs `concurrency` executions of ONE workflow at once
 * (Manual Trigger -> Code making ops/concurrency items -> one call per item)
 * on a fresh sandbox (so its counters are the scenario's own), side by side:
 *
 *   one       PayOnUs node (Wallet > List), one n8n process
 *   two       the same, two n8n mains sharing one PostgreSQL database and
 *             one credential, executions split between them
 *   expiry    as `two`, and halfway through the sandbox clock jumps past the
 *             token lifetime (86399 s): every token dies at once
 *   baseline  what users build by hand: HTTP Request POST /access-token then
 *             HTTP Request calls with that token, one token call per execution
 *
 * Reported per scenario: token calls (sandbox), 429s, 401s, failed operations
 * (operations without their output item), wall time. Goals: one = 1 token
 * call; two = at most 1 per process; expiry = at most 1 extra per process;
 * 0 429s and 0 failures for all but the baseline.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../sandbox/server';
import { nodeItems, type Execution } from '../dev/n8n/execution';
import { manualWorkflow } from '../dev/workflows';
import { sandboxClient } from '../dev/sandboxCredential';
import { startN8n, type N8nInstance, type WorkflowJson } from '../dev/n8n';
import { benchCredential } from './common';

export const description =
	'token economy: 1,000 operations in 50 concurrent executions; token calls, 429s, 401s, failures; one and two n8n processes, forced expiry, hand-made HTTP Request baseline';

type Scenario = 'one' | 'two' | 'expiry' | 'baseline';

/** n8n on Postgres sometimes answers 503 "Database is not ready!" for a moment on this busy machine. */
async function retry503<T>(fn: () => Promise<T>): Promise<T> {
	for (let attempt = 0; ; attempt++) {
		try {
			return await fn();
		} catch (error) {
			if (attempt >= 10 || (error as { status?: number }).status !== 503) throw error;
			await new Promise((r) => setTimeout(r, 2000));
		}
	}
}

function arg(args: string[], name: string, fallback: string): string {
	return args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
}

const CLIENT_NUMBER = 1;
const { clientId: CLIENT, clientSecret: SECRET } = sandboxClient(CLIENT_NUMBER);

function itemsNode(count: number): IDataObject {
	return { name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: `return Array.from({ length: ${count} }, (_, i) => ({ json: { i } }));` } };
}

function payOnUsWorkflow(name: string, credentials: IDataObject, perExecution: number): WorkflowJson {
	return manualWorkflow(name, [
		itemsNode(perExecution),
		{
			name: 'Op',
			type: 'n8n-nodes-payonus.payOnUs',
			typeVersion: 1,
			parameters: { resource: 'wallet', operation: 'listWallets', merchantId: 'MER-1001', filters: { businessId: 'BUS-2001', currency: 'NGN' } },
			credentials,
			onError: 'continueRegularOutput',
		},
	]);
}

function baselineWorkflow(name: string, sandboxUrl: string, perExecution: number): WorkflowJson {
	return manualWorkflow(name, [
		{
			name: 'Get token',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'POST',
				url: `${sandboxUrl}/api/v1/access-token`,
				sendBody: true,
				specifyBody: 'json',
				jsonBody: JSON.stringify({ apiClientId: CLIENT, apiClientSecret: SECRET }),
				options: {},
			},
		},
		itemsNode(perExecution),
		{
			name: 'Op',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'GET',
				url: `${sandboxUrl}/api/v1/merchants/MER-1001/wallets`,
				sendHeaders: true,
				headerParameters: {
					parameters: [{ name: 'Authorization', value: "=Bearer {{ $('Get token').first().json.data.access_token }}" }],
				},
				options: {},
			},
			onError: 'continueRegularOutput',
		},
	]);
}

/** Operations of an execution that produced their output item (no error). */
function succeeded(execution: Execution): number {
	let items: IDataObject[];
	try {
		items = nodeItems(execution, 'Op');
	} catch {
		return 0; // the node did not run (e.g. the token call failed first)
	}
	return items.filter((item) => !('error' in item)).length;
}

interface Row extends IDataObject {
	scenario: string;
	processes: number;
	executions: number;
	operations: number;
	tokenCalls: number;
	rateLimited: number;
	unauthorized: number;
	failedOperations: number;
	failedExecutions: number;
	seconds: number;
}

async function runScenario(
	scenario: Scenario,
	mains: N8nInstance[],
	ops: number,
	concurrency: number,
): Promise<Row> {
	const sb: SandboxHandle = await startSandbox({ port: 0, config: { requestLogLimit: 50_000 } });
	try {
		const perExecution = Math.ceil(ops / concurrency);
		const processes = scenario === 'one' || scenario === 'baseline' ? 1 : 2;
		const used = mains.slice(0, processes);
		let workflowId: string;
		if (scenario === 'baseline') {
			workflowId = (await retry503(async () => await used[0].createWorkflow(baselineWorkflow(`token economy ${scenario}`, sb.url, perExecution)))).id;
		} else {
			const credentials = await retry503(async () => await benchCredential(used[0], sb.url, sandboxClient(CLIENT_NUMBER), `PayOnUs bench ${scenario}`));
			workflowId = (await retry503(async () => await used[0].createWorkflow(payOnUsWorkflow(`token economy ${scenario}`, credentials, perExecution)))).id;
		}
		let expired = false;
		let tokenCallsBeforeExpiry: number | undefined;
		const watcher =
			scenario === 'expiry'
				? (async () => {
						while (!expired) {
							const calls = sb.state.requestLog.filter((r) => r.path !== '/api/v1/access-token').length;
							if (calls >= ops / 2) {
								tokenCallsBeforeExpiry = sb.state.clientStats(CLIENT).tokenCalls;
								sb.state.clock.advance(86_400);
								expired = true;
								break;
							}
							await new Promise((r) => setTimeout(r, 20));
						}
					})()
				: Promise.resolve();
		const started = Date.now();
		const executions = await Promise.all(
			Array.from({ length: concurrency }, async (_, i) => {
				try {
					return await retry503(async () => await used[i % used.length].runWorkflow(workflowId, { timeoutMs: 600_000 }));
				} catch (error) {
					console.error(`[${scenario}] execution ${i} did not finish: ${(error as Error).message}`);
					return undefined;
				}
			}),
		);
		const seconds = (Date.now() - started) / 1000;
		expired = true;
		await watcher;
		const ok = executions.reduce((sum, e) => sum + (e ? succeeded(e) : 0), 0);
		const stats = sb.state.clientStats(CLIENT);
		return {
			scenario,
			processes,
			executions: concurrency,
			operations: perExecution * concurrency,
			tokenCalls: stats.tokenCalls,
			...(tokenCallsBeforeExpiry !== undefined ? { tokenCallsAfterExpiry: stats.tokenCalls - tokenCallsBeforeExpiry } : {}),
			rateLimited: stats.rateLimited,
			unauthorized: stats.unauthorized + sb.state.unauthorizedUnknown,
			failedOperations: perExecution * concurrency - ok,
			failedExecutions: executions.filter((e) => !e || e.status !== 'success').length,
			seconds: Number(seconds.toFixed(1)),
		};
	} finally {
		await sb.stop();
	}
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const ops = Number(arg(args, 'ops', '1000'));
	const concurrency = Number(arg(args, 'concurrency', '50'));
	const scenarios = arg(args, 'scenarios', 'one,two,expiry,baseline').split(',') as Scenario[];
	const repeat = Math.max(1, Number(arg(args, 'repeat', '1')));
	const needTwo = scenarios.some((s) => s === 'two' || s === 'expiry');
	const first = await startN8n({ db: needTwo ? 'postgres' : 'sqlite' });
	const rows: Row[] = [];
	try {
		const mains = [first];
		if (needTwo) mains.push(await first.startSecondMain());
		for (const scenario of scenarios) {
			for (let r = 0; r < repeat; r++) {
				console.log(`--- ${scenario}${repeat > 1 ? ` run ${r + 1}/${repeat}` : ''}`);
				const row = await runScenario(scenario, mains, ops, concurrency);
				console.log(JSON.stringify(row));
				rows.push(row);
			}
		}
	} finally {
		await first.stop();
	}
	console.table(rows);
	const repeats: IDataObject = {};
	if (repeat > 1) {
		for (const scenario of scenarios) {
			const mine = rows.filter((r) => r.scenario === scenario);
			repeats[scenario] = {
				runs: mine.length,
				failedOperationsPerRun: mine.map((r) => r.failedOperations),
				runsWithFailures: mine.filter((r) => r.failedOperations > 0).length,
				tokenCallsAfterExpiryPerRun: mine.map((r) => r.tokenCallsAfterExpiry ?? null),
				rateLimitedPerRun: mine.map((r) => r.rateLimited),
				secondsPerRun: mine.map((r) => r.seconds),
			};
		}
		console.log('repeats', JSON.stringify(repeats));
	}
	const byName = Object.fromEntries(rows.map((r) => [r.scenario, r]));
	const ratios: IDataObject = {};
	if (byName.baseline && byName.one) {
		ratios.tokenCallsBaselineOverOne = byName.baseline.tokenCalls / Math.max(1, byName.one.tokenCalls);
		ratios.failedOperationsBaselineMinusOne = byName.baseline.failedOperations - byName.one.failedOperations;
	}
	const goals: IDataObject = {};
	if (byName.one) goals.one = byName.one.tokenCalls === 1 && byName.one.rateLimited === 0 && byName.one.failedOperations === 0;
	if (byName.two) goals.two = byName.two.tokenCalls <= 2 && byName.two.rateLimited === 0 && byName.two.failedOperations === 0;
	if (byName.expiry)
		goals.expiry =
			Number(byName.expiry.tokenCallsAfterExpiry) <= byName.expiry.processes && byName.expiry.rateLimited === 0 && byName.expiry.failedOperations === 0;
	console.log('ratios', ratios);
	console.log('goals met', goals);
	return { ops, concurrency, repeat, rows, repeats, ratios, goals };
}
