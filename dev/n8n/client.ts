/** HTTP client for one running n8n: public API (API key) and editor REST API (owner cookie). */
import type { IDataObject } from 'n8n-workflow';
import { fetch } from 'undici';
import type { Execution } from './execution';
import type { CredentialSummary, N8nConnection, N8nHandle, WorkflowJson, WorkflowSummary } from './types';
import { sleep } from '../wait';

export const AUTH_COOKIE = 'n8n-auth';

export class HttpError extends Error {
	constructor(
		readonly method: string,
		readonly url: string,
		readonly status: number,
		readonly body: string,
	) {
		super(`${method} ${url} -> ${status}: ${body.slice(0, 2000)}`);
	}
}

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

export function isFinished(execution: Execution): boolean {
	if (execution.status) return FINISHED.has(execution.status);
	return Boolean(execution.finished || execution.stoppedAt);
}

/** Talks to a running n8n: public API with the API key, editor REST API with the owner's cookie. */
export class N8nClient implements N8nHandle {
	readonly baseUrl: string;
	readonly apiKey: string;
	readonly cookie: string;

	constructor(connection: N8nConnection) {
		this.baseUrl = connection.baseUrl.replace(/\/$/, '');
		this.apiKey = connection.apiKey;
		this.cookie = connection.cookie;
	}

	connection(): N8nConnection {
		return { baseUrl: this.baseUrl, apiKey: this.apiKey, cookie: this.cookie };
	}

	/** Production webhook URL: `<base>/webhook/<path>` (path like `<webhookId>/webhook`). */
	webhookUrl(path: string): string {
		return `${this.baseUrl}/webhook/${path.replace(/^\/+/, '')}`;
	}

	/** Test webhook URL: `<base>/webhook-test/<path>`. */
	testWebhookUrl(path: string): string {
		return `${this.baseUrl}/webhook-test/${path.replace(/^\/+/, '')}`;
	}

	/** Public API call (`/api/v1` + path) with the API key; throws HttpError on non-2xx. */
	async api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
		return await this.call<T>(method, `/api/v1${path}`, { 'X-N8N-API-KEY': this.apiKey }, body);
	}

	/** Editor REST call (`/rest` + path) with the owner's cookie; returns the unwrapped `data`. */
	async rest<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
		const result = await this.call<{ data: T }>(method, `/rest${path}`, { cookie: `${AUTH_COOKIE}=${this.cookie}` }, body);
		return result && typeof result === 'object' && 'data' in result ? result.data : result;
	}

	/** Any path with the owner's cookie (e.g. `/types/nodes.json`). */
	async getWithCookie<T = unknown>(path: string): Promise<T> {
		return await this.call<T>('GET', path, { cookie: `${AUTH_COOKIE}=${this.cookie}` });
	}

	private async call<T>(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
		const url = `${this.baseUrl}${path}`;
		const res = await fetch(url, {
			method,
			headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new HttpError(method, url, res.status, text);
		if (!text) return undefined as T;
		try {
			return JSON.parse(text) as T;
		} catch {
			return text as T;
		}
	}

	/** Every page of a public API list (`path` may carry a query of its own). */
	async listAll<T>(path: string): Promise<T[]> {
		const all: T[] = [];
		let cursor: string | undefined;
		do {
			const sep = path.includes('?') ? '&' : '?';
			const page = await this.api<{ data: T[]; nextCursor?: string | null }>(
				'GET',
				`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			all.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		return all;
	}

	async createCredential(c: { name: string; type: string; data: object }): Promise<{ id: string }> {
		const created = await this.api<{ id: string }>('POST', '/credentials', { name: c.name, type: c.type, data: c.data });
		return { id: String(created.id) };
	}

	async listCredentials(): Promise<CredentialSummary[]> {
		return await this.listAll<CredentialSummary>('/credentials');
	}

	async findCredentialsByName(name: string, type: string): Promise<CredentialSummary[]> {
		return (await this.listCredentials()).filter((c) => c.name === name && c.type === type);
	}

	/** Replaces the credential's data (keeps its id, so workflows stay linked). */
	async updateCredential(id: string, c: { name: string; type: string; data: object }): Promise<void> {
		await this.api('PATCH', `/credentials/${id}`, c);
	}

	async listWorkflows(): Promise<WorkflowSummary[]> {
		return await this.listAll<WorkflowSummary>('/workflows');
	}

	async findWorkflowsByName(name: string): Promise<WorkflowSummary[]> {
		return (await this.listAll<WorkflowSummary>(`/workflows?name=${encodeURIComponent(name)}`)).filter((w) => w.name === name);
	}

	async getWorkflow(id: string): Promise<WorkflowSummary> {
		return await this.api<WorkflowSummary>('GET', `/workflows/${id}`);
	}

	/** Replaces a workflow (public API PUT: name, nodes, connections, settings). */
	async updateWorkflow(id: string, workflow: object): Promise<void> {
		await this.api('PUT', `/workflows/${id}`, workflow);
	}

	/** Creates a workflow through the public API (strict: only name, nodes, connections, settings, staticData). */
	async createWorkflow(w: WorkflowJson): Promise<{ id: string }> {
		const body: IDataObject = {
			name: w.name,
			nodes: w.nodes,
			connections: w.connections,
			settings: w.settings ?? { executionOrder: 'v1' },
		};
		if (w.staticData) body.staticData = w.staticData;
		const created = await this.api<{ id: string }>('POST', '/workflows', body);
		return { id: String(created.id) };
	}

	/**
	 * Activates and waits until the triggers are live. n8n >= 2.3x publishes in
	 * the background (the call answers at once, webhooks register a moment
	 * later, a failure only shows in the publication status): wait for that
	 * status and throw with the triggers' errors when publishing failed.
	 * `wait: false` only asks (n8n publishes in the background).
	 */
	async activate(id: string, { wait = true }: { wait?: boolean } = {}): Promise<void> {
		await this.api('POST', `/workflows/${id}/activate`);
		if (wait) await this.waitForPublication(id, (status) => status !== 'in_progress' && status !== 'not_published');
	}

	async deactivate(id: string, { wait = true }: { wait?: boolean } = {}): Promise<void> {
		await this.api('POST', `/workflows/${id}/deactivate`);
		if (wait) await this.waitForPublication(id, (status) => status !== 'in_progress');
	}

	/** Background publication (n8n >= 2.3x); returns at once on n8n without it. */
	private async waitForPublication(id: string, settled: (status: string) => boolean, timeoutMs = 60_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			let publication: { status: string; triggers?: Array<{ nodeId: string; status: string; errorMessage?: string | null }> };
			try {
				publication = await this.rest('GET', `/workflows/${id}/publication-status`);
			} catch (error) {
				if (error instanceof HttpError && error.status === 404) return; // n8n without background publication
				throw error;
			}
			if (settled(publication.status)) {
				if (publication.status === 'failed' || publication.status === 'partial') {
					const why = (publication.triggers ?? []).filter((t) => t.status === 'failed').map((t) => t.errorMessage).join('; ');
					throw new Error(`workflow ${id} could not be activated (${publication.status}): ${why}`);
				}
				return;
			}
			if (Date.now() > deadline) throw new Error(`workflow ${id}: publication still ${publication.status} after ${timeoutMs} ms`);
			await sleep(100);
		}
	}

	async deleteWorkflow(id: string): Promise<void> {
		await this.api('DELETE', `/workflows/${id}`);
	}

	/** One execution with its data (public API, data unflattened). */
	async getExecution(id: string): Promise<Execution> {
		return await this.api<Execution>('GET', `/executions/${id}?includeData=true`);
	}

	/** Executions of a workflow, newest first (public API). */
	async listExecutions(workflowId: string, includeData = true): Promise<Execution[]> {
		const result = await this.api<{ data: Execution[] }>(
			'GET',
			`/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=${includeData}&limit=250`,
		);
		return result.data;
	}

	/**
	 * Runs a workflow the way the editor's "Execute workflow" button does (from its
	 * Manual Trigger, or `triggerName`) and waits until the execution has finished.
	 */
	async runWorkflow(id: string, opts: { timeoutMs?: number; triggerName?: string } = {}): Promise<Execution> {
		return await this.waitForExecution(await this.startWorkflow(id, opts), opts.timeoutMs);
	}

	/** Starts a saved workflow from its Manual Trigger (or `triggerName`, or its first trigger) and returns the execution's id at once. */
	async startWorkflow(id: string, opts: { triggerName?: string } = {}): Promise<string> {
		const workflowData = await this.rest<IDataObject & { nodes: Array<{ name: string; type: string }> }>('GET', `/workflows/${id}`);
		const trigger =
			opts.triggerName ??
			workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name ??
			workflowData.nodes.find((node) => /trigger/i.test(node.type))?.name;
		if (!trigger) throw new Error(`workflow ${id} has no Manual Trigger; pass triggerName`);
		const started = await this.rest<{ executionId?: string; waitingForWebhook?: boolean }>('POST', `/workflows/${id}/run`, {
			workflowData,
			triggerToStartFrom: { name: trigger },
		});
		if (!started.executionId) {
			throw new Error(`workflow ${id} did not start an execution: ${JSON.stringify(started)}`);
		}
		return String(started.executionId);
	}

	/** Polls one execution until it has finished; returns it with data. */
	async waitForExecution(executionId: string, timeoutMs = 120000): Promise<Execution> {
		const deadline = Date.now() + timeoutMs;
		let last: Execution | undefined;
		while (Date.now() < deadline) {
			try {
				last = await this.getExecution(executionId);
				if (isFinished(last)) return last;
			} catch (error) {
				if (!(error instanceof HttpError && error.status === 404)) throw error;
			}
			await sleep(200);
		}
		throw new Error(`execution ${executionId} did not finish within ${timeoutMs} ms (last status ${String(last?.status)})`);
	}

	/**
	 * The workflow's finished executions, with data. An execution n8n has only
	 * created (status new) or is still running has no node output yet: it is
	 * waited for (up to `settleMs`) rather than read half-done.
	 */
	async finishedExecutions(workflowId: string, settleMs = 15000): Promise<Execution[]> {
		const deadline = Date.now() + settleMs;
		for (;;) {
			const all = await this.listExecutions(workflowId, true);
			if (all.every(isFinished) || Date.now() > deadline) return all.filter(isFinished);
			await sleep(200);
		}
	}

	/** Waits until the workflow has at least `count` finished executions; returns them oldest first, with data. */
	async waitForExecutions(workflowId: string, count: number, timeoutMs = 60000): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		let finished: Execution[] = [];
		while (Date.now() < deadline) {
			const all = await this.listExecutions(workflowId, true);
			finished = all.filter(isFinished).sort((a, b) => Number(a.id) - Number(b.id));
			if (finished.length >= count) return finished;
			await sleep(300);
		}
		throw new Error(`workflow ${workflowId}: ${finished.length} of ${count} executions finished within ${timeoutMs} ms`);
	}

	/** The owner's API keys (n8n 2.8 answers a list; newer n8n pages it: { items, counts, ... }). */
	async listApiKeys(): Promise<Array<{ id: string; label: string }>> {
		const listed = await this.rest<Array<{ id: string; label: string }> | { items: Array<{ id: string; label: string }> }>(
			'GET',
			'/api-keys',
		);
		return Array.isArray(listed) ? listed : listed.items;
	}

	/** Node type names n8n has loaded (from /types/nodes.json, what the editor reads). */
	async loadedNodeTypes(): Promise<Array<{ name: string; version: number | number[]; displayName: string }>> {
		return await this.getWithCookie('/types/nodes.json');
	}

	/** Credential type names n8n has loaded (from /types/credentials.json). */
	async loadedCredentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return await this.getWithCookie('/types/credentials.json');
	}

	/** A shared client cannot stop the instance; the process that started it does. */
	async stop(): Promise<void> {}
}
