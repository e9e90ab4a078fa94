/**
 * Runs a bench workflow in n8n without asking n8n anything while it runs
 * (not a bench itself: bench/run.ts only loads *.bench.js).
 *
 * Asking n8n's API about an execution takes its main thread, the thread the
 * measured node runs on, for 24 to 42 ms a call (n8n 2.41.1, a running
 * execution of a 1,000-item workflow, without and with its data;
 * docs/performance.md). Polled every 200 ms, the bench stole a sixth of that
 * thread from the node it timed, and nothing from the floor it compared it
 * with (in its own process).
 * Here the workflow ends in one more node, run once after everything before
 * it, that calls this process; only then is the execution read. A run that
 * fails before that node is seen by a slow poll (every 10 s).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { isFinished, type Execution, type N8nInstance } from '../dev/n8n';
import { manualWorkflow } from '../dev/workflows';

const SLOW_POLL_MS = 10_000;
const DONE_NODE = 'Bench: done';

export class QuietRunner {
	private readonly waiting = new Map<string, () => void>();
	private readonly server: Server;

	private constructor(private readonly n8n: N8nInstance) {
		this.server = createServer((req, res) => {
			this.waiting.get((req.url ?? '').slice(1))?.();
			res.setHeader('content-type', 'application/json');
			res.end('{}');
		});
	}

	static async start(n8n: N8nInstance): Promise<QuietRunner> {
		const runner = new QuietRunner(n8n);
		await new Promise<void>((resolve) => runner.server.listen(0, '127.0.0.1', resolve));
		return runner;
	}

	/** Manual Trigger, then `chain`, then the signal node: the finished execution. The workflow is deleted afterwards. */
	async run(name: string, chain: IDataObject[], timeoutMs: number): Promise<Execution> {
		const token = randomUUID();
		const signalled = new Promise<true>((resolve) => this.waiting.set(token, () => resolve(true)));
		const { port } = this.server.address() as AddressInfo;
		const done = {
			name: DONE_NODE,
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			executeOnce: true,
			parameters: { url: `http://127.0.0.1:${port}/${token}`, options: {} },
		};
		const { id } = await this.n8n.createWorkflow(manualWorkflow(name, [...chain, done]));
		try {
			const executionId = await this.n8n.startWorkflow(id);
			const deadline = Date.now() + timeoutMs;
			// The slow poll's timer does not hold the process open once the run is over.
			while (!(await Promise.race([signalled, delay(SLOW_POLL_MS, false, { ref: false })]))) {
				const execution = await this.n8n.getExecution(executionId).catch(() => undefined);
				if (execution && isFinished(execution)) return execution;
				if (Date.now() > deadline) throw new Error(`${name}: execution ${executionId} did not finish within ${timeoutMs} ms`);
			}
			return await this.n8n.waitForExecution(executionId, timeoutMs);
		} finally {
			this.waiting.delete(token);
			await this.n8n.deleteWorkflow(id).catch(() => undefined);
		}
	}

	async close(): Promise<void> {
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
