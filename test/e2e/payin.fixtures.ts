/**
 * Shared set-up of the payin end-to-end files (payin.accounts, payin.cards,
 * payin.mobileMoney-eft): each file gets its own sandbox and PayOnUs credential
 * in the shared n8n, and runs ONE workflow per test (Manual Trigger -> Code
 * items -> PayOnUs) whose items mix good inputs and bad ones (continueOnFail on).
 */
import { constants, publicEncrypt } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { nodeItems, type Execution } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { NODE, payOnUsWorkflow } from '../../dev/workflows';
import type { RequestLogEntry } from '../../sandbox/records';

export const e = (field: string) => `={{ $json.${field} }}`;

export const customerParams = {
	customerName: e('name'),
	customerEmail: e('email'),
};

export const person = { name: 'Ada Obi', email: 'ada@example.com' };

/** The credential each payin file creates (the dropdown test names it). */
export const PAYIN_CREDENTIAL_NAME = 'PayOnUs payin e2e';

/**
 * Registers the file's set-up (test/harness/sandboxAndN8n.ts: a sandbox on a
 * free port, the payin credential for it, its workflows deleted and the
 * sandbox stopped after the file) and returns it with the payin helpers;
 * `sb` and `credentialId` are set once beforeAll has run.
 */
export function payinSuite() {
	const e2e = useSandboxAndN8n('payin', { credentialName: PAYIN_CREDENTIAL_NAME });

	/** Runs PayOnUs over `items` with `parameters`; returns the execution. */
	async function run(
		name: string,
		parameters: IDataObject,
		items: IDataObject[],
		opts: { continueOnFail?: boolean; credential?: string } = { continueOnFail: true },
	): Promise<Execution> {
		await e2e.sb.clearRequests();
		const wf = payOnUsWorkflow(
			`payin e2e: ${name}`,
			opts.credential ?? e2e.credentialId,
			parameters,
			items.map((json) => ({ json })),
			{ continueOnFail: opts.continueOnFail },
		);
		return await e2e.runWorkflow(wf, { timeoutMs: 120000 });
	}

	/** Output items of the node, errors separated. */
	function outcome(execution: Execution): { ok: IDataObject[]; errors: string[] } {
		const items = nodeItems(execution, NODE);
		return {
			ok: items.filter((i) => i.error === undefined),
			errors: items.filter((i) => i.error !== undefined).map((i) => String(i.error)),
		};
	}

	/** A direct sandbox API call for test setup (the sandbox client keeps one token for the whole file: 3 token calls a minute). */
	async function api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T> {
		return await e2e.sb.api<T>(method, path, body);
	}

	async function encryptCard(pan: string): Promise<string> {
		const publicKey = await e2e.sb.publicKey();
		return publicEncrypt(
			{ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
			Buffer.from(`${pan}|12|30|123`),
		).toString('base64');
	}

	/**
	 * The requests the sandbox received since the run began, in the order of
	 * their body's reference: independent items of a money-moving run are sent
	 * together (Money-Moving Concurrency), so they reach the service in any
	 * order; the output, not the wire, keeps the input order.
	 */
	async function requestsByReference(): Promise<RequestLogEntry[]> {
		const reference = (r: RequestLogEntry) => String((r.body as IDataObject | undefined)?.reference ?? '');
		return (await e2e.sb.requests()).sort((a, b) => reference(a).localeCompare(reference(b)));
	}

	return Object.assign(e2e, { run, outcome, api, encryptCard, requestsByReference });
}
