import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';

/**
 * How a Dry Run's result shows where the builder looks: the node always
 * succeeds (its output is the reports), so a failed check would otherwise
 * hide in `passed: false` inside the JSON. One hint above the output:
 * a warning naming the failed items (n8n's numbering) and their first
 * failed check, or a note that every item passed and nothing was sent.
 */
export function dryRunHint(items: IDataObject[], aggregate: boolean): NodeExecutionHint {
	// Each output item is { dryRun: report }.
	const reports = items.map((json) => (json.dryRun && typeof json.dryRun === 'object' ? (json.dryRun as IDataObject) : json));
	const failed = reports.map((r, i) => ({ r, i })).filter(({ r }) => r.passed !== true);
	const noun = aggregate ? 'the batch' : reports.length === 1 ? 'the item' : `all ${reports.length} items`;
	if (failed.length === 0) {
		return { type: 'info', location: 'outputPane', message: `Dry Run passed for ${noun}: nothing was sent.` };
	}
	const first = failed[0];
	const check = (Array.isArray(first.r.checks) ? (first.r.checks as IDataObject[]) : []).find((c) => c.passed !== true);
	const why = check ? `${String(check.check)}: ${String(check.detail)}` : 'a check failed';
	const which = aggregate ? 'the batch' : `${failed.length} of ${reports.length} item${reports.length === 1 ? '' : 's'}`;
	const where = aggregate ? '' : ` [item ${first.i}]`;
	return {
		type: 'warning',
		location: 'outputPane',
		message: `Dry Run FAILED for ${which} (nothing was sent). First problem${where}: ${why}`,
	};
}
