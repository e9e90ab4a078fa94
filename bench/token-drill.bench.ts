/**
 * `npm run bench -- token-drill [--items=50] [--cases=every,one,next] [--ops=createTransfer,getPayment]
 *   [--timeout-minutes=30]`
 *
 * The token drill (issue 36, rule 4 at our own door): what a service that
 * refuses tokens costs one run, in a real n8n (one process, SQLite) against
 * the sandbox, whose test control refuses tokens
 * (`PUT /_sandbox/access-tokens/{clientId}/refusal`). One workflow per row
 * (Manual Trigger -> Code making N items -> PayOnUs, Continue On Fail), on a
 * fresh sandbox and credential:
 *
 *   every  every token the client gets is refused on first use (an API
 *          client switched off, or another installation taking a token after
 *          each of ours); the stored token is empty
 *   one    a stored token that worked is revoked once (another process took
 *          a token), then tokens work
 *   next   the stored token is empty and the first new token is refused (another
 *          installation took one right after), then tokens work
 *
 * Operations: Create Transfer (each item its reference, to the always-
 * successful test account) and Get Payment (each item one payin created
 * before the run). Per row: items, items ok, error items, distinct error
 * messages, token calls, calls of the operation sent (POSTs or GETs), 401s,
 * transfers made, seconds (the run, wall time). Goals: `every` at most 3
 * token calls and no money moved, items failing at once (seconds, not
 * minutes); `one` and `next` every item ok with 1 and 2 token calls.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../sandbox/server';
import { SandboxClient } from '../sandbox/client';
import { sandboxAccessToken, sandboxClient } from '../dev/sandboxCredential';
import { manualWorkflow } from '../dev/workflows';
import { nodeItems, startN8n, type N8nInstance } from '../dev/n8n';
import { benchCredential } from './common';
import { PAYMENT_PATH, TRANSFER_PATH, payOnUsCreateTransfer, payOnUsGetPayment } from './throughput-nodes';

export const description = 'token drill: N items of Create Transfer and Get Payment when the service refuses every token, one token, or the first new token; token calls, calls sent, seconds';

export type DrillCase = 'every' | 'one' | 'next';
export type DrillOp = 'createTransfer' | 'getPayment';

export interface DrillRow extends IDataObject {
	case: DrillCase;
	operation: DrillOp;
	items: number;
	ok: number;
	errorItems: number;
	distinctErrors: number;
	firstError: string;
	/** Every error item's description says what to check (Client ID/Secret, the API client enabled, another installation). */
	saysWhatToCheck: boolean;
	tokenCalls: number;
	callsSent: number;
	unauthorized: number;
	transfersMade: number;
	seconds: number;
}

const CLIENT = sandboxClient(1).clientId;
const WHAT_TO_CHECK = ['Client ID and Client Secret', 'API client is enabled on the PayOnUs dashboard', 'no other n8n instance or program uses the same API client'];

function arg(args: string[], name: string, fallback: string): string {
	return args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
}

function itemsCode(op: DrillOp, count: number, tag: string, onusReference: string): string {
	return op === 'createTransfer'
		? `return Array.from({ length: ${count} }, (_, i) => ({ json: { reference: '${tag}-' + i } }));`
		: `return Array.from({ length: ${count} }, () => ({ json: { onusReference: '${onusReference}' } }));`;
}

/** One payin of BUS-2001 for Get Payment to read, made with client 3 (client 1's token slot stays untouched). */
async function seedPayin(url: string): Promise<string> {
	const token = await sandboxAccessToken(url, 3);
	const res = await fetch(`${url}/api/v1/virtual-accounts/dynamic`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ amount: 500, reference: `drill-${Date.now()}`, businessId: 'BUS-2001', customer: { name: 'Drill', email: 'drill@example.com' } }),
	});
	const body = (await res.json()) as { data?: { onusReference?: string } };
	if (res.status !== 200 || !body.data?.onusReference) throw new Error(`seeding a payin got ${res.status}`);
	return body.data.onusReference;
}

/** One row: a fresh sandbox and credential, the case set up, one run of N items. */
export async function drillRow(n8n: N8nInstance, drillCase: DrillCase, op: DrillOp, items: number, opts: { timeoutMs?: number } = {}): Promise<DrillRow> {
	const sb: SandboxHandle = await startSandbox({ port: 0, config: { requestLogLimit: 50_000 } });
	try {
		const control = new SandboxClient(sb.url);
		const onusReference = op === 'getPayment' ? await seedPayin(sb.url) : '';
		const tag = `drill-${drillCase}-${op}-${Date.now().toString(36)}`;
		const credentials = await benchCredential(n8n, sb.url, {}, `PayOnUs ${tag}`);
		if (drillCase === 'one') {
			// A token stored by an earlier run, then revoked once.
			const warm = await n8n.createWorkflow(
				manualWorkflow(`${tag} warm`, [{ name: 'Op', type: 'n8n-nodes-payonus.payOnUs', typeVersion: 1, credentials, parameters: { resource: 'wallet', operation: 'listWallets', merchantId: 'MER-1001' } }]),
			);
			await n8n.runWorkflow(warm.id, { timeoutMs: 120_000 });
			if (sb.state.clientStats(CLIENT).tokenCalls !== 1) throw new Error('the warm-up run did not store a token');
			await control.expireAccessToken(CLIENT);
		}
		if (drillCase === 'every') await control.refuseAccessTokens(CLIENT, 'every');
		if (drillCase === 'next') await control.refuseAccessTokens(CLIENT, 'next');
		const node = op === 'createTransfer' ? payOnUsCreateTransfer(credentials, undefined) : payOnUsGetPayment(credentials);
		const workflow = manualWorkflow(`${tag}`, [
			{ name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: itemsCode(op, items, tag, onusReference) } },
			{ name: 'Op', ...node, onError: 'continueRegularOutput' },
		]);
		const { id } = await n8n.createWorkflow(workflow);
		const before = { ...sb.state.clientStats(CLIENT) };
		const logFrom = sb.state.requestLog.length;
		const transfersBefore = sb.state.transfers.size;
		const started = Date.now();
		const execution = await n8n.runWorkflow(id, { timeoutMs: opts.timeoutMs ?? 30 * 60_000 });
		const seconds = (Date.now() - started) / 1000;
		const out = nodeItems(execution, 'Op');
		const errors = out.filter((i) => i.error !== undefined);
		// n8n ends each item's message with " [item N]": the same error for every item reads as one.
		const messages = errors.map((i) => String((i.error as IDataObject)?.message ?? i.error).replace(/ \[item \d+\]$/, ''));
		const after = sb.state.clientStats(CLIENT);
		const path = op === 'createTransfer' ? TRANSFER_PATH : PAYMENT_PATH;
		const method = op === 'createTransfer' ? 'POST' : 'GET';
		const log = sb.state.requestLog.slice(logFrom);
		return {
			case: drillCase,
			operation: op,
			items,
			ok: out.length - errors.length,
			errorItems: errors.length,
			distinctErrors: new Set(messages).size,
			firstError: messages[0] ?? '',
			saysWhatToCheck: errors.length > 0 && errors.every((i) => WHAT_TO_CHECK.every((words) => String(i.description ?? '').includes(words))),
			tokenCalls: after.tokenCalls - before.tokenCalls,
			callsSent: log.filter((r) => r.method === method && r.path.startsWith(path)).length,
			unauthorized: after.unauthorized - before.unauthorized,
			transfersMade: sb.state.transfers.size - transfersBefore,
			seconds: Number(seconds.toFixed(1)),
		};
	} finally {
		await sb.stop();
	}
}

/** Whether a row meets the drill's goals. */
export function drillGoal(row: DrillRow): boolean {
	if (row.case === 'every') return row.tokenCalls <= 3 && row.transfersMade === 0 && row.ok === 0 && row.distinctErrors === 1 && row.saysWhatToCheck && row.seconds < 60;
	return row.ok === row.items && row.tokenCalls === (row.case === 'one' ? 1 : 2);
}

export async function run(args: string[]): Promise<Record<string, unknown>> {
	const items = Number(arg(args, 'items', '50'));
	const cases = arg(args, 'cases', 'every,one,next').split(',') as DrillCase[];
	const ops = arg(args, 'ops', 'createTransfer,getPayment').split(',') as DrillOp[];
	const timeoutMs = Number(arg(args, 'timeout-minutes', '30')) * 60_000;
	const n8n = await startN8n();
	const rows: DrillRow[] = [];
	try {
		for (const c of cases) {
			for (const op of ops) {
				const row = await drillRow(n8n, c, op, items, { timeoutMs });
				console.log(JSON.stringify(row));
				rows.push(row);
			}
		}
	} finally {
		await n8n.stop();
	}
	console.table(rows.map(({ firstError: _e, ...r }) => r));
	const goals = rows.map((r) => ({ case: r.case, operation: r.operation, met: drillGoal(r) }));
	console.log('goals', JSON.stringify(goals));
	return { items, rows, goals };
}
