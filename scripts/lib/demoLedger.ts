/**
 * The demo's own ledger for the example "Nightly reconciliation" (`npm start`):
 * an n8n Data table, "PayOnUs demo ledger", with the example's columns and a
 * few payouts of yesterday (UTC) that the sandbox does not hold, so the first
 * run already shows records to check. Created once, found by name on later
 * starts (n8n's name filter matches loosely: the exact name is checked here).
 * Through n8n's editor REST API (/rest/projects/:projectId/data-tables),
 * which both supported n8n versions serve.
 */

export const DEMO_LEDGER_NAME = 'PayOnUs demo ledger';

interface RestClient {
	rest<T>(method: string, path: string, body?: unknown): Promise<T>;
}

interface DataTable {
	id: string;
	name: string;
}

const COLUMNS = [
	{ name: 'reference', type: 'string' },
	{ name: 'amount', type: 'number' },
	{ name: 'currency', type: 'string' },
	{ name: 'status', type: 'string' },
	{ name: 'day', type: 'string' },
];

/** Rows of `day`: payouts "we" made that the sandbox never saw (missingAtService on the first night). */
export function demoRows(day: string): Array<Record<string, string | number>> {
	return [
		{ reference: `demo-supplier-${day}`, amount: 2500, currency: 'NGN', status: 'SUCCESSFUL', day },
		{ reference: `demo-rent-${day}`, amount: 120000, currency: 'NGN', status: 'SUCCESSFUL', day },
	];
}

/** The id of the demo ledger, created (with demo rows of the day before `now`, UTC) when missing. */
export async function ensureDemoLedger(n8n: RestClient, now = new Date()): Promise<{ id: string; created: boolean }> {
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	const base = `/projects/${encodeURIComponent(project.id)}/data-tables`;
	const filter = encodeURIComponent(JSON.stringify({ name: DEMO_LEDGER_NAME }));
	const list = await n8n.rest<{ data?: DataTable[] } | DataTable[]>('GET', `${base}?filter=${filter}`);
	const tables = Array.isArray(list) ? list : (list.data ?? []);
	const found = tables.find((t) => t.name === DEMO_LEDGER_NAME);
	if (found) return { id: String(found.id), created: false };
	const table = await n8n.rest<DataTable>('POST', base, { name: DEMO_LEDGER_NAME, columns: COLUMNS });
	const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
	await n8n.rest('POST', `${base}/${encodeURIComponent(table.id)}/insert`, { data: demoRows(yesterday) });
	return { id: String(table.id), created: true };
}
