/**
 * startN8n: one n8n main (SQLite or a fresh Postgres database), optionally in
 * queue mode with workers and `n8n webhook` processes, with this package
 * community-installed; resolves when the owner and an API key are ready.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { n8nEnv } from './env';
import { ensureN8nInstalled, PACKAGE_NAME } from './version';
import { N8nInstance } from './instance';
import { communityInstall, packPackage } from './pack';
import { cleanupSync, hookExit, live, spawnN8n, stopProc, tail, type Cleanup, type Proc } from './processes';
import { waitForLogLine, waitForWorker, waitUntilReady } from './ready';
import { checkRedis, freePort, PG_HOST, PG_PORT, pgUser, psql, REDIS_HOST, REDIS_PORT } from './services';
import type { StartOptions } from './types';

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
		const env = n8nEnv(port, baseUrl);

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
			{ userFolder: mainFolder, logFile, database, startMs, cleanup, options: { ...opts, db }, webhookBaseUrls, startAnother: startN8n },
		);
	} catch (error) {
		const message = `n8n failed to start: ${(error as Error).message}\n--- last lines of ${logFile}:\n${tail(logFile)}`;
		for (const proc of cleanup.procs) await stopProc(proc, 5000);
		cleanupSync(cleanup);
		live.delete(cleanup);
		throw new Error(message);
	}
}
