/**
 * What n8n really recorded for a workflow: its rows in `execution_entity`,
 * read from the instance's own database (PostgreSQL through psql, SQLite
 * through the sqlite3 command-line shell), and each execution's data read
 * through the public API by id.
 *
 * Why not the public executions list. `GET /api/v1/executions` leaves out
 * every execution the main process still holds as running in its memory
 * (n8n's ExecutionService.findManyAndCount with `excludeRunning`), whatever
 * the database says. In queue mode n8n 2.41.1's main can hold an execution
 * as running for good: it enqueues the job, and when the worker has already
 * finished it (and Bull removed the job: n8n keeps no completed jobs by
 * default) before the main starts waiting on `job.finished()`, the main
 * never hears of it. Under the delivery drill's load that was 15 to 19 of
 * 200 executions, all recorded `success` with their data, never listed
 * (and n8n's shutdown then waits for them: "Waiting for N active executions
 * to finish"). Reading one execution by id (`GET /api/v1/executions/{id}`)
 * leaves none out.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import type { Execution, N8nInstance } from '../dev/n8n';
import { psql } from '../dev/n8n/services';
import { sleep } from '../dev/wait';
import { inParallel } from './common';

export interface Recorded {
	id: number;
	status: string;
}

/** Statuses of an execution that has not ended yet. */
const UNFINISHED = new Set(['new', 'running', 'unknown']);

function query(n8n: N8nInstance, sql: string): string {
	if (n8n.database) {
		return psql(sql, n8n.database);
	}
	// n8n keeps its SQLite database in <N8N_USER_FOLDER>/.n8n.
	const file = join(n8n.userFolder, '.n8n', 'database.sqlite');
	try {
		return execFileSync('sqlite3', ['-cmd', '.timeout 10000', '-separator', '|', file, sql], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	} catch (error) {
		throw new Error(`reading ${file} with the sqlite3 shell failed (is sqlite3 installed?): ${(error as Error).message}`);
	}
}

/** The executions of a workflow recorded in the database, oldest first. */
export function recordedExecutions(n8n: N8nInstance, workflowId: string): Recorded[] {
	if (!/^[A-Za-z0-9_-]+$/.test(workflowId)) throw new Error(`unexpected workflow id ${workflowId}`);
	const rows = query(n8n, `select id, status from execution_entity where "workflowId" = '${workflowId}' and "deletedAt" is null order by id`);
	return rows
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			const [id, status] = line.split('|');
			return { id: Number(id), status };
		});
}

/** Executions per status. */
export function byStatus(executions: Recorded[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const e of executions) counts[e.status] = (counts[e.status] ?? 0) + 1;
	return counts;
}

export interface SettleOptions {
	/** Only executions with a greater id count (those of one phase of a drill). */
	afterId?: number;
	/** How many are expected at least. */
	atLeast: number;
	/** Unchanged this long (and none unfinished) once `atLeast` are there: done. */
	quietMs: number;
	/** Waited this long in all: give up, and say so. */
	giveUpMs: number;
	/** The pause between two reads (default 500 ms). */
	pollMs?: number;
	/** The clock (tests move it): now, and a pause. */
	clock?: { now: () => number; sleep: (ms: number) => Promise<void> };
}

export interface Settled {
	executions: Recorded[];
	statuses: Record<string, number>;
	/** False when the wait gave up (`reason` says on what). */
	settled: boolean;
	waitedMs: number;
	reason?: string;
}

/**
 * Waits until the workflow's recorded executions (after `afterId`) are at
 * least `atLeast`, none is still new or running, and nothing has changed for
 * `quietMs`. Gives up after `giveUpMs` and says why: a drill reports it,
 * never takes a partial count silently.
 */
export async function settleRecorded(read: () => Recorded[], options: SettleOptions): Promise<Settled> {
	const clock = options.clock ?? { now: () => Date.now(), sleep };
	const started = clock.now();
	const pollMs = options.pollMs ?? 500;
	let last = '';
	let changedAt = started;
	for (;;) {
		const executions = read().filter((e) => e.id > (options.afterId ?? 0));
		const statuses = byStatus(executions);
		const shape = JSON.stringify(statuses);
		const now = clock.now();
		if (shape !== last) {
			last = shape;
			changedAt = now;
		}
		const unfinished = executions.filter((e) => UNFINISHED.has(e.status)).length;
		const waitedMs = now - started;
		if (executions.length >= options.atLeast && unfinished === 0 && now - changedAt >= options.quietMs) {
			return { executions, statuses, settled: true, waitedMs };
		}
		if (waitedMs >= options.giveUpMs) {
			const reason = `gave up after ${Math.round(waitedMs / 1000)} s: ${executions.length} recorded (expected at least ${options.atLeast}), ${unfinished} still new or running`;
			return { executions, statuses, settled: false, waitedMs, reason };
		}
		await clock.sleep(pollMs);
	}
}

/** Each execution with its data, read by id (the public API leaves none out that way). */
export async function executionsWithData(n8n: N8nInstance, ids: number[], concurrency = 8): Promise<Execution[]> {
	const out: Execution[] = new Array(ids.length);
	await inParallel(ids.length, concurrency, async (i) => {
		out[i] = await n8n.getExecution(String(ids[i]));
	});
	return out;
}

/** How many executions of the workflow the public executions list shows (for comparison with what was recorded). */
export async function listedByApi(n8n: N8nInstance, workflowId: string): Promise<number> {
	return (await n8n.listAll<IDataObject>(`/executions?workflowId=${workflowId}&includeData=false`)).length;
}
