/**
 * What e2e test files import: the n8n instance jest's global setup started for
 * this run (one per `jest` run, shared by every e2e file; files run serially),
 * and helpers to read executions.
 *
 *   const n8n = sharedN8n();
 *   const { id } = await n8n.createWorkflow(workflow);
 *   const execution = await n8n.runWorkflow(id);
 *   expect(nodeItems(execution, 'PayOnUs')).toEqual([...]);
 */
import { existsSync, readFileSync } from 'node:fs';
import { N8nClient, type N8nConnection } from '../../dev/n8n';

export { nodeItems, nodeError, nodeErrorItem, executionData } from '../../dev/n8n/execution';
export type { Execution } from '../../dev/n8n/execution';
export { N8nClient } from '../../dev/n8n';

/** Environment variable naming the JSON file (baseUrl, apiKey, cookie) the global setup wrote. */
export const CONNECTION_ENV = 'PAYONUS_E2E_N8N';

let shared: N8nClient | undefined;

/** The n8n started by test/harness/jest-global-setup.ts for this jest run. */
export function sharedN8n(): N8nClient {
	if (shared) return shared;
	const file = process.env[CONNECTION_ENV];
	if (!file) {
		throw new Error(
			`${CONNECTION_ENV} is not set: run e2e tests through jest's e2e project (npx jest --selectProjects e2e ...), whose global setup starts n8n`,
		);
	}
	shared = new N8nClient(JSON.parse(readFileSync(file, 'utf8')) as N8nConnection);
	return shared;
}

/** Last lines of the shared n8n's log (for failure messages), or '' when unknown. */
export function sharedN8nLogTail(lines = 80): string {
	const file = process.env[CONNECTION_ENV];
	if (!file) return '';
	const { logFile } = JSON.parse(readFileSync(file, 'utf8')) as N8nConnection;
	if (!logFile || !existsSync(logFile)) return '';
	return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
}
