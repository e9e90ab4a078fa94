/**
 * Safety-edges area "credential": the credential test as the editor runs it
 * on an edited credential, the AI tool's spending limits behind n8n's MCP
 * Server Trigger (a real MCP client), and the token rollover.
 *
 * Real n8n (one process, SQLite) and a sandbox started here. The window
 * elapsing is shown with injected time (in process, the same limitedOperation
 * the node runs). The rollover row reads the last `token-economy
 * --scenarios=expiry --repeat=N` report (two n8n mains on PostgreSQL: too
 * heavy to start again here); run that bench first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { findOperation } from '../../nodes/PayOnUs/resources';
import type { OperationContext } from '../../nodes/PayOnUs/resources/types';
import { ExecutionTotals, limitedOperation, readToolLimits, WindowTotals, type ToolLimits } from '../../nodes/PayOnUs/safeguards/toolLimits';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { manualWorkflow } from '../../dev/workflows';
import { sandboxClient, sandboxCredentialData } from '../../dev/sandboxCredential';
import { mcpPayoutWorkflow, mcpSession, toolOutput } from '../../dev/mcp';
import { startN8n, type N8nInstance } from '../../dev/n8n';
import { row, type SafetyArea, type SafetyRow } from './types';

const NET_TEST = 'Credential test';

type Client = OperationContext['client'];

/** An operation's context whose client answers without a service: the balance read with NGN 5000, a transfer with `ONUS-<reference>`. */
function scriptedContext(reference: string): OperationContext {
	const client: Client = {
		environment: 'custom',
		defaults: { merchantId: 'MER-1001', businessId: 'BUS-2001' },
		request: async <T>(o: Parameters<Client['request']>[0]) =>
			(o.method === 'GET' ? [{ entityId: 'BUS-2001', currency: 'NGN', availableBalance: 5000 }] : { onusReference: `ONUS-${reference}` }) as T,
		paginate: async <T>() => [] as T[],
	};
	return {
		client,
		itemIndex: 0,
		item: {},
		getBinary: async () => {
			throw new Error('no binary in this bench');
		},
	};
}
const NET_LIMITS = 'AI tool spending limits (MCP)';

function walletNode(id: string, name: string): IDataObject {
	return {
		name: 'PayOnUs',
		type: 'n8n-nodes-payonus.payOnUs',
		typeVersion: 1,
		parameters: { resource: 'wallet', operation: 'listWallets', merchantId: 'MER-1001' },
		credentials: { payOnUsApi: { id, name } },
		onError: 'continueRegularOutput',
	};
}

async function credentialRows(n8n: N8nInstance, sb: SandboxHandle): Promise<SafetyRow[]> {
	const calls = (client: number) => sb.state.clientStats(`sandbox-client-${client}`).tokenCalls;
	const used = async (name: string, client: number): Promise<string> => {
		const { id } = await n8n.createCredential({ name, type: 'payOnUsApi', data: sandboxCredentialData(sb.url, sandboxClient(client)) });
		const wf = await n8n.createWorkflow(manualWorkflow(`${name} use`, [walletNode(id, name)]));
		await n8n.runWorkflow(wf.id);
		return id;
	};
	const editorTest = async (id: string, name: string, edit: IDataObject) => {
		const form = (await n8n.rest<{ data: IDataObject }>('GET', `/credentials/${id}?includeData=true`)).data;
		return await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', { credentials: { id, name, type: 'payOnUsApi', data: { ...form, ...edit } } });
	};
	const rows: SafetyRow[] = [];
	const verdict = (status: string, spent: number) => `${status === 'OK' ? 'passes' : 'fails'}; ${spent} token call(s)`;

	let id = await used('edge wrong secret', 1);
	let before = calls(1);
	let r = await editorTest(id, 'edge wrong secret', { clientSecret: 'wrong-secret-1' });
	rows.push(row(NET_TEST, 'used credential (stored token valid), Client Secret changed to a wrong one', verdict('Error', 1), verdict(r.status, calls(1) - before), { falseSuccesses: r.status === 'OK' ? 1 : 0 }));

	id = await used('edge right secret', 2);
	before = calls(2);
	r = await editorTest(id, 'edge right secret', { clientSecret: sandboxClient(2).clientSecret });
	const afterTest = calls(2);
	const wf = await n8n.createWorkflow(manualWorkflow('edge right secret rerun', [walletNode(id, 'edge right secret')]));
	await n8n.runWorkflow(wf.id);
	rows.push(
		row(
			NET_TEST,
			'used credential, right Client Secret typed again; then one run',
			`${verdict('OK', 1)}; the run after it: 0 token calls`,
			`${verdict(r.status, afterTest - before)}; the run after it: ${calls(2) - afterTest} token calls`,
		),
	);

	id = await used('edge both wrong', 3);
	before = calls(3);
	r = await editorTest(id, 'edge both wrong', { clientId: 'sandbox-client-9999', clientSecret: 'wrong-secret-2' });
	rows.push(row(NET_TEST, 'used credential, Client ID and Secret both changed to wrong ones', 'fails', r.status === 'OK' ? 'passes' : 'fails', { falseSuccesses: r.status === 'OK' ? 1 : 0 }));

	sb.state.clock.advance(61);
	const data = sandboxCredentialData(sb.url, { ...sandboxClient(1), clientSecret: 'wrong-new' });
	const fresh = await n8n.createCredential({ name: 'edge brand new', type: 'payOnUsApi', data });
	before = calls(1);
	r = await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', { credentials: { id: fresh.id, name: 'edge brand new', type: 'payOnUsApi', data } });
	rows.push(row(NET_TEST, 'brand-new credential with a wrong secret', verdict('Error', 1), verdict(r.status, calls(1) - before), { falseSuccesses: r.status === 'OK' ? 1 : 0 }));
	return rows;
}

async function mcpRows(n8n: N8nInstance, sb: SandboxHandle): Promise<SafetyRow[]> {
	const stamp = Date.now();
	const { id: credentialId } = await n8n.createCredential({ name: 'PayOnUs MCP', type: 'payOnUsApi', data: sandboxCredentialData(sb.url, sandboxClient(3)) });
	const sent = () => sb.state.requestLog.filter((q) => q.method === 'POST' && q.path === '/api/v1/transfer-requests/bank-transfer').length;
	const serve = async (path: string, limits: IDataObject) => {
		const wf = await n8n.createWorkflow(mcpPayoutWorkflow(`edge ${path}`, path, credentialId, limits));
		await n8n.activate(wf.id);
		return `${n8n.baseUrl}/mcp/${path}`;
	};
	const pay = async (url: string, amount: number, reference: string): Promise<IDataObject> => {
		const client = await mcpSession(url);
		try {
			const out = toolOutput(await client.callTool({ name: 'pay_supplier', arguments: { amount, reference } }));
			return (Array.isArray(out) ? out[0] : out) as IDataObject;
		} finally {
			await client.close();
		}
	};
	const said = (o: IDataObject) => (o.refused ? `refused (${String(o.limit)})` : 'sent');
	const rows: SafetyRow[] = [];

	const ngnRow = { currency: 'NGN', maxAmountPerCall: 1000, maxTotalPerExecution: 1500, maxTotalPerWindow: 0 };
	const perExec = { toolSpendingLimits: { limit: [ngnRow] } };
	let before = sent();
	let url = await serve(`edge-nowindow-${stamp}`, perExec);
	const out = await pay(url, 800, `edge-nw-${stamp}`);
	rows.push(row(NET_LIMITS, 'MCP call (no execution of its own), no window total set: NGN 800', 'refused (maxTotalPerWindow); 0 transfers sent', `${said(out)}; ${sent() - before} transfers sent`, { moneyMoved: out.refused ? 0 : 1 }));

	const windowed = { toolSpendingLimits: { limit: [{ ...ngnRow, maxTotalPerWindow: 1500 }] }, toolWindowMinutes: 60 };
	url = await serve(`edge-window-${stamp}`, windowed);
	before = sent();
	const a = await pay(url, 800, `edge-s1-${stamp}`);
	const b = await pay(url, 800, `edge-s2-${stamp}`);
	rows.push(
		row(NET_LIMITS, 'two MCP sessions, window total 1500: NGN 800 then NGN 800', 'sent, then refused (maxTotalPerWindow)', `${said(a)}, then ${said(b)}`, {
			moneyMoved: b.refused ? 0 : 1,
		}),
	);
	const c = await pay(url, 700, `edge-s3-${stamp}`);
	rows.push(row(NET_LIMITS, 'a third session within the window and the total: NGN 700 (1500 in all)', 'sent', said(c), { falseSuccesses: 0 }));
	const other = await serve(`edge-other-${stamp}`, windowed);
	const d = await pay(other, 800, `edge-o1-${stamp}`);
	rows.push(row(NET_LIMITS, 'another workflow with the tool (its own window), after the first is full: NGN 800', 'sent', said(d)));
	const moved = sent() - before;
	rows.push(row(NET_LIMITS, 'transfers sent by the four windowed calls', '3', String(moved), { moneyMoved: Math.max(0, moved - 3) }));

	// The window elapsing, with injected time (the node's own limitedOperation).
	let now = 1_000_000;
	const windows = new WindowTotals(() => now);
	const totals = new ExecutionTotals();
	const limits: ToolLimits = { allowMoneyMovement: true, windowMinutes: 10, currencies: { NGN: { maxAmountPerCall: 1000, maxTotalPerExecution: 1500, maxTotalPerWindow: 1500 } }, allowedBeneficiaries: [] };
	const op = findOperation('payout', 'createTransfer')!;
	const payIn = async (amount: number, reference: string) => {
		const input = op.schema.parse({ transferType: 'WALLET_TO_BANK_ACCOUNT', businessId: 'BUS-2001', amount, currency: 'NGN', countryCode: 'NG', reference, beneficiaryBankCode: '044', beneficiaryAccountNumber: '9999991112', beneficiaryAccountName: 'Ada', narration: 'x', email: '', verifyBeneficiaryName: false, fromSubWallet: false });
		return (await limitedOperation(op, limits, { workflowId: 'wf', nodeName: 'PayOnUs' }, totals, windows).execute(scriptedContext(reference), input)) as IDataObject;
	};
	await payIn(800, 't1');
	const inWindow = await payIn(800, 't2');
	now += 10 * 60 * 1000 + 1;
	const elapsed = await payIn(800, 't3');
	rows.push(row(NET_LIMITS, 'window 10 min, 1500: NGN 800, 800 at once, 800 after the window elapsed (injected time)', 'refused (maxTotalPerWindow), then sent', `${said(inWindow)}, then ${said(elapsed)}`, { moneyMoved: inWindow.refused ? 0 : 1 }));
	rows.push(...(await currencyRows(op, said)));
	return rows;
}

/** Rule 6, a limit names its currency: the node's own limitedOperation with the limits the node reads (Spending Limits). */
async function currencyRows(op: NonNullable<ReturnType<typeof findOperation>>, said: (o: IDataObject) => string): Promise<SafetyRow[]> {
	const NET = 'AI tool spending limits (per currency)';
	const input = (amount: number, currency: string, reference: string) =>
		op.schema.parse({
			transferType: currency === 'KES' ? 'WALLET_TO_MOMO' : 'WALLET_TO_BANK_ACCOUNT',
			businessId: 'BUS-2001',
			amount,
			currency,
			reference,
			beneficiaryBankCode: '044',
			beneficiaryAccountNumber: '9999991112',
			momoNetwork: 'MPESA_KE',
			beneficiaryPhoneNumber: '+254700000000',
			beneficiaryAccountName: 'Ada',
			narration: 'x',
			email: '',
			verifyBeneficiaryName: false,
			fromSubWallet: false,
		});
	const call = async (limits: ToolLimits, amount: number, currency: string, reference: string) =>
		(await limitedOperation(op, limits, { executionId: reference, workflowId: 'wf-cur', nodeName: 'PayOnUs' }, new ExecutionTotals(), new WindowTotals()).execute(
			scriptedContext(reference),
			input(amount, currency, reference),
		)) as IDataObject;
	const spending = readToolLimits(
		(name, fallback) =>
			({ toolAllowMoneyMovement: true, toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 1000, maxTotalPerExecution: 1500, maxTotalPerWindow: 0 }] } })[name] ?? fallback,
	);
	const cases = [
		{ edge: 'Spending Limits NGN 1000: KES 500 (no row for KES)', expected: 'refused (spendingLimits)', limits: spending, amount: 500, currency: 'KES' },
		{ edge: 'Spending Limits NGN 1000: NGN 1001', expected: 'refused (maxAmountPerCall)', limits: spending, amount: 1001, currency: 'NGN' },
		{ edge: 'Spending Limits NGN 1000: NGN 1000', expected: 'sent', limits: spending, amount: 1000, currency: 'NGN' },
	];
	const rows: SafetyRow[] = [];
	for (const [i, c] of cases.entries()) {
		const out = await call(c.limits, c.amount, c.currency, `cur-${i}`);
		rows.push(row(NET, c.edge, c.expected, said(out), { moneyMoved: c.expected !== 'sent' && !out.refused ? 1 : 0 }));
	}
	return rows;
}

function rolloverRow(): SafetyRow {
	const file = join(__dirname, '..', '..', '..', 'bench', 'results', 'token-economy.json');
	const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { report?: { repeats?: { expiry?: { runs: number; failedOperationsPerRun: number[] } } } }).report : undefined;
	const expiry = report?.repeats?.expiry;
	const observed = expiry
		? `${expiry.failedOperationsPerRun.reduce((s, n) => s + n, 0)} failed operations in ${expiry.runs} runs (per run: ${expiry.failedOperationsPerRun.join(' ')})`
		: 'no token-economy --repeat report (run it first)';
	const expected = expiry ? `0 failed operations in ${expiry.runs} runs (per run: ${expiry.failedOperationsPerRun.map(() => '0').join(' ')})` : 'a report';
	return row('Token guard', 'forced expiry, two n8n mains, 1,000 operations in 50 executions (last token-economy --scenarios=expiry --repeat run)', expected, observed);
}

export const area: SafetyArea = {
	name: 'credential',
	needsN8n: true,
	async run(): Promise<SafetyRow[]> {
		const sb = await startSandbox({ port: 0 });
		const n8n = await startN8n({ db: 'sqlite' });
		try {
			return [...(await credentialRows(n8n, sb)), ...(await mcpRows(n8n, sb)), rolloverRow()];
		} finally {
			await n8n.stop();
			await sb.stop();
		}
	},
};
