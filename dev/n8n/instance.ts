/** A running n8n this process started: the client plus its processes, logs and stop(). */
import { N8nClient } from './client';
import { cleanupSync, live, stopProc, tail, type Cleanup } from './processes';
import type { N8nConnection, StartOptions } from './types';

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
	private readonly startAnother: (opts: StartOptions) => Promise<N8nInstance>;
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
			/** startN8n, passed in (it constructs this class): used by startSecondMain. */
			startAnother: (opts: StartOptions) => Promise<N8nInstance>;
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
		this.startAnother = extra.startAnother;
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
		const second = await this.startAnother({
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
