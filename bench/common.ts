/**
 * Set-up, read-outs and figures shared by the benches (not a bench itself:
 * bench/run.ts only loads *.bench.js): the bench credential, a node's run in
 * an execution, bounded parallelism, median and percentile.
 */
import type { IDataObject } from 'n8n-workflow';
import { sandboxCredentialData } from '../dev/sandboxCredential';
import { executionData, type Execution, type N8nInstance } from '../dev/n8n';

export const BENCH_CREDENTIAL_NAME = 'PayOnUs bench';

/**
 * A `payOnUsApi` credential for the sandbox (client 1, MER-1001 / BUS-2001),
 * ready to put on a node: `{ payOnUsApi: { id, name } }`.
 */
export async function benchCredential(
	n8n: Pick<N8nInstance, 'createCredential'>,
	sandboxUrl: string,
	overrides: IDataObject = {},
	name = BENCH_CREDENTIAL_NAME,
): Promise<{ payOnUsApi: { id: string; name: string } }> {
	const data = sandboxCredentialData(sandboxUrl, { webhookVerificationKey: 'bench-key', ...overrides });
	const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data });
	return { payOnUsApi: { id, name } };
}

/**
 * The first run of `nodeName` in an execution: its own executionTime and
 * its output items. Throws when it failed or gave other than `expected` items.
 */
/** `expected` < 0: any count. */
export function nodeRun(execution: Execution, nodeName: string, expected: number): { executionTime?: number; output: IDataObject[] } {
	const runData = executionData(execution).resultData?.runData as Record<string, IDataObject[]> | undefined;
	const run = runData?.[nodeName]?.[0] as { executionTime?: number; data?: { main?: Array<Array<{ json: IDataObject }>> }; error?: IDataObject } | undefined;
	if (!run || run.error) throw new Error(`bench run failed: ${JSON.stringify(run?.error ?? execution.status)}`);
	const output = (run.data?.main?.[0] ?? []).map((item) => item.json);
	if (expected >= 0 && output.length !== expected) throw new Error(`expected ${expected} items, got ${output.length}`);
	return { executionTime: run.executionTime, output };
}

/** Runs fn(0..count-1) with `limit` calls in flight. */
export async function inParallel(count: number, limit: number, fn: (i: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await fn(next++);
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, async () => await worker()));
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median rounded to a whole number (of milliseconds). */
export function medianMs(values: number[]): number {
	return Math.round(median(values));
}

/** The p-th percentile (nearest rank), to 0.1; NaN for no values. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1));
}
