/**
 * `npm run bench -- page-abuse [--seconds=30] [--clients=200] [--concurrency=32]`
 *
 * Issue 29 rule 4 drill: scripted checkouts at full speed against PayOnUs
 * Payment Pages in a real n8n with the sandbox (profile `rate-limited`: the
 * service answers 429 past 50 calls a second per API client), through the
 * page's HTTP endpoints only. Each visitor is a loopback source address of its
 * own (127.x.y.z: n8n's req.ip), every request carries a spoofed
 * X-Forwarded-For. Scenarios, each on a fresh page for `seconds`:
 *  - one client: new phone and e-mail for every checkout (KES mobile money);
 *  - many clients: `clients` addresses, same;
 *  - one phone: `clients` addresses all prompting one phone;
 *  - poll flood: one client polling one open checkout's status;
 * each with the node's default bounds, and (rows "unbounded") with every limit
 * at its maximum, which is how the page behaved before the bounds. In the
 * middle of each, an honest buyer on an address of their own opens the page
 * and asks for a prompt. Counted at the sandbox (its request log): service
 * calls, prompts sent, token calls, the service's own 429s.
 */
import { SandboxClient } from '../sandbox/client';
import { startSandbox } from '../sandbox/server';
import { startN8n, N8N_VERSION, type N8nInstance } from '../dev/n8n';
import { benchCredential } from './common';
import { sleep } from '../dev/wait';
import { closeVisitors, visit } from '../dev/visitor';

export const description =
	'Payment page abuse drill (issue 29 rule 4): one client, many clients, one phone, a poll flood, scripted at full speed; service calls, prompts, token calls, an honest buyer served';

const arg = (args: string[], name: string, fallback: number) =>
	Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

const UNBOUNDED = { attemptsPerVisitor: 100_000, attemptsPerTarget: 100_000, attemptsPerPage: 100_000, callsPerVisitor: 100_000, callsPerPage: 100_000 };

type Scenario = 'one client' | 'many clients' | 'one phone' | 'poll flood';

interface Row {
	scenario: Scenario;
	bounds: 'default' | 'unbounded';
	seconds: number;
	requests: number;
	answered429: number;
	serviceCalls: number;
	promptsSent: number;
	tokenCalls: number;
	serviceRateLimited: number;
	honestBuyerServed: boolean;
	honestBuyerNote: string;
}

const call = visit;

const sealed = (location?: string) => decodeURIComponent(/c=([^&]+)/.exec(location ?? '')?.[1] ?? '');

/** One scripted checkout: page, form, prompt. Counts each answer. */
async function checkout(url: string, address: string, phone: string, email: string, count: (status: number) => void) {
	const first = await call(address, url);
	count(first.status);
	const c = /name="c" value="([^"]+)"/.exec(first.body)?.[1];
	if (!c) return undefined;
	const details = await call(address, url, { c, step: 'start', email, method: 'momo' });
	count(details.status);
	const prompt = await call(address, url, { c: sealed(details.location), step: 'momo', network: 'MPESA_KE', phone });
	count(prompt.status);
	return prompt;
}

const addressOf = (i: number) => `127.${10 + Math.floor(i / 250)}.${(i % 250) + 1}.${1 + (i % 7)}`;

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const seconds = arg(args, 'seconds', 30);
	const clients = arg(args, 'clients', 200);
	const concurrency = arg(args, 'concurrency', 32);
	const runId = Math.random().toString(16).slice(2, 8);
	const sb = await startSandbox({ port: 0 });
	const sandbox = new SandboxClient(sb.url);
	await sandbox.setProfiles(['rate-limited']);
	const n8n: N8nInstance = await startN8n({ env: { DB_PING_TIMEOUT_MS: '30000' } });
	const rows: Row[] = [];
	try {
		const cred = await benchCredential(n8n, sb.url, {}, `PayOnUs page abuse ${runId}`);
		let pages = 0;
		const newPage = async (options: Record<string, number>): Promise<string> => {
			const path = `abuse-${runId}-${++pages}`;
			const wf = await n8n.createWorkflow({
				name: `page abuse ${runId} ${pages}`,
				nodes: [
					{
						id: 'page',
						name: 'Page',
						type: 'n8n-nodes-payonus.payOnUsPaymentPage',
						typeVersion: 1,
						position: [0, 0],
						webhookId: path,
						credentials: cred,
						parameters: { path, title: 'Abuse drill', businessId: { __rl: true, mode: 'id', value: 'BUS-2001' }, currency: 'KES', amount: 250, methods: ['momo'], options },
					},
					{ id: 'done', name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
				],
				connections: { Page: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
			});
			await n8n.activate(wf.id);
			const url = n8n.webhookUrl(path);
			const deadline = Date.now() + 30_000;
			while ((await call('127.0.0.1', url)).status !== 200) {
				if (Date.now() > deadline) throw new Error(`${url} never answered 200`);
				await sleep(200);
			}
			return url;
		};

		for (const scenario of ['one client', 'many clients', 'one phone', 'poll flood'] as Scenario[]) {
			for (const bounds of ['default', 'unbounded'] as const) {
				const url = await newPage(bounds === 'default' ? {} : UNBOUNDED);
				await sandbox.clearRequests();
				const statsBefore = await sandbox.stats();
				let requests = 0;
				let answered429 = 0;
				const count = (status: number) => {
					requests++;
					if (status === 429) answered429++;
				};
				// The poll flood's checkout, opened first by the flooding client.
				let pollUrl = '';
				if (scenario === 'poll flood') {
					const opened = await checkout(url, '127.0.0.2', '+254711000001', 'poller@example.com', () => undefined);
					pollUrl = `${url}?c=${encodeURIComponent(sealed(opened?.location))}&poll=1`;
				}
				const end = Date.now() + seconds * 1000;
				let n = 0;
				let honest = { served: false, note: '' };
				const honestRun = (async () => {
					await sleep((seconds * 1000) / 2);
					const answer = await checkout(url, '127.0.0.250', '+254722999000', 'honest.buyer@example.com', () => undefined);
					if (answer?.status !== 303) {
						honest = { served: false, note: `answered ${answer?.status}` };
						return;
					}
					const wait = await call('127.0.0.250', new URL(answer.location!, url).toString());
					honest = { served: wait.status === 200 && wait.body.includes('Approve on your phone'), note: `prompt page ${wait.status}` };
				})();
				await Promise.all(
					Array.from({ length: concurrency }, async () => {
						while (Date.now() < end) {
							const i = n++;
							try {
								if (scenario === 'poll flood') {
									count((await call('127.0.0.2', pollUrl)).status);
								} else {
									const address = scenario === 'one client' ? '127.0.0.3' : addressOf(i % clients);
									const phone = scenario === 'one phone' ? '+254733000333' : `+2547${String(10_000_000 + i).slice(-8)}`;
									await checkout(url, address, phone, `script${i}@example.com`, count);
								}
							} catch {
								count(0);
							}
						}
					}),
				);
				await honestRun;
				const log = await sandbox.requests({ tokenCalls: true });
				const statsAfter = await sandbox.stats();
				const rateLimitedOf = (s: unknown) => Number(Object.values(s as Record<string, { rateLimited?: number }>).reduce((t, c) => t + (c?.rateLimited ?? 0), 0));
				rows.push({
					scenario,
					bounds,
					seconds,
					requests,
					answered429,
					serviceCalls: log.filter((r) => r.path !== '/api/v1/access-token').length,
					promptsSent: log.filter((r) => r.method === 'POST' && r.path === '/api/v1/mobile-money/collection' && r.status < 300).length,
					tokenCalls: log.filter((r) => r.path === '/api/v1/access-token').length,
					serviceRateLimited: rateLimitedOf(statsAfter) - rateLimitedOf(statsBefore),
					honestBuyerServed: honest.served,
					honestBuyerNote: honest.note,
				});
				console.log(JSON.stringify(rows[rows.length - 1]));
			}
		}
		console.log(`\n| scenario | bounds | requests in ${seconds} s | answered 429 | service calls | prompts sent | token calls | service 429s | honest buyer served |`);
		console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
		for (const r of rows)
			console.log(`| ${r.scenario} | ${r.bounds} | ${r.requests} | ${r.answered429} | ${r.serviceCalls} | ${r.promptsSent} | ${r.tokenCalls} | ${r.serviceRateLimited} | ${r.honestBuyerServed ? 'yes' : `no (${r.honestBuyerNote})`} |`);
		return { n8nVersion: N8N_VERSION, seconds, clients, concurrency, rows };
	} finally {
		closeVisitors();
		await n8n.stop();
		await sb.stop();
	}
}
