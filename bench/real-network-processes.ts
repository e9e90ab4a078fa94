/**
 * The processes of the real-network bench besides n8n: the sandbox (TLS and
 * the delaying link, sandbox/link.ts) and the baselines (bench/floor.ts, run
 * by real-network-client.ts on the Node that runs n8n).
 * Not a bench itself (bench/run.ts only loads *.bench.js).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { n8nInstallDir, n8nNode } from '../dev/n8n';
import type { Job } from './floor';

/** The sandbox in its own process, with TLS and the link. */
export async function startSandboxProcess(): Promise<{ url: string; caFile: string; child: ChildProcess }> {
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
export class Baselines {
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
