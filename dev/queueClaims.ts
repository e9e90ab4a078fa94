/**
 * What the queue-mode claim drills share (test/e2e/queue.exactlyOnce.test.ts,
 * bench/queue-payout-drill.bench.ts): a claim Redis of their own (a separate
 * redis-server on a free port, so the machine's Redis on 6379 is never
 * stopped), and a Payment Page checkout started over HTTP as a buyer's
 * browser starts it (bank transfer), then paid by the buyer's bank with the
 * tab closed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type N8nInstance } from './n8n';
import { deriveKey, open } from '../nodes/PayOnUsPaymentPage/checkout/sealedState';
import { sandboxClient } from './sandboxCredential';
import { sleep } from './wait';

export interface ClaimRedis {
	port: number;
	/** Whether it keeps its claims across a restart (append-only file, fsync on every write). */
	persistent: boolean;
	/** redis-cli against it. */
	cli(...args: string[]): string;
	/** Kills it (SIGKILL, as a crash): a persistent one keeps every claim it acknowledged, the other loses them all. */
	stop(): Promise<void>;
	/** Starts it again on the same port (and, persistent, from the same append-only file). */
	start(): Promise<void>;
	/** Stops it for good and removes its files. */
	close(): Promise<void>;
}

/**
 * A claim Redis as a production queue-mode Redis must run:
 * `appendonly yes` with `appendfsync always`, so a claim INCR is on disk
 * before Redis answers it and a restart (or a crash) keeps every claim.
 * `persistent: false`: no file at all (the machine's Redis as installed
 * here), where a restart empties it, to show what that costs.
 */
export async function startClaimRedis(opts: { persistent?: boolean } = {}): Promise<ClaimRedis> {
	const persistent = opts.persistent ?? true;
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'payonus-claim-redis-'));
	const storage = persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
	let proc: ChildProcess | undefined;
	const cli = (...args: string[]) =>
		execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
	const ping = () => {
		try {
			return cli('ping') === 'PONG';
		} catch {
			return false;
		}
	};
	const start = async () => {
		proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...storage], { stdio: 'ignore' });
		for (let i = 0; i < 100 && !ping(); i++) await sleep(100);
		if (!ping()) throw new Error(`the claim Redis did not start on port ${port}`);
	};
	const stop = async () => {
		const p = proc;
		proc = undefined;
		if (!p || p.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
		p.kill('SIGKILL');
		await exited;
	};
	const close = async () => {
		await stop();
		rmSync(dir, { recursive: true, force: true });
	};
	await start();
	return { port, persistent, cli, stop, start, close };
}

/**
 * The n8n Redis credential's data for it. `ssl: false` said outright: n8n
 * 2.8's API otherwise asks for `disableTlsVerification` (shown only with SSL on).
 */
export function claimRedisCredential(redis: Pick<ClaimRedis, 'port'>): Record<string, unknown> {
	return { host: '127.0.0.1', port: redis.port, database: 0, password: '', ssl: false };
}

/**
 * A checkout started on the page at `pageUrl` as a buyer's browser does
 * (the start form, bank transfer); its checkout reference `PP-<id>`.
 * `page`: the workflow and node ids (the sealed state is opened with the
 * sandbox client 1's secret, the credential's).
 */
export async function startBankCheckout(pageUrl: string, page: { workflowId: string; nodeId: string }, buyer: { email: string; name: string }): Promise<string> {
	const html = await (await fetch(pageUrl)).text();
	const c = /name="c" value="([^"]+)"/.exec(html)?.[1];
	if (!c) throw new Error(`no checkout form at ${pageUrl}: ${html.slice(0, 200)}`);
	const form = new URLSearchParams({ c, step: 'start', email: buyer.email, name: buyer.name, method: 'bank' });
	const res = await fetch(pageUrl, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
	const location = res.headers.get('location') ?? '';
	const sealed = /c=([^&]+)/.exec(location)?.[1];
	if (res.status !== 303 || !sealed) throw new Error(`the checkout did not start (${res.status})`);
	const state = open(decodeURIComponent(sealed), deriveKey(sandboxClient(1).clientSecret, `${page.workflowId}|${page.nodeId}`));
	if (!state) throw new Error('the checkout state did not open');
	return `PP-${state.id}`;
}

/** The buyer's bank pays a dynamic account in full (the sandbox's fund endpoint, as API client 3 `bankToken`). */
export async function fundAccount(sandboxUrl: string, bankToken: string, payin: { onusReference: unknown; accountNumber: unknown; amount: unknown }): Promise<void> {
	const res = await fetch(`${sandboxUrl}/api/v1/fund-ngn-account`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${bankToken}` },
		body: JSON.stringify({ onusReference: payin.onusReference, accountNumber: payin.accountNumber, amount: payin.amount, paymentStatus: 'SUCCESSFUL', forDynamicAccount: true }),
	});
	if (res.status !== 200) throw new Error(`funding ${String(payin.onusReference)}: ${res.status} ${await res.text()}`);
}

/** The subject of the error workflow's e-mail starts with this, then the failed execution's id. */
export const FAILED_RUN = 'n8n run failed:';

/**
 * The workflows' error workflow as the docs set it up: an Error Trigger and
 * a Send Email to a person, one e-mail per failed run
 * (`n8n run failed: <execution id> of <workflow>`), published (n8n 2.x runs
 * only a published error workflow). Its id.
 */
export async function createErrorWorkflow(n8n: Pick<N8nInstance, 'createWorkflow' | 'activate'>, smtp: { id: string; name: string }): Promise<string> {
	const { id } = await n8n.createWorkflow({
		name: 'Tell a person a run failed',
		nodes: [
			{ id: 'e1', name: 'Error Trigger', type: 'n8n-nodes-base.errorTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'e2',
				name: 'E-mail',
				type: 'n8n-nodes-base.emailSend',
				typeVersion: 2.1,
				position: [220, 0],
				credentials: { smtp },
				parameters: {
					fromEmail: 'n8n@example.com',
					toEmail: 'payments-team@example.com',
					subject: `=${FAILED_RUN} {{ $json.execution.id }} of {{ $json.workflow.name }}`,
					emailFormat: 'text',
					text: '={{ $json.execution.error.message }}',
					options: {},
				},
			},
		],
		connections: { 'Error Trigger': { main: [[{ node: 'E-mail', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	} as never);
	await n8n.activate(id);
	return id;
}
