/**
 * Jest global setup of the e2e project: starts one real n8n for the whole run
 * (pinned version from the install cache, this package packed and installed as
 * a community package, owner + API key) and hands its address to the test files
 * through a JSON file named by PAYONUS_E2E_N8N. dist/ must be built
 * (`npm test` and `npm run test:e2e` build it first).
 *
 * PAYONUS_E2E_DB=postgres runs the shared instance on a fresh Postgres database.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONNECTION_ENV } from './e2e';
import { startN8n } from '../../dev/n8n';

export default async function globalSetup(): Promise<void> {
	const db = process.env.PAYONUS_E2E_DB === 'postgres' ? 'postgres' : 'sqlite';
	const n8n = await startN8n({ db });
	(globalThis as { __PAYONUS_N8N__?: unknown }).__PAYONUS_N8N__ = n8n;
	const file = join(dirname(n8n.userFolder), 'e2e-connection.json');
	writeFileSync(file, JSON.stringify(n8n.connection(), null, 2));
	process.env[CONNECTION_ENV] = file;
	process.stdout.write(`\nn8n ready at ${n8n.baseUrl} (${db}) in ${n8n.startMs} ms; log: ${n8n.logFile}\n`);
}
