/**
 * The PayOnUs node as an AI agent's tool in a real n8n: n8n's AI Agent with
 * the OpenAI Chat Model node pointed at a scripted OpenAI-compatible server
 * (dev/scriptedChatModel.ts) that asks for transfers. The spending
 * limits set on the tool refuse the calls outside them (the agent reads the
 * refusal as the tool's answer) and the sandbox receives only the transfer
 * within them. The limits are per currency (rule 6), and a Business from
 * $fromAI that comes out empty is never the default (rule 5).
 */
import type { IDataObject } from 'n8n-workflow';
import { startScriptedModel, type ScriptedModel } from '../../dev/scriptedChatModel';
import { executionData, nodeItems } from '../harness/e2e';
import { useSandboxAndN8n } from '../harness/sandboxAndN8n';
import { PAYOUT_TOOL_PARAMETERS } from '../../dev/mcp';

describe('PayOnUs as an AI agent tool in n8n', () => {
	let model: ScriptedModel;
	const e2e = useSandboxAndN8n('agent-tool', { beforeStop: async () => await model?.stop() });
	const { n8n } = e2e;
	const stamp = Date.now().toString(36);

	beforeAll(async () => {
		model = await startScriptedModel([
			{ calls: [{ tool: '*', args: { amount: 2500, reference: `agent-big-${stamp}` } }] },
			{ calls: [{ tool: '*', args: { amount: 800, reference: `agent-ok-${stamp}` } }] },
			{ calls: [{ tool: '*', args: { amount: 800, reference: `agent-more-${stamp}` } }] },
			{ text: 'Paid 800 once; the other two payments were refused by the limits.' },
		]);
	});

	it('refuses the calls outside the limits, as tool output, and sends the one within them', async () => {
		await e2e.sb.clearRequests();
		const { id: openAiId } = await n8n.createCredential({ name: `scripted model ${stamp}`, type: 'openAiApi', data: { apiKey: 'sk-scripted', header: false, url: model.url } });
		const workflow = {
			name: 'agent tool e2e: spending limits',
			nodes: [
				{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'agent',
					name: 'Agent',
					type: '@n8n/n8n-nodes-langchain.agent',
					typeVersion: 2,
					position: [300, 0],
					parameters: { promptType: 'define', text: 'Pay the supplier', options: {} },
				},
				{
					id: 'model',
					name: 'Model',
					type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
					typeVersion: 1.2,
					position: [200, 200],
					parameters: { model: { __rl: true, mode: 'id', value: 'scripted' }, options: { baseURL: model.url } },
					credentials: { openAiApi: { id: openAiId, name: 'scripted model' } },
				},
				{
					id: 'tool',
					name: 'Pay supplier',
					type: 'n8n-nodes-payonus.payOnUsTool',
					typeVersion: 1,
					position: [400, 200],
					parameters: {
						...PAYOUT_TOOL_PARAMETERS,
						narration: 'Agent payout',
						toolAllowMoneyMovement: true,
						toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 1000, maxTotalPerExecution: 1200, maxTotalPerWindow: 0 }] },
						toolAllowedBeneficiaries: '9999991112',
					},
					credentials: { payOnUsApi: { id: e2e.credentialId, name: 'PayOnUs e2e' } },
				},
			],
			connections: {
				Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				Model: { ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] },
				'Pay supplier': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
		const execution = await e2e.runWorkflow(workflow);
		const [answer] = nodeItems(execution, 'Agent');
		expect(String(answer.output)).toContain('Paid 800 once');

		// What the agent read back from the tool, call by call.
		const toolResults = model.requests[model.requests.length - 1].messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
		expect(toolResults).toHaveLength(3);
		expect(toolResults[0]).toContain('"refused":true');
		expect(toolResults[0]).toContain('maxAmountPerCall');
		expect(toolResults[1]).toContain(`agent-ok-${stamp}`);
		expect(toolResults[1]).not.toContain('"refused"');
		expect(toolResults[2]).toContain('maxTotalPerExecution');

		const posted = (await e2e.sb.requests()).filter((r) => r.method === 'POST' && String(r.path).endsWith('/bank-transfer'));
		expect(posted.map((r) => (r.body as IDataObject).amount)).toEqual([800]);
		expect((posted[0].body as IDataObject).reference).toBe(`agent-ok-${stamp}`);
	});

	it('limits per currency (a currency without a row refused, saying so); a $fromAI Business that comes out empty is never the default', async () => {
		const v4 = `${stamp}-v4`;
		const script = await startScriptedModel([
			{ calls: [{ tool: '*', args: { amount: 500, currency: 'KES', business: 'BUS-2001', reference: `agent4-kes-${v4}` } }] },
			{ calls: [{ tool: '*', args: { amount: 2500, currency: 'NGN', business: 'BUS-2001', reference: `agent4-big-${v4}` } }] },
			{ calls: [{ tool: '*', args: { amount: 800, currency: 'NGN', business: '', reference: `agent4-nobiz-${v4}` } }] },
			{ calls: [{ tool: '*', args: { amount: 800, currency: 'NGN', business: 'BUS-2001', reference: `agent4-ok-${v4}` } }] },
			{ text: 'Paid NGN 800 once.' },
		]);
		try {
			await e2e.sb.clearRequests();
			const { id: openAiId } = await n8n.createCredential({ name: `scripted model ${v4}`, type: 'openAiApi', data: { apiKey: 'sk-scripted', header: false, url: script.url } });
			const workflow = {
				name: 'agent tool e2e: per-currency limits (v4)',
				nodes: [
					{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{ id: 'agent', name: 'Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 2, position: [300, 0], parameters: { promptType: 'define', text: 'Pay the supplier', options: {} } },
					{
						id: 'model',
						name: 'Model',
						type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
						typeVersion: 1.2,
						position: [200, 200],
						parameters: { model: { __rl: true, mode: 'id', value: 'scripted' }, options: { baseURL: script.url } },
						credentials: { openAiApi: { id: openAiId, name: 'scripted model' } },
					},
					{
						id: 'tool',
						name: 'Pay supplier',
						type: 'n8n-nodes-payonus.payOnUsTool',
						typeVersion: 1,
						position: [400, 200],
						parameters: {
							...PAYOUT_TOOL_PARAMETERS,
							businessId: { __rl: true, mode: 'id', value: "={{ $fromAI('business', 'The business paying', 'string') }}" },
							currency: "={{ $fromAI('currency', 'Currency code, e.g. NGN', 'string') }}",
							countryCode: '',
							verifyBeneficiaryName: false,
							narration: 'Agent payout',
							toolAllowMoneyMovement: true,
							toolSpendingLimits: { limit: [{ currency: 'NGN', maxAmountPerCall: 1000, maxTotalPerExecution: 1200, maxTotalPerWindow: 0 }] },
						},
						credentials: { payOnUsApi: { id: e2e.credentialId, name: 'PayOnUs e2e' } },
					},
				],
				connections: {
					Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
					Model: { ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] },
					'Pay supplier': { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
				},
				settings: { executionOrder: 'v1' },
			};
			const execution = await e2e.runWorkflow(workflow);
			const [answer] = nodeItems(execution, 'Agent');
			expect(String(answer.output)).toContain('Paid NGN 800 once');
			const toolResults = script.requests[script.requests.length - 1].messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
			expect(toolResults).toHaveLength(4);
			expect(toolResults[0]).toContain('"limit":"spendingLimits"');
			expect(toolResults[0]).toContain('no spending limit is set for KES on this tool (limits are set for: NGN)');
			expect(toolResults[1]).toContain('maxAmountPerCall');
			// The empty Business stopped the tool's run with the rule's error (n8n 2.41 hands the agent an
			// empty answer for a tool that failed, 2.8 the error's text): nothing sent for it.
			expect(toolResults[2]).not.toContain('onusReference');
			const runs = executionData(execution).resultData?.runData?.['Pay supplier'] ?? [];
			expect(runs.map((r) => r.error?.message?.split('\n')[0])).toEqual([
				undefined,
				undefined,
				`"Business" came out empty: {{ $fromAI('business', 'The business paying', 'string') }} gave empty text ""`,
				undefined,
			]);
			expect(toolResults[3]).toContain(`agent4-ok-${v4}`);
			const posted = (await e2e.sb.requests()).filter((r) => r.method === 'POST' && String(r.path).endsWith('/bank-transfer'));
			expect(posted.map((r) => [(r.body as IDataObject).reference, (r.body as IDataObject).businessId, (r.body as IDataObject).currency])).toEqual([[`agent4-ok-${v4}`, 'BUS-2001', 'NGN']]);
		} finally {
			await script.stop();
		}
	});
});
