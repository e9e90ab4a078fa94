/** The shapes the harness and its users share: options, connection, handle, workflow JSON. */
import type { IDataObject } from 'n8n-workflow';
import type { Execution } from './execution';

/** The owner account set up in every test n8n. */
export const OWNER = {
	email: 'owner@payonus.test',
	firstName: 'Ops',
	lastName: 'Owner',
	password: 'Payonus-e2e-2025',
};

export interface WorkflowJson {
	name: string;
	nodes: IDataObject[];
	connections: IDataObject;
	settings?: IDataObject;
	staticData?: IDataObject | null;
	[extra: string]: unknown;
}

export interface StartOptions {
	db?: 'sqlite' | 'postgres';
	/** Queue mode with this many `n8n worker` processes (needs postgres and Redis). */
	queueWorkers?: number;
	/**
	 * Queue mode: also this many `n8n webhook` processes (production webhooks
	 * only), each on its own port, same database, Redis and encryption key;
	 * their base URLs are `webhookBaseUrls`. The main keeps serving webhooks too.
	 */
	webhookProcesses?: number;
	/** Extra environment for every process of the instance (wins over the defaults). */
	env?: Record<string, string>;
	/** postgres only: use this existing database instead of creating one (it is not dropped on stop). */
	database?: string;
	/** false: do not set up the owner (it exists already); log in instead and reuse `apiKey`. */
	owner?: boolean;
	/** With owner: false, the API key created by the first instance on the same database. */
	apiKey?: string;
	/** Milliseconds to wait for readiness (default 180000 or PAYONUS_N8N_START_TIMEOUT_MS). */
	startTimeoutMs?: number;
	/** Queue mode: run manual executions on the workers too (default true). */
	offloadManualExecutions?: boolean;
	/** Queue mode without own workers, on this existing Bull prefix (used by startSecondMain). */
	queuePrefix?: string;
	/**
	 * false: start n8n without this package (no `npm pack`, nothing extracted
	 * into the user folder), e.g. to install it through n8n's own community
	 * package installer (test/e2e/registry-install.test.ts). Default true.
	 */
	communityInstall?: boolean;
	// --- persistent mode, added for `npm start` (scripts/start.ts; owned by the start/examples helper) ---
	/**
	 * A persistent folder instead of a temporary one: kept on stop and reused by
	 * the next start (SQLite database, owner, credentials, workflows). The owner
	 * is set up on the first start and logged into afterwards; the API key
	 * labelled `payonus-start` is replaced on every start (never written to disk).
	 */
	userFolder?: string;
	/** Fixed HTTP port (default: a free one). */
	port?: number;
	/** The owner to set up or log into (default OWNER). */
	ownerAccount?: { email: string; firstName: string; lastName: string; password: string };
	/** false: the caller handles SIGINT/SIGTERM itself (default true: kill everything and exit 130). */
	handleSignals?: boolean;
	// --- end of persistent mode options ---
}

/** A workflow as the public API lists it (`nodes` when fetched one by one). */
export interface WorkflowSummary {
	id: string;
	name: string;
	active: boolean;
	nodes?: Array<Record<string, unknown>>;
}

/** A credential as the public API lists it (never its data). */
export interface CredentialSummary {
	id: string;
	name: string;
	type: string;
}

/** What a test needs to talk to a running n8n; written to a file by the jest global setup. */
export interface N8nConnection {
	baseUrl: string;
	apiKey: string;
	cookie: string;
	userFolder?: string;
	logFile?: string;
	database?: string;
}

export interface N8nHandle {
	baseUrl: string;
	apiKey: string;
	webhookUrl(path: string): string;
	createCredential(c: { name: string; type: string; data: object }): Promise<{ id: string }>;
	createWorkflow(w: WorkflowJson): Promise<{ id: string }>;
	activate(id: string): Promise<void>;
	deactivate(id: string): Promise<void>;
	runWorkflow(id: string, opts?: { timeoutMs?: number; triggerName?: string }): Promise<Execution>;
	waitForExecutions(workflowId: string, count: number, timeoutMs?: number): Promise<Execution[]>;
	stop(): Promise<void>;
}
