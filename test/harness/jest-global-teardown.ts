/** Jest global teardown of the e2e project: stops the n8n the global setup started. */
import type { N8nInstance } from '../../dev/n8n';

export default async function globalTeardown(): Promise<void> {
	const holder = globalThis as { __PAYONUS_N8N__?: N8nInstance };
	const n8n = holder.__PAYONUS_N8N__;
	holder.__PAYONUS_N8N__ = undefined;
	if (n8n) await n8n.stop();
}
