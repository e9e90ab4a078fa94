/**
 * The few calls of n8n's public API (X-N8N-API-KEY) the demo set-up needs
 * beyond the harness: look things up by name so a second run reuses them.
 */

export interface N8nApi {
	baseUrl: string;
	apiKey: string;
}

export interface WorkflowSummary {
	id: string;
	name: string;
	active: boolean;
	nodes?: Array<Record<string, unknown>>;
}

async function call<T>(api: N8nApi, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${api.baseUrl}/api/v1${path}`, {
		method,
		headers: {
			'X-N8N-API-KEY': api.apiKey,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) {
		throw new Error(`n8n ${method} /api/v1${path} answered ${response.status}: ${text.slice(0, 400)}`);
	}
	return (text ? JSON.parse(text) : {}) as T;
}

/** Every page of a public API list. */
async function listAll<T>(api: N8nApi, path: string): Promise<T[]> {
	const all: T[] = [];
	let cursor: string | undefined;
	do {
		const sep = path.includes('?') ? '&' : '?';
		const page = await call<{ data: T[]; nextCursor?: string | null }>(
			api,
			'GET',
			`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

export async function findCredentialsByName(
	api: N8nApi,
	name: string,
	type: string,
): Promise<Array<{ id: string; name: string; type: string }>> {
	const all = await listAll<{ id: string; name: string; type: string }>(api, '/credentials');
	return all.filter((c) => c.name === name && c.type === type);
}

export async function listCredentials(api: N8nApi): Promise<Array<{ id: string; name: string; type: string }>> {
	return listAll<{ id: string; name: string; type: string }>(api, '/credentials');
}

export async function createCredential(
	api: N8nApi,
	c: { name: string; type: string; data: object },
): Promise<{ id: string }> {
	return call<{ id: string }>(api, 'POST', '/credentials', c);
}

/** Replaces the credential's data (keeps its id, so workflows stay linked). */
export async function updateCredential(
	api: N8nApi,
	id: string,
	c: { name: string; type: string; data: object },
): Promise<void> {
	await call(api, 'PATCH', `/credentials/${id}`, c);
}

export async function findWorkflowsByName(api: N8nApi, name: string): Promise<WorkflowSummary[]> {
	const all = await listAll<WorkflowSummary>(api, `/workflows?name=${encodeURIComponent(name)}`);
	return all.filter((w) => w.name === name);
}

export async function listWorkflows(api: N8nApi): Promise<WorkflowSummary[]> {
	return listAll<WorkflowSummary>(api, '/workflows');
}

export async function getWorkflow(api: N8nApi, id: string): Promise<WorkflowSummary> {
	return call<WorkflowSummary>(api, 'GET', `/workflows/${id}`);
}

export async function createWorkflow(api: N8nApi, workflow: object): Promise<{ id: string }> {
	return call<{ id: string }>(api, 'POST', '/workflows', workflow);
}

export async function updateWorkflow(api: N8nApi, id: string, workflow: object): Promise<void> {
	await call(api, 'PUT', `/workflows/${id}`, workflow);
}

export async function activateWorkflow(api: N8nApi, id: string): Promise<void> {
	await call(api, 'POST', `/workflows/${id}/activate`);
}

export async function deactivateWorkflow(api: N8nApi, id: string): Promise<void> {
	await call(api, 'POST', `/workflows/${id}/deactivate`);
}
