/**
 * Spending limits of the PayOnUs tool behind n8n's MCP Server Trigger, with
 * a real MCP client (official SDK, streamable HTTP). n8n runs an MCP tool
 * call without an execution id of its own: a total per execution cannot be
 * counted, so such calls are refused unless the builder sets a window total;
 * with one, every session of the tool in this workflow shares it. The
 * limits are per currency (rule 6): a currency without a row is refused,
 * saying so.
 */
import type { IDataObject } from 'n8n-workflow';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { sharedN8n } from '../harness/e2e';
import { sandboxCredentialData } from '../../dev/sandboxCredential';
import { mcpPayoutWorkflow, mcpSession, toolOutput } from '../../dev/mcp';

const n8n = sharedN8n();
let sb: SandboxHandle;
let credentialId: string;
const stamp = Date.now();

beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
	credentialId = (await n8n.createCredential({ name: 'PayOnUs MCP', type: 'payOnUsApi', data: sandboxCredentialData(sb.url) })).id;
});
afterAll(async () => {
	await sb.stop();
});

const transfersSent = () => sb.state.requestLog.filter((r) => r.method === 'POST' && r.path === '/api/v1/transfer-requests/bank-transfer').length;

/** The NGN row of Spending Limits (maxTotalPerWindow 0: no window total). */
const ngn = (maxAmountPerCall: number, maxTotalPerExecution: number, maxTotalPerWindow = 0): IDataObject => ({
	toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall, maxTotalPerExecution, maxTotalPerWindow }] },
});

async function served(path: string, limits: IDataObject): Promise<string> {
	const wf = await n8n.createWorkflow(mcpPayoutWorkflow(`mcp limits ${path}`, path, credentialId, limits));
	await n8n.activate(wf.id);
	return `${n8n.baseUrl}/mcp/${path}`;
}

async function pay(url: string, amount: number, reference: string, more: IDataObject = {}): Promise<IDataObject> {
	const client = await mcpSession(url); // a new MCP session for every call
	try {
		const result = await client.callTool({ name: 'pay_supplier', arguments: { amount, reference, ...more } });
		const out = toolOutput(result);
		return (Array.isArray(out) ? out[0] : out) as IDataObject;
	} finally {
		await client.close();
	}
}

it('without a window total, a money-moving MCP call is refused and nothing is sent', async () => {
	const url = await served(`payonus-mcp-nowindow-${stamp}`, ngn(1000, 1500));
	const before = transfersSent();
	const out = await pay(url, 800, `mcp-nw-${stamp}`);
	expect(out).toMatchObject({ refused: true, nothingSent: true, limit: 'maxTotalPerWindow' });
	expect(String(out.reason)).toMatch(/MCP/);
	expect(transfersSent()).toBe(before);
});

it('with a window total: two sessions share it; one over is refused; another workflow is not affected', async () => {
	const limits = { ...ngn(1000, 1500, 1500), toolWindowMinutes: 60 };
	const url = await served(`payonus-mcp-window-${stamp}`, limits);
	const other = await served(`payonus-mcp-other-${stamp}`, limits);
	const before = transfersSent();
	const first = await pay(url, 800, `mcp-w1-${stamp}`);
	expect(first.refused).toBeUndefined();
	expect(first.merchantReference ?? first.reference).toBeDefined();
	const second = await pay(url, 800, `mcp-w2-${stamp}`);
	expect(second).toMatchObject({ refused: true, limit: 'maxTotalPerWindow' });
	expect(String(second.reason)).toContain('over the last 60 minutes to 1600');
	const third = await pay(url, 700, `mcp-w3-${stamp}`);
	expect(third.refused).toBeUndefined();
	const elsewhere = await pay(other, 800, `mcp-o1-${stamp}`);
	expect(elsewhere.refused).toBeUndefined();
	expect(transfersSent() - before).toBe(3);
});

it('limits per currency; a currency without a row is refused saying so; each row keeps its own window', async () => {
	const perCurrency = {
		currency: "={{ $fromAI('currency', 'Currency code, e.g. NGN', 'string') }}",
		countryCode: '',
		verifyBeneficiaryName: false,
		toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 1000, maxTotalPerExecution: 1500, maxTotalPerWindow: 1500 }] },
		toolWindowMinutes: 60,
	};
	const url = await served(`payonus-mcp-v4-${stamp}`, perCurrency);
	const before = transfersSent();
	const kes = await pay(url, 100, `mcp4-kes-${stamp}`, { currency: 'KES' });
	expect(kes).toMatchObject({ refused: true, nothingSent: true, limit: 'spendingLimits', asked: { currency: 'KES', amount: 100 } });
	expect(String(kes.reason)).toContain('no spending limit is set for KES on this tool (limits are set for: NGN)');
	const first = await pay(url, 800, `mcp4-n1-${stamp}`, { currency: 'NGN' });
	expect(first.refused).toBeUndefined();
	const over = await pay(url, 800, `mcp4-n2-${stamp}`, { currency: 'NGN' });
	expect(over).toMatchObject({ refused: true, limit: 'maxTotalPerWindow' });
	expect(transfersSent() - before).toBe(1);
});
