/**
 * A real MCP client (the official @modelcontextprotocol/sdk, streamable
 * HTTP) for tests and benches. The SDK is taken from the n8n install under
 * test (n8n ships it), so no extra dependency; it is also installable from
 * the npm registry as a devDependency should a test need another version.
 */
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { n8nInstallDir } from './n8n/version';
import type { WorkflowJson } from './n8n';
import { business } from './workflows';

interface McpClientLike {
	connect(transport: unknown): Promise<void>;
	listTools(): Promise<{ tools: Array<{ name: string }> }>;
	callTool(req: { name: string; arguments: IDataObject }): Promise<{ content: Array<{ type: string; text?: string }>; isError?: boolean }>;
	close(): Promise<void>;
}

function sdk(): {
	Client: new (info: { name: string; version: string }) => McpClientLike;
	StreamableHTTPClientTransport: new (url: URL) => unknown;
} {
	const base = join(n8nInstallDir(), 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'cjs', 'client');
	// loaded at run time from the n8n under test (a path, not a dependency of this package)
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const load = (file: string) => require(join(base, file));
	const { Client } = load('index.js');
	const { StreamableHTTPClientTransport } = load('streamableHttp.js');
	return { Client, StreamableHTTPClientTransport };
}

/** One MCP session against an MCP Server Trigger's production URL. */
export async function mcpSession(url: string): Promise<McpClientLike> {
	const { Client, StreamableHTTPClientTransport } = sdk();
	const client = new Client({ name: 'payonus-test', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url)));
	return client;
}

/** The text of a tool call's answer parsed as JSON when it is. */
export function toolOutput(result: { content: Array<{ type: string; text?: string }> }): unknown {
	const text = result.content.map((c) => c.text ?? '').join('');
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/**
 * The PayOnUs tool's Create Transfer parameters shared by the MCP and AI agent
 * workflows (test/e2e/agentTool.test.ts): NGN bank transfer from BUS-2001 to the
 * sandbox's always-successful account, amount and reference from the caller
 * ($fromAI). Each adds its narration and tool limits after these.
 */
export const PAYOUT_TOOL_PARAMETERS: IDataObject = {
	descriptionType: 'manual',
	toolDescription: 'Pays the supplier in NGN',
	resource: 'payout',
	operation: 'createTransfer',
	transferType: 'WALLET_TO_BANK_ACCOUNT',
	businessId: business('BUS-2001'),
	amount: "={{ $fromAI('amount', 'Amount in NGN', 'number') }}",
	currency: 'NGN',
	countryCode: 'NG',
	reference: "={{ $fromAI('reference', 'A new unique reference', 'string') }}",
	beneficiaryBankCode: '044',
	beneficiaryAccountNumber: '9999991112',
	beneficiaryAccountName: 'Sandbox Success Beneficiary',
};

/** A workflow: MCP Server Trigger at `path` with the PayOnUs tool (Create Transfer, amount and reference from the client) and these `limits`. */
export function mcpPayoutWorkflow(name: string, path: string, credentialId: string, limits: IDataObject): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: 'mcp',
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: path,
				parameters: { path },
			},
			{
				id: 'tool',
				name: 'pay_supplier',
				type: 'n8n-nodes-payonus.payOnUsTool',
				typeVersion: 1,
				position: [200, 200],
				parameters: {
					...PAYOUT_TOOL_PARAMETERS,
					narration: 'MCP payout',
					toolAllowMoneyMovement: true,
					...limits,
				},
				credentials: { payOnUsApi: { id: credentialId, name: 'PayOnUs MCP' } },
			},
		],
		connections: { pay_supplier: { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
}
