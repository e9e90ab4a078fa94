/**
 * Reading n8n executions: the public API returns `data` already unflattened on
 * 2.8.4, while the internal REST API (and some other versions) return it as a
 * `flatted` string. Both shapes are accepted here.
 */
import type { IDataObject } from 'n8n-workflow';

export interface Execution {
	id: string;
	workflowId?: string;
	status?: string;
	finished?: boolean;
	mode?: string;
	startedAt?: string;
	stoppedAt?: string | null;
	data?: unknown;
	[key: string]: unknown;
}

interface NodeRun {
	data?: { main?: Array<Array<{ json: IDataObject }> | null> };
	error?: { message?: string; description?: string };
	executionStatus?: string;
}

interface RunDataShape {
	resultData?: {
		runData?: Record<string, NodeRun[]>;
		error?: { message?: string; node?: { name?: string } };
		lastNodeExecuted?: string;
	};
}

/**
 * Parses the `flatted` format (a JSON array whose first entry is the root;
 * every string inside an object or array is the index of another entry).
 */
export function parseFlatted(text: string): unknown {
	const table = JSON.parse(text) as unknown[];
	const revived = new Set<object>();
	const revive = (value: unknown): unknown => {
		if (typeof value !== 'object' || value === null || revived.has(value)) return value;
		revived.add(value);
		const record = value as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			const entry = record[key];
			if (typeof entry === 'string') {
				const resolved = table[Number(entry)];
				record[key] = typeof resolved === 'object' && resolved !== null ? revive(resolved) : resolved;
			}
		}
		return value;
	};
	const root = table[0];
	return typeof root === 'object' && root !== null ? revive(root) : root;
}

/** The execution's run data as plain objects, whatever format it came in. */
export function executionData(execution: Execution): RunDataShape {
	const data = execution.data;
	if (typeof data === 'string') return parseFlatted(data) as RunDataShape;
	if (data && typeof data === 'object') return data;
	throw new Error(
		`execution ${execution.id} has no data (fetch it with includeData=true; status ${String(execution.status)})`,
	);
}

/** Names of the nodes that ran in the execution. */
export function executedNodes(execution: Execution): string[] {
	return Object.keys(executionData(execution).resultData?.runData ?? {});
}

/**
 * The output JSON of a node: every item of every output of every run (runs and
 * outputs in order). Throws when the node did not run, naming the nodes that did.
 */
export function nodeItems(execution: Execution, nodeName: string, output?: number): IDataObject[] {
	const runData = executionData(execution).resultData?.runData ?? {};
	const runs = runData[nodeName];
	if (!runs) {
		throw new Error(
			`node "${nodeName}" did not run in execution ${execution.id} (status ${String(execution.status)}); ran: ${Object.keys(runData).join(', ') || 'none'}` +
				(nodeError(execution) ? `; error: ${nodeError(execution)}` : ''),
		);
	}
	const items: IDataObject[] = [];
	for (const run of runs) {
		const outputs = run.data?.main ?? [];
		outputs.forEach((list, index) => {
			if (output !== undefined && index !== output) return;
			for (const item of list ?? []) items.push(item.json);
		});
	}
	return items;
}

/**
 * The error message of a node (its last failing run), or of the execution when
 * no node name is given. undefined when there was none.
 */
/**
 * The item n8n names for the last error of `nodeName` (its `context.itemIndex`,
 * zero-based: what the editor shows as "[item N]"); undefined when none.
 */
export function nodeErrorItem(execution: Execution, nodeName: string): number | undefined {
	const runs = executionData(execution).resultData?.runData?.[nodeName] ?? [];
	for (let i = runs.length - 1; i >= 0; i--) {
		const error = runs[i].error as { context?: { itemIndex?: unknown } } | undefined;
		if (error) return typeof error.context?.itemIndex === 'number' ? error.context.itemIndex : undefined;
	}
	return undefined;
}

export function nodeError(execution: Execution, nodeName?: string): string | undefined {
	const resultData = executionData(execution).resultData;
	if (nodeName === undefined) {
		const error = resultData?.error;
		return error ? [error.message, (error as { description?: string }).description].filter(Boolean).join(': ') || 'error' : undefined;
	}
	const runs = resultData?.runData?.[nodeName] ?? [];
	for (let i = runs.length - 1; i >= 0; i--) {
		const error = runs[i].error;
		if (error) return error.message ?? error.description ?? 'error';
	}
	if (resultData?.error && resultData.error.node?.name === nodeName) return resultData.error.message;
	return undefined;
}
