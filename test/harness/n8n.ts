/**
 * Real-n8n harness: starts the chosen n8n (installed once by scripts/install-n8n.js
 * into a cache folder) with this package installed the way a community install does
 * it, creates the owner and an API key, and talks to it over HTTP.
 *
 *   const n8n = await startN8n();                        // sqlite, one main
 *   const n8n = await startN8n({ db: 'postgres' });      // fresh Postgres database
 *   const second = await n8n.startSecondMain();          // 2nd main, same database
 *   const n8n = await startN8n({ db: 'postgres', queueWorkers: 2 }); // queue mode
 *   const n8n = await startN8n({ db: 'postgres', queueWorkers: 1, webhookProcesses: 2 });
 *   n8n.webhookBaseUrls;  // ['http://127.0.0.1:<port>', ...]: one `n8n webhook` process each
 *   ...
 *   await n8n.stop();   // kills n8n, workers and task runners, removes temp folders, drops the DB
 *
 * Nothing is built here: `npm run build` must have produced dist/ first.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import type { Execution } from './execution';

export type { Execution } from './execution';
export { nodeItems, nodeError, executedNodes, executionData, parseFlatted } from './execution';

export const PACKAGE_NAME = 'n8n-nodes-payonus';

/** n8n versions known to the installer (scripts/n8n-versions.json): `current` (default) and `minimum`. */
export const N8N_VERSIONS = JSON.parse(
	readFileSync(join(packageRoot(), 'scripts', 'n8n-versions.json'), 'utf8'),
) as { current: string; minimum: string };

function versionFrom(name: string | undefined): string {
	if (!name || name === 'current') return N8N_VERSIONS.current;
	if (name === 'minimum') return N8N_VERSIONS.minimum;
	return name;
}

/** The n8n this process runs: PAYONUS_N8N_VERSION (current | minimum | x.y.z), default current. */
export const N8N_VERSION = versionFrom(process.env.PAYONUS_N8N_VERSION);
export const OWNER = {
	email: 'owner@payonus.test',
	firstName: 'Ops',
	lastName: 'Owner',
	password: 'Payonus-e2e-2025',
};
const ENCRYPTION_KEY = 'payonus-e2e-encryption-key-not-secret';
const AUTH_COOKIE = 'n8n-auth';
const PG_HOST = '127.0.0.1';
const PG_PORT = 5432;
const REDIS_HOST = '127.0.0.1';
const REDIS_PORT = 6379;

export interface WorkflowJson {
	name: string;
	nodes: IDataObject[];
	connections: IDataObject;
	settings?: IDataObject;
	staticData?: IDataObject | null;
	[extra: string]: unknown;
}

export interface StartOptions {
	db?: 'sqlite' | 'postgres';
	/** Queue mode with this many `n8n worker` processes (needs postgres and Redis). */
	queueWorkers?: number;
	/**
	 * Queue mode: also this many `n8n webhook` processes (production webhooks
	 * only), each on its own port, same database, Redis and encryption key;
	 * their base URLs are `webhookBaseUrls`. The main keeps serving webhooks too.
	 */
	webhookProcesses?: number;
	/** Extra environment for every process of the instance (wins over the defaults). */
	env?: Record<string, string>;
	/** postgres only: use this existing database instead of creating one (it is not dropped on stop). */
	database?: string;
	/** false: do not set up the owner (it exists already); log in instead and reuse `apiKey`. */
	owner?: boolean;
	/** With owner: false, the API key created by the first instance on the same database. */
	apiKey?: string;
	/** Milliseconds to wait for readiness (default 180000 or PAYONUS_N8N_START_TIMEOUT_MS). */
	startTimeoutMs?: number;
	/** Queue mode: run manual executions on the workers too (default true). */
	offloadManualExecutions?: boolean;
	/** Queue mode without own workers, on this existing Bull prefix (used by startSecondMain). */
	queuePrefix?: string;
	/**
	 * false: start n8n without this package (no `npm pack`, nothing extracted
	 * into the user folder), e.g. to install it through n8n's own community
	 * package installer (test/e2e/registry-install.test.ts). Default true.
	 */
	communityInstall?: boolean;
	// --- persistent mode, added for `npm start` (scripts/start.ts; owned by the start/examples helper) ---
	/**
	 * A persistent folder instead of a temporary one: kept on stop and reused by
	 * the next start (SQLite database, owner, credentials, workflows). The owner
	 * is set up on the first start and logged into afterwards; the API key
	 * labelled `payonus-start` is replaced on every start (never written to disk).
	 */
	userFolder?: string;
	/** Fixed HTTP port (default: a free one). */
	port?: number;
	/** The owner to set up or log into (default OWNER). */
	ownerAccount?: { email: string; firstName: string; lastName: string; password: string };
	/** false: the caller handles SIGINT/SIGTERM itself (default true: kill everything and exit 130). */
	handleSignals?: boolean;
	// --- end of persistent mode options ---
}

/** What a test needs to talk to a running n8n; written to a file by the jest global setup. */
export interface N8nConnection {
	baseUrl: string;
	apiKey: string;
	cookie: string;
	userFolder?: string;
	logFile?: string;
	database?: string;
}

export interface N8nHandle {
	baseUrl: string;
	apiKey: string;
	webhookUrl(path: string): string;
	createCredential(c: { name: string; type: string; data: object }): Promise<{ id: string }>;
	createWorkflow(w: WorkflowJson): Promise<{ id: string }>;
	activate(id: string): Promise<void>;
	deactivate(id: string): Promise<void>;
	runWorkflow(id: string, opts?: { timeoutMs?: number; triggerName?: string }): Promise<Execution>;
	waitForExecutions(workflowId: string, count: number, timeoutMs?: number): Promise<Execution[]>;
	stop(): Promise<void>;
}

// ---------------------------------------------------------------------------
// locations

export function n8nInstallDir(): string {
	const root = process.env.PAYONUS_N8N_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-payonus');
	return join(root, `n8n-${N8N_VERSION}`);
}

function n8nBin(): string {
	return join(n8nInstallDir(), 'node_modules', 'n8n', 'bin', 'n8n');
}

interface InstallInfo {
	version: string;
	dir: string;
	bin: string;
	node: string | null;
	ok: boolean;
	problem: string;
}

let installInfo: InstallInfo | undefined;

/** The Node binary that runs this n8n (n8n 2.41 needs Node 24; the installer provides it). */
export function n8nNode(): string {
	return ensureN8nInstalled().node as string;
}

/** The n8n major.minor as numbers, for the few places where versions behave differently. */
export function n8nVersionAtLeast(major: number, minor: number): boolean {
	const [a, b] = N8N_VERSION.split('.').map(Number);
	return a > major || (a === major && b >= minor);
}

/** The folder of this package (works from the sources and from build/). */
export function packageRoot(): string {
	let dir = __dirname;
	for (;;) {
		const candidate = join(dir, 'package.json');
		if (existsSync(candidate)) {
			const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
			if (pkg.name === PACKAGE_NAME) return dir;
		}
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${__dirname}`);
		dir = parent;
	}
}

/** The folder that gets packed: this package, or PAYONUS_PACKAGE_DIR (harness self-tests with a stand-in package). */
function packedPackageDir(): string {
	return process.env.PAYONUS_PACKAGE_DIR ?? packageRoot();
}

/**
 * Makes sure the chosen n8n is installed and usable (scripts/install-n8n.js:
 * installs or repairs it, with progress; the same check everywhere). Once per process.
 */
export function ensureN8nInstalled(): InstallInfo {
	if (installInfo) return installInfo;
	const script = join(packageRoot(), 'scripts', 'install-n8n.js');
	const out = execFileSync(process.execPath, [script, '--version', N8N_VERSION, '--json'], {
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		env: { ...process.env, PAYONUS_N8N_CACHE: dirname(n8nInstallDir()) },
	});
	const info = JSON.parse(out.trim().split('\n').pop() as string) as InstallInfo;
	if (!info.ok || !info.node) throw new Error(`n8n ${N8N_VERSION} is not usable: ${info.problem}`);
	installInfo = info;
	return info;
}

// ---------------------------------------------------------------------------
// packing and the community install

let packed: { tgz: string; dir: string } | undefined;

/** `npm pack` of the package (once per process). dist/ must be built. */
export function packPackage(): string {
	if (packed && existsSync(packed.tgz)) return packed.tgz;
	const root = packedPackageDir();
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		name?: string;
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	if (pkg.name !== PACKAGE_NAME) throw new Error(`${root} holds ${String(pkg.name)}, not ${PACKAGE_NAME}`);
	const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = listed.filter((file) => !existsSync(join(root, file)));
	if (missing.length > 0) {
		throw new Error(`dist/ is not built or incomplete (missing ${missing.join(', ')}); run \`npm run build\` first`);
	}
	const dir = mkdtempSync(join(tmpdir(), 'payonus-pack-'));
	const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
	packed = { tgz: join(dir, filename), dir };
	return packed.tgz;
}

/** Extracts the packed package into <userFolder>/.n8n/nodes/node_modules/<name>, as n8n's installer leaves it. */
function communityInstall(userFolder: string, tgz: string): void {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const target = join(nodesDir, 'node_modules', PACKAGE_NAME);
	mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tgz, '--strip-components=1', '-C', target]);
	const version = (JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { version: string }).version;
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } }, null, 2),
	);
}

// ---------------------------------------------------------------------------
// ports, Postgres, Redis

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

let pgUserCache: string | undefined;

/** The Postgres role to use: PAYONUS_PG_USER, else `postgres`, else `root` (trust auth on 127.0.0.1). */
export function pgUser(): string {
	if (pgUserCache) return pgUserCache;
	const candidates = process.env.PAYONUS_PG_USER ? [process.env.PAYONUS_PG_USER] : ['postgres', 'root'];
	for (const user of candidates) {
		try {
			execFileSync('psql', ['-h', PG_HOST, '-p', String(PG_PORT), '-U', user, '-d', 'postgres', '-Atc', 'select 1'], {
				stdio: 'pipe',
				env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
			});
			pgUserCache = user;
			return user;
		} catch {
			// try the next one
		}
	}
	throw new Error(`Postgres is not reachable on ${PG_HOST}:${PG_PORT} as ${candidates.join(' or ')} (trust auth expected)`);
}

function psql(sql: string): string {
	return execFileSync('psql', ['-h', PG_HOST, '-p', String(PG_PORT), '-U', pgUser(), '-d', 'postgres', '-Atc', sql], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
	});
}

function dropDatabase(name: string): void {
	try {
		psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
	} catch {
		// best effort (also runs from exit handlers)
	}
}

function clearRedisPrefix(prefix: string): void {
	try {
		const keys = execFileSync('redis-cli', ['-h', REDIS_HOST, '-p', String(REDIS_PORT), '--scan', '--pattern', `${prefix}:*`], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		})
			.split('\n')
			.filter(Boolean);
		for (let i = 0; i < keys.length; i += 200) {
			execFileSync('redis-cli', ['-h', REDIS_HOST, '-p', String(REDIS_PORT), 'DEL', ...keys.slice(i, i + 200)], { stdio: 'ignore' });
		}
	} catch {
		// best effort
	}
}

function checkRedis(): void {
	try {
		const out = execFileSync('redis-cli', ['-h', REDIS_HOST, '-p', String(REDIS_PORT), 'ping'], { encoding: 'utf8', stdio: 'pipe' });
		if (!out.includes('PONG')) throw new Error(out);
	} catch (error) {
		throw new Error(`Redis is not reachable on ${REDIS_HOST}:${REDIS_PORT}: ${(error as Error).message}`);
	}
}

// ---------------------------------------------------------------------------
// processes and clean-up on exit

interface Proc {
	name: string;
	child: ChildProcess;
	exited: Promise<number | null>;
	hasExited: () => boolean;
}

function spawnN8n(name: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, logFile: string): Proc {
	const fd = openSync(logFile, 'a');
	const child = spawn(n8nNode(), [n8nBin(), ...args], {
		cwd,
		env,
		detached: true, // own process group: stop() kills n8n and its task runner together
		stdio: ['ignore', fd, fd],
	});
	closeSync(fd);
	let done = false;
	const exited = new Promise<number | null>((resolve) => {
		child.on('exit', (code, signal) => {
			done = true;
			resolve(code ?? (signal ? 128 : null));
		});
		child.on('error', () => {
			done = true;
			resolve(-1);
		});
	});
	return { name, child, exited, hasExited: () => done };
}

function signalGroup(proc: Proc, signal: NodeJS.Signals): void {
	if (proc.hasExited() && signal !== 'SIGKILL') return;
	try {
		process.kill(-(proc.child.pid as number), signal);
	} catch {
		// already gone
	}
}

async function stopProc(proc: Proc, graceMs = 20000): Promise<void> {
	signalGroup(proc, 'SIGTERM');
	const timedOut = await Promise.race([
		proc.exited.then(() => false),
		new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
	]);
	// task runners and anything else left in the group
	signalGroup(proc, 'SIGKILL');
	if (timedOut) await proc.exited;
}

interface Cleanup {
	procs: Proc[];
	dirs: string[];
	database?: string;
	redisPrefix?: string;
}

const live = new Set<Cleanup>();
let exitHooked = false;

function cleanupSync(c: Cleanup): void {
	for (const proc of c.procs) signalGroup(proc, 'SIGKILL');
	// PAYONUS_KEEP_N8N=1 keeps the user folders and logs for a post-mortem
	if (process.env.PAYONUS_KEEP_N8N !== '1') {
		for (const dir of c.dirs) rmSync(dir, { recursive: true, force: true });
	} else if (c.dirs.length > 0) {
		process.stderr.write(`kept n8n folders: ${c.dirs.join(', ')}\n`);
	}
	if (c.database) dropDatabase(c.database);
	if (c.redisPrefix) clearRedisPrefix(c.redisPrefix);
}

let signalsHooked = false;

function hookExit(signals = true): void {
	if (!exitHooked) {
		exitHooked = true;
		process.on('exit', () => {
			for (const c of live) cleanupSync(c);
			live.clear();
			if (packed) rmSync(packed.dir, { recursive: true, force: true });
		});
	}
	if (!signals || signalsHooked) return;
	signalsHooked = true;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			for (const c of live) cleanupSync(c);
			live.clear();
			process.exit(130);
		});
	}
}

function tail(file: string, lines = 60): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

// ---------------------------------------------------------------------------
// HTTP client for one n8n main

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

export class HttpError extends Error {
	constructor(
		readonly method: string,
		readonly url: string,
		readonly status: number,
		readonly body: string,
	) {
		super(`${method} ${url} -> ${status}: ${body.slice(0, 2000)}`);
	}
}

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

function isFinished(execution: Execution): boolean {
	if (execution.status) return FINISHED.has(execution.status);
	return Boolean(execution.finished || execution.stoppedAt);
}

/** Talks to a running n8n: public API with the API key, editor REST API with the owner's cookie. */
export class N8nClient implements N8nHandle {
	readonly baseUrl: string;
	readonly apiKey: string;
	readonly cookie: string;

	constructor(connection: N8nConnection) {
		this.baseUrl = connection.baseUrl.replace(/\/$/, '');
		this.apiKey = connection.apiKey;
		this.cookie = connection.cookie;
	}

	connection(): N8nConnection {
		return { baseUrl: this.baseUrl, apiKey: this.apiKey, cookie: this.cookie };
	}

	/** Production webhook URL: `<base>/webhook/<path>` (path like `<webhookId>/webhook`). */
	webhookUrl(path: string): string {
		return `${this.baseUrl}/webhook/${path.replace(/^\/+/, '')}`;
	}

	/** Test webhook URL: `<base>/webhook-test/<path>`. */
	testWebhookUrl(path: string): string {
		return `${this.baseUrl}/webhook-test/${path.replace(/^\/+/, '')}`;
	}

	/** Public API call (`/api/v1` + path) with the API key; throws HttpError on non-2xx. */
	async api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
		return await this.call<T>(method, `/api/v1${path}`, { 'X-N8N-API-KEY': this.apiKey }, body);
	}

	/** Editor REST call (`/rest` + path) with the owner's cookie; returns the unwrapped `data`. */
	async rest<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
		const result = await this.call<{ data: T }>(method, `/rest${path}`, { cookie: `${AUTH_COOKIE}=${this.cookie}` }, body);
		return result && typeof result === 'object' && 'data' in result ? result.data : result;
	}

	/** Any path with the owner's cookie (e.g. `/types/nodes.json`). */
	async getWithCookie<T = unknown>(path: string): Promise<T> {
		return await this.call<T>('GET', path, { cookie: `${AUTH_COOKIE}=${this.cookie}` });
	}

	private async call<T>(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
		const url = `${this.baseUrl}${path}`;
		const res = await fetch(url, {
			method,
			headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new HttpError(method, url, res.status, text);
		if (!text) return undefined as T;
		try {
			return JSON.parse(text) as T;
		} catch {
			return text as T;
		}
	}

	async createCredential(c: { name: string; type: string; data: object }): Promise<{ id: string }> {
		const created = await this.api<{ id: string }>('POST', '/credentials', { name: c.name, type: c.type, data: c.data });
		return { id: String(created.id) };
	}

	/** Creates a workflow through the public API (strict: only name, nodes, connections, settings, staticData). */
	async createWorkflow(w: WorkflowJson): Promise<{ id: string }> {
		const body: IDataObject = {
			name: w.name,
			nodes: w.nodes,
			connections: w.connections,
			settings: w.settings ?? { executionOrder: 'v1' },
		};
		if (w.staticData) body.staticData = w.staticData;
		const created = await this.api<{ id: string }>('POST', '/workflows', body);
		return { id: String(created.id) };
	}

	/**
	 * Activates and waits until the triggers are live. n8n >= 2.3x publishes in
	 * the background (the call answers at once, webhooks register a moment
	 * later, a failure only shows in the publication status): wait for that
	 * status and throw with the triggers' errors when publishing failed.
	 */
	async activate(id: string): Promise<void> {
		await this.api('POST', `/workflows/${id}/activate`);
		await this.waitForPublication(id, (status) => status !== 'in_progress' && status !== 'not_published');
	}

	async deactivate(id: string): Promise<void> {
		await this.api('POST', `/workflows/${id}/deactivate`);
		await this.waitForPublication(id, (status) => status !== 'in_progress');
	}

	/** Background publication (n8n >= 2.3x); returns at once on n8n without it. */
	private async waitForPublication(id: string, settled: (status: string) => boolean, timeoutMs = 60_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			let publication: { status: string; triggers?: Array<{ nodeId: string; status: string; errorMessage?: string | null }> };
			try {
				publication = await this.rest('GET', `/workflows/${id}/publication-status`);
			} catch (error) {
				if (error instanceof HttpError && error.status === 404) return; // n8n without background publication
				throw error;
			}
			if (settled(publication.status)) {
				if (publication.status === 'failed' || publication.status === 'partial') {
					const why = (publication.triggers ?? []).filter((t) => t.status === 'failed').map((t) => t.errorMessage).join('; ');
					throw new Error(`workflow ${id} could not be activated (${publication.status}): ${why}`);
				}
				return;
			}
			if (Date.now() > deadline) throw new Error(`workflow ${id}: publication still ${publication.status} after ${timeoutMs} ms`);
			await sleep(100);
		}
	}

	async deleteWorkflow(id: string): Promise<void> {
		await this.api('DELETE', `/workflows/${id}`);
	}

	/** One execution with its data (public API, data unflattened). */
	async getExecution(id: string): Promise<Execution> {
		return await this.api<Execution>('GET', `/executions/${id}?includeData=true`);
	}

	/** Executions of a workflow, newest first (public API). */
	async listExecutions(workflowId: string, includeData = true): Promise<Execution[]> {
		const result = await this.api<{ data: Execution[] }>(
			'GET',
			`/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=${includeData}&limit=250`,
		);
		return result.data;
	}

	/**
	 * Runs a workflow the way the editor's "Execute workflow" button does (from its
	 * Manual Trigger, or `triggerName`) and waits until the execution has finished.
	 */
	async runWorkflow(id: string, opts: { timeoutMs?: number; triggerName?: string } = {}): Promise<Execution> {
		const workflowData = await this.rest<IDataObject & { nodes: Array<{ name: string; type: string }> }>('GET', `/workflows/${id}`);
		const trigger =
			opts.triggerName ??
			workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name ??
			workflowData.nodes.find((node) => /trigger/i.test(node.type))?.name;
		if (!trigger) throw new Error(`workflow ${id} has no Manual Trigger; pass triggerName`);
		const started = await this.rest<{ executionId?: string; waitingForWebhook?: boolean }>('POST', `/workflows/${id}/run`, {
			workflowData,
			triggerToStartFrom: { name: trigger },
		});
		if (!started.executionId) {
			throw new Error(`workflow ${id} did not start an execution: ${JSON.stringify(started)}`);
		}
		return await this.waitForExecution(String(started.executionId), opts.timeoutMs);
	}

	/** Polls one execution until it has finished; returns it with data. */
	async waitForExecution(executionId: string, timeoutMs = 120000): Promise<Execution> {
		const deadline = Date.now() + timeoutMs;
		let last: Execution | undefined;
		while (Date.now() < deadline) {
			try {
				last = await this.getExecution(executionId);
				if (isFinished(last)) return last;
			} catch (error) {
				if (!(error instanceof HttpError && error.status === 404)) throw error;
			}
			await sleep(200);
		}
		throw new Error(`execution ${executionId} did not finish within ${timeoutMs} ms (last status ${String(last?.status)})`);
	}

	/** Waits until the workflow has at least `count` finished executions; returns them oldest first, with data. */
	async waitForExecutions(workflowId: string, count: number, timeoutMs = 60000): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		let finished: Execution[] = [];
		while (Date.now() < deadline) {
			const all = await this.listExecutions(workflowId, true);
			finished = all.filter(isFinished).sort((a, b) => Number(a.id) - Number(b.id));
			if (finished.length >= count) return finished;
			await sleep(300);
		}
		throw new Error(`workflow ${workflowId}: ${finished.length} of ${count} executions finished within ${timeoutMs} ms`);
	}

	/** The owner's API keys (n8n 2.8 answers a list; newer n8n pages it: { items, counts, ... }). */
	async listApiKeys(): Promise<Array<{ id: string; label: string }>> {
		const listed = await this.rest<Array<{ id: string; label: string }> | { items: Array<{ id: string; label: string }> }>(
			'GET',
			'/api-keys',
		);
		return Array.isArray(listed) ? listed : listed.items;
	}

	/** Node type names n8n has loaded (from /types/nodes.json, what the editor reads). */
	async loadedNodeTypes(): Promise<Array<{ name: string; version: number | number[]; displayName: string }>> {
		return await this.getWithCookie('/types/nodes.json');
	}

	/** Credential type names n8n has loaded (from /types/credentials.json). */
	async loadedCredentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return await this.getWithCookie('/types/credentials.json');
	}

	/** A shared client cannot stop the instance; the process that started it does. */
	async stop(): Promise<void> {}
}

// ---------------------------------------------------------------------------
// starting n8n

function cookieFrom(res: { headers: { getSetCookie(): string[] } }): string | undefined {
	for (const header of res.headers.getSetCookie()) {
		const match = new RegExp(`^${AUTH_COOKIE}=([^;]+)`).exec(header);
		if (match && match[1]) return match[1];
	}
	return undefined;
}

function baseEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// keep the run hermetic: nothing n8n-related or jest-related leaks in
		if (/^(N8N_|DB_|QUEUE_|EXECUTIONS_|WEBHOOK_URL|GENERIC_|JEST_|NODE_OPTIONS|NODE_ENV|OFFLOAD_)/.test(key)) continue;
		env[key] = value;
	}
	return env;
}

export class N8nInstance extends N8nClient {
	readonly userFolder: string;
	/** Base URLs of the `n8n webhook` processes (option `webhookProcesses`), in order. */
	readonly webhookBaseUrls: string[];
	readonly logFile: string;
	readonly database?: string;
	/** Milliseconds from spawning the main process to owner + API key ready. */
	readonly startMs: number;
	private readonly cleanup: Cleanup;
	private readonly options: StartOptions;
	private readonly secondaries: N8nInstance[] = [];
	private stopped = false;

	constructor(
		connection: N8nConnection,
		extra: {
			userFolder: string;
			logFile: string;
			database?: string;
			startMs: number;
			cleanup: Cleanup;
			options: StartOptions;
			webhookBaseUrls?: string[];
		},
	) {
		super(connection);
		this.userFolder = extra.userFolder;
		this.webhookBaseUrls = extra.webhookBaseUrls ?? [];
		this.logFile = extra.logFile;
		this.database = extra.database;
		this.startMs = extra.startMs;
		this.cleanup = extra.cleanup;
		this.options = extra.options;
	}

	connection(): N8nConnection {
		return { ...super.connection(), userFolder: this.userFolder, logFile: this.logFile, database: this.database };
	}

	/** The Bull queue prefix in queue mode. */
	get queuePrefix(): string | undefined {
		return this.cleanup.redisPrefix ?? this.options.queuePrefix;
	}

	/** Production URL of a webhook path on the i-th `n8n webhook` process (0-based). */
	webhookProcessUrl(i: number, path: string): string {
		const base = this.webhookBaseUrls[i];
		if (!base) throw new Error(`no webhook process ${i} (started with webhookProcesses: ${this.webhookBaseUrls.length})`);
		return `${base}/webhook/${path}`;
	}

	/** Process ids: `main`, `worker1`, ..., `webhook1`, ... (node code of a queue-mode execution runs in a worker's process). */
	processes(): Array<{ name: string; pid: number }> {
		return this.cleanup.procs.map((proc) => ({ name: proc.name, pid: proc.child.pid as number }));
	}

	/** Last lines of the instance's log (main and workers). */
	logTail(lines = 60): string {
		return tail(this.logFile, lines);
	}

	/**
	 * Starts another n8n main on the same Postgres database (own port, own task
	 * broker port, own user folder, same encryption key, same API key). It is
	 * stopped with this instance. Postgres only.
	 */
	async startSecondMain(opts: { env?: Record<string, string> } = {}): Promise<N8nInstance> {
		if (!this.database) throw new Error('startSecondMain needs an instance started with db: postgres');
		const second = await startN8n({
			...this.options,
			queueWorkers: 0,
			webhookProcesses: 0,
			queuePrefix: this.queuePrefix,
			userFolder: undefined,
			port: undefined,
			database: this.database,
			owner: false,
			apiKey: this.apiKey,
			env: { ...(this.options.env ?? {}), ...(opts.env ?? {}) },
		});
		this.secondaries.push(second);
		return second;
	}

	async stop(): Promise<void> {
		if (this.stopped) return;
		this.stopped = true;
		for (const second of this.secondaries) await second.stop();
		// workers first, then the main
		const procs = [...this.cleanup.procs].reverse();
		await Promise.all(procs.map(async (proc) => await stopProc(proc)));
		cleanupSync(this.cleanup);
		live.delete(this.cleanup);
	}
}

/**
 * Starts n8n with the packed package installed (unless `communityInstall: false`);
 * resolves when the owner and an API key are ready.
 */
export async function startN8n(opts: StartOptions = {}): Promise<N8nInstance> {
	const db = opts.db ?? (opts.database ? 'postgres' : 'sqlite');
	const workers = opts.queueWorkers ?? 0;
	const webhookProcesses = opts.webhookProcesses ?? 0;
	if (workers > 0 && db !== 'postgres') throw new Error('queueWorkers needs db: postgres');
	if (webhookProcesses > 0 && (db !== 'postgres' || (workers === 0 && !opts.queuePrefix))) {
		throw new Error('webhookProcesses needs queue mode (db: postgres and queueWorkers > 0)');
	}
	if (opts.owner === false && !opts.apiKey) throw new Error('owner: false needs the apiKey of the first instance');
	ensureN8nInstalled();
	const install = opts.communityInstall !== false;
	const tgz = install ? packPackage() : undefined;
	hookExit(opts.handleSignals !== false);

	// persistent mode (`userFolder`): the folder is kept; otherwise a temp folder removed on stop
	const persistent = opts.userFolder !== undefined;
	const root = persistent ? resolve(opts.userFolder as string) : mkdtempSync(join(tmpdir(), 'payonus-n8n-'));
	if (persistent) mkdirSync(root, { recursive: true });
	const cleanup: Cleanup = { procs: [], dirs: persistent ? [] : [root] };
	live.add(cleanup);
	const logFile = join(root, 'n8n.log');
	try {
		const port = opts.port ?? (await freePort());
		const baseUrl = `http://127.0.0.1:${port}`;
		const env: NodeJS.ProcessEnv = {
			...baseEnv(),
			NODE_ENV: 'production',
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_PORT: String(port),
			N8N_EDITOR_BASE_URL: `${baseUrl}/`,
			WEBHOOK_URL: `${baseUrl}/`,
			N8N_WEBHOOK_URL: `${baseUrl}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_DYNAMIC_BANNERS_ENABLED: 'false',
			N8N_VERIFIED_PACKAGES_ENABLED: 'false',
			N8N_REINSTALL_MISSING_PACKAGES: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
			N8N_PUBLIC_API_DISABLED: 'false',
			N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_RUNNERS_MODE: 'internal',
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			N8N_LOG_LEVEL: process.env.PAYONUS_N8N_LOG_LEVEL ?? 'info',
			N8N_LOG_OUTPUT: 'console',
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
			EXECUTIONS_DATA_PRUNE: 'false',
			QUEUE_HEALTH_CHECK_ACTIVE: 'false',
		};

		let database: string | undefined;
		if (db === 'postgres') {
			const user = pgUser();
			database = opts.database;
			if (!database) {
				database = `payonus_e2e_${randomBytes(5).toString('hex')}`;
				psql(`CREATE DATABASE "${database}"`);
				cleanup.database = database;
			}
			Object.assign(env, {
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: PG_HOST,
				DB_POSTGRESDB_PORT: String(PG_PORT),
				DB_POSTGRESDB_DATABASE: database,
				DB_POSTGRESDB_USER: user,
				DB_POSTGRESDB_PASSWORD: '',
			});
		} else {
			env.DB_TYPE = 'sqlite';
		}
		if (workers > 0 || opts.queuePrefix) {
			checkRedis();
			let prefix = opts.queuePrefix;
			if (!prefix) {
				prefix = `payonus-${randomBytes(4).toString('hex')}`;
				cleanup.redisPrefix = prefix;
			}
			Object.assign(env, {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: REDIS_HOST,
				QUEUE_BULL_REDIS_PORT: String(REDIS_PORT),
				QUEUE_BULL_PREFIX: prefix,
				// n8n's Redis cache and pub/sub under the same prefix: the cache holds
				// the webhook registrations, and a shared default prefix ('n8n') lets
				// a stale entry of an earlier instance refuse an activation here
				// ("There is a conflict with one of the webhooks"); cleared on stop
				N8N_REDIS_KEY_PREFIX: prefix,
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: opts.offloadManualExecutions === false ? 'false' : 'true',
			});
		}
		Object.assign(env, opts.env ?? {});

		// the main process
		const mainFolder = join(root, 'main');
		if (persistent && install) rmSync(join(mainFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME), { recursive: true, force: true });
		if (tgz) communityInstall(mainFolder, tgz);
		const started = Date.now();
		const main = spawnN8n(
			'main',
			['start'],
			{ ...env, N8N_USER_FOLDER: mainFolder, N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
			root,
			logFile,
		);
		cleanup.procs.push(main);

		const timeoutMs = opts.startTimeoutMs ?? Number(process.env.PAYONUS_N8N_START_TIMEOUT_MS ?? 180000);
		const { cookie, apiKey } = await waitUntilReady(baseUrl, main, opts, started + timeoutMs);
		const startMs = Date.now() - started;

		// queue-mode workers (after the main ran the migrations)
		const workerProcs: Proc[] = [];
		for (let i = 1; i <= workers; i++) {
			const folder = join(root, `worker${i}`);
			if (tgz) communityInstall(folder, tgz);
			const worker = spawnN8n(
				`worker${i}`,
				['worker', '--concurrency=10'],
				{ ...env, N8N_USER_FOLDER: folder, N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
				root,
				join(root, `worker${i}.log`),
			);
			cleanup.procs.push(worker);
			workerProcs.push(worker);
		}
		await Promise.all(workerProcs.map(async (worker, i) => await waitForWorker(worker, join(root, `worker${i + 1}.log`), started + timeoutMs)));

		// queue-mode webhook processes (`n8n webhook`): own port and folder, same DB, Redis and key
		const webhookBaseUrls: string[] = [];
		const webhookProcs: Array<{ proc: Proc; log: string }> = [];
		for (let i = 1; i <= webhookProcesses; i++) {
			const folder = join(root, `webhook${i}`);
			if (tgz) communityInstall(folder, tgz);
			const whPort = await freePort();
			const whBase = `http://127.0.0.1:${whPort}`;
			const log = join(root, `webhook${i}.log`);
			const proc = spawnN8n(
				`webhook${i}`,
				['webhook'],
				{
					...env,
					N8N_USER_FOLDER: folder,
					N8N_PORT: String(whPort),
					WEBHOOK_URL: `${whBase}/`,
					N8N_WEBHOOK_URL: `${whBase}/`,
					N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				},
				root,
				log,
			);
			cleanup.procs.push(proc);
			webhookProcs.push({ proc, log });
			webhookBaseUrls.push(whBase);
		}
		await Promise.all(
			webhookProcs.map(async ({ proc, log }) => await waitForLogLine(proc, log, /Webhook listener waiting for requests/, started + timeoutMs)),
		);

		return new N8nInstance(
			{ baseUrl, apiKey, cookie },
			{ userFolder: mainFolder, logFile, database, startMs, cleanup, options: { ...opts, db }, webhookBaseUrls },
		);
	} catch (error) {
		const message = `n8n failed to start: ${(error as Error).message}\n--- last lines of ${logFile}:\n${tail(logFile)}`;
		for (const proc of cleanup.procs) await stopProc(proc, 5000);
		cleanupSync(cleanup);
		live.delete(cleanup);
		throw new Error(message);
	}
}

async function waitForWorker(worker: Proc, log: string, deadline: number): Promise<void> {
	await waitForLogLine(worker, log, /n8n worker is now ready/, deadline);
}

async function waitForLogLine(proc: Proc, log: string, ready: RegExp, deadline: number): Promise<void> {
	while (Date.now() < deadline) {
		if (proc.hasExited()) throw new Error(`${proc.name} exited early:\n${tail(log)}`);
		if (ready.test(tail(log, 400))) return;
		await sleep(250);
	}
	throw new Error(`${proc.name} not ready in time:\n${tail(log)}`);
}

/**
 * /healthz answers before the migrations have finished, and until then every
 * path answers 200 "n8n is starting up"; so retry the owner setup (or the login)
 * until the auth cookie arrives, then create the API key.
 */
async function waitUntilReady(
	baseUrl: string,
	main: Proc,
	opts: StartOptions,
	deadline: number,
): Promise<{ cookie: string; apiKey: string }> {
	let lastProblem = 'no answer yet';
	let cookie: string | undefined;
	const owner = opts.ownerAccount ?? OWNER;
	// persistent mode: the owner may exist from an earlier start; then log in
	let login = opts.owner === false;
	while (!cookie) {
		if (main.hasExited()) throw new Error(`n8n exited with code ${String(await main.exited)}`);
		if (Date.now() > deadline) throw new Error(`not ready in time (${lastProblem})`);
		try {
			const body = login ? { emailOrLdapLoginId: owner.email, password: owner.password } : owner;
			const res = await fetch(`${baseUrl}/rest/${login ? 'login' : 'owner/setup'}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json' },
				body: JSON.stringify(body),
			});
			const text = await res.text();
			cookie = cookieFrom(res);
			if (!cookie) lastProblem = `${res.status} ${text.slice(0, 200)}`;
			if (!cookie && !login && opts.userFolder !== undefined && res.status === 400 && /already setup/i.test(text)) {
				login = true;
				continue;
			}
			if (!cookie && login && opts.userFolder !== undefined && res.status === 401) {
				throw new Error(
					`the owner ${owner.email} of ${opts.userFolder} cannot log in with the expected password (changed in the editor?); use another folder or restore the password`,
				);
			}
		} catch (error) {
			lastProblem = (error as Error).message;
		}
		if (!cookie) await sleep(250);
	}
	const client = new N8nClient({ baseUrl, apiKey: opts.apiKey ?? '', cookie });
	let apiKey = opts.apiKey;
	if (!apiKey && opts.userFolder !== undefined) {
		// persistent mode: replace the key of the previous start instead of piling them up
		const keys = await client.listApiKeys();
		for (const key of keys.filter((k) => k.label === 'payonus-start')) {
			await client.rest('DELETE', `/api-keys/${key.id}`);
		}
	}
	if (!apiKey) {
		const scopes = await client.rest<string[]>('GET', '/api-keys/scopes');
		const created = await client.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: opts.userFolder !== undefined ? 'payonus-start' : 'payonus-e2e',
			scopes,
			expiresAt: null,
		});
		apiKey = created.rawApiKey;
	}
	// the public API answers with this key
	await new N8nClient({ baseUrl, apiKey, cookie }).api('GET', '/workflows?limit=1');
	return { cookie, apiKey };
}
