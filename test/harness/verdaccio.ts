/**
 * A private npm registry for tests: verdaccio (installed on first use into the
 * n8n install cache, like n8n itself: it is not a devDependency, because the
 * `overrides` it needs are not allowed in a community package's package.json) on 127.0.0.1 with
 * a free port, temporary storage and NO uplinks, so whatever installs from it
 * finds only what was published to it (offline).
 *
 *   const registry = await startVerdaccio();
 *   await registry.publish(tgz);                 // npm publish as a registered user
 *   ... N8N_COMMUNITY_PACKAGES_REGISTRY=registry.url ...
 *   await registry.stop();                        // kills it, removes the storage
 *
 * Reading is open to anyone (`access: $all`), as on the public registry;
 * publishing needs a user, which `startVerdaccio` registers (htpasswd) and whose
 * token `publish` passes to npm through a temporary userconfig.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fetch } from 'undici';
import { freePort, n8nInstallDir } from '../../dev/n8n';
import { sleep } from '../../dev/wait';

const execFileAsync = promisify(execFile);

export interface VerdaccioHandle {
	/** `http://127.0.0.1:<port>` (no trailing slash). */
	url: string;
	/** Temporary folder: config, storage, htpasswd, log. */
	dir: string;
	storage: string;
	logFile: string;
	/** `npm publish <tgz>` to this registry as the test user; returns npm's output. */
	publish(tgz: string): Promise<string>;
	/** Package names held in the storage (what was published; nothing else, there are no uplinks). */
	storedPackages(): string[];
	/** Request lines of the log (`<method> <path> <status>`), for assertions and failure messages. */
	requests(): string[];
	logTail(lines?: number): string;
	stop(): Promise<void>;
}

const USER = { name: 'payonus-e2e', password: 'payonus-e2e-password', email: 'e2e@payonus.test' };

/** 6.9+ needs Node >= 22; 6.8 runs on the Node 20 the minimum n8n uses. */
const VERDACCIO_VERSION = '6.8.0';

function verdaccioBin(): string {
	const dir = join(dirname(n8nInstallDir()), `verdaccio-${VERDACCIO_VERSION}`);
	const bin = join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	if (existsSync(bin) && existsSync(join(dir, 'payonus-install.json'))) return bin;
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify(
			{
				name: 'payonus-verdaccio-runtime',
				private: true,
				dependencies: { verdaccio: VERDACCIO_VERSION },
				// verdaccio-audit asks for node-fetch@cjs, a dist-tag the public registry no longer has
				overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } },
			},
			null,
			2,
		),
	);
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
	process.stderr.write(`installing verdaccio ${VERDACCIO_VERSION} into ${dir} (first time only, about 30 s)\n`);
	execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
	writeFileSync(join(dir, 'payonus-install.json'), JSON.stringify({ version: VERDACCIO_VERSION }));
	return bin;
}

/** Running registries: killed (and their folders removed) when the process exits. */
const live = new Map<ChildProcess, string>();
let exitHooked = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	try {
		process.kill(-(child.pid as number), signal);
	} catch {
		// already gone
	}
}

export async function startVerdaccio(opts: { startTimeoutMs?: number } = {}): Promise<VerdaccioHandle> {
	const dir = mkdtempSync(join(tmpdir(), 'payonus-verdaccio-'));
	const storage = join(dir, 'storage');
	const logFile = join(dir, 'verdaccio.log');
	const configFile = join(dir, 'config.yaml');
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	// JSON is valid YAML; verdaccio reads config.yaml
	const config = {
		storage,
		self_path: dir,
		auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 10 } },
		// no uplinks: nothing is fetched from, or proxied to, another registry
		uplinks: {},
		packages: {
			'@*/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
			'**': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
		},
		web: { enable: false },
		middlewares: { audit: { enabled: false } },
		log: { type: 'stdout', format: 'json', level: 'http' },
		listen: `127.0.0.1:${port}`,
	};
	writeFileSync(configFile, JSON.stringify(config, null, 2));

	if (!exitHooked) {
		exitHooked = true;
		process.on('exit', () => {
			for (const [child, dir] of live) {
				killGroup(child, 'SIGKILL');
				if (process.env.PAYONUS_KEEP_N8N !== '1') rmSync(dir, { recursive: true, force: true });
			}
		});
	}
	const fd = openSync(logFile, 'a');
	const child = spawn(process.execPath, [verdaccioBin(), '--config', configFile, '--listen', `127.0.0.1:${port}`], {
		cwd: dir,
		env: { ...process.env, NODE_ENV: 'production' },
		detached: true, // own process group: stop() kills it whole
		stdio: ['ignore', fd, fd],
	});
	closeSync(fd);
	live.set(child, dir);
	let exited = false;
	const exitedPromise = new Promise<void>((resolve) => {
		child.on('exit', () => {
			exited = true;
			resolve();
		});
		child.on('error', () => {
			exited = true;
			resolve();
		});
	});

	const logTail = (lines = 40): string => {
		try {
			return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
		} catch {
			return '(no log)';
		}
	};
	const stop = async (): Promise<void> => {
		if (!exited) {
			killGroup(child, 'SIGTERM');
			await Promise.race([exitedPromise, sleep(5000)]);
			killGroup(child, 'SIGKILL');
			await Promise.race([exitedPromise, sleep(5000)]);
		}
		live.delete(child);
		if (process.env.PAYONUS_KEEP_N8N !== '1') rmSync(dir, { recursive: true, force: true });
	};

	try {
		// ready when it answers its ping
		const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
		for (;;) {
			if (exited) throw new Error('verdaccio exited');
			try {
				const res = await fetch(`${url}/-/ping`);
				await res.text();
				if (res.ok) break;
			} catch {
				// not listening yet
			}
			if (Date.now() > deadline) throw new Error('verdaccio did not answer /-/ping in time');
			await sleep(200);
		}

		// register the publishing user (what `npm adduser` does) and keep its token
		const res = await fetch(`${url}/-/user/org.couchdb.user:${encodeURIComponent(USER.name)}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ _id: `org.couchdb.user:${USER.name}`, ...USER, type: 'user', roles: [], date: new Date().toISOString() }),
		});
		const body = (await res.json()) as { token?: string };
		if (!res.ok || !body.token) throw new Error(`verdaccio adduser: ${res.status} ${JSON.stringify(body)}`);
		const userconfig = join(dir, 'publisher.npmrc');
		writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=${body.token}\n`);

		return {
			url,
			dir,
			storage,
			logFile,
			async publish(tgz: string): Promise<string> {
				const { stdout, stderr } = await execFileAsync(
					'npm',
					['publish', tgz, '--registry', `${url}/`, '--userconfig', userconfig, '--ignore-scripts', '--provenance=false', '--access', 'public'],
					// cwd outside the repository: no project .npmrc takes part
					{ cwd: dir, env: { ...process.env, npm_config_cache: join(dir, 'npm-cache') } },
				);
				return `${stdout}${stderr}`;
			},
			storedPackages(): string[] {
				const names: string[] = [];
				let entries: string[] = [];
				try {
					entries = readdirSync(storage);
				} catch {
					return names;
				}
				for (const entry of entries) {
					if (entry.startsWith('.')) continue;
					if (entry.startsWith('@')) names.push(...readdirSync(join(storage, entry)).map((name) => `${entry}/${name}`));
					else names.push(entry);
				}
				return names.sort();
			},
			requests(): string[] {
				// the log is JSON lines (stdout is no TTY); each answered request has `request` and `status`
				const lines: string[] = [];
				for (const line of logTail(100000).split('\n')) {
					if (!line.startsWith('{')) continue;
					try {
						const entry = JSON.parse(line) as { request?: { method?: string; url?: string }; status?: number };
						if (entry.request?.method && entry.request.url && entry.status) {
							lines.push(`${entry.request.method} ${entry.request.url} ${entry.status}`);
						}
					} catch {
						// not a log entry
					}
				}
				return lines;
			},
			logTail,
			stop,
		};
	} catch (error) {
		const message = `verdaccio failed to start: ${(error as Error).message}\n--- last lines of ${logFile}:\n${logTail()}`;
		await stop();
		throw new Error(message);
	}
}
