/**
 * A SCRIPTED CHAT MODEL: a stand-in for an LLM, as the sandbox is for
 * PayOnUs (dev/ only, never in the published package). An OpenAI-compatible
 * server that answers POST /v1/chat/completions from a script instead of a
 * model: n8n's OpenAI Chat Model node is pointed at it (Base URL option, or
 * the credential's Base URL). The e2e tests of AI agents script tool calls
 * with it; `npm start` serves a one-line script that tells the user to
 * choose their model (the payments agent example).
 *
 * The script is a list of turns; the turn played is the number of tool
 * results already in the conversation (so a retried request gets the same
 * answer): a turn is either tool calls (`{ tool: name, args }[]`, name `*`: the
 * first tool offered) or a final
 * text; a tool named other than exactly as offered is the first offered
 * tool whose name contains it (n8n names a tool after its node: "Pay a
 * supplier" is offered as "Pay_a_supplier"). Every request received is kept in `requests` (the messages show the
 * tool results the agent got). Streaming requests get the same answer as
 * server-sent events.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Turn = { text: string } | { calls: Array<{ tool: string; args: Record<string, unknown> }> };

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: unknown[];
	tool_call_id?: string;
}

export interface ScriptedModel {
	/** Base URL for the OpenAI Chat Model node's Base URL option (ends in /v1). */
	url: string;
	requests: Array<{ model?: string; messages: ChatMessage[]; tools?: unknown[]; stream?: boolean }>;
	stop(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function toolNamed(wanted: string, tools: unknown[] | undefined): string {
	const names = (tools ?? []).map((t) => String((t as { function?: { name?: string } }).function?.name ?? ''));
	if (wanted === '*') return names[0] ?? 'tool';
	const key = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
	return names.find((n) => n === wanted) ?? names.find((n) => key(n).includes(key(wanted))) ?? wanted;
}

function message(turn: Turn, step: number, tools: unknown[] | undefined) {
	if ('text' in turn) return { role: 'assistant', content: turn.text };
	return {
		role: 'assistant',
		content: null,
		tool_calls: turn.calls.map((c, i) => ({
			id: `call_${step}_${i}`,
			type: 'function',
			function: { name: toolNamed(c.tool, tools), arguments: JSON.stringify(c.args) },
		})),
	};
}

export async function startScriptedModel(script: Turn[]): Promise<ScriptedModel> {
	const requests: ScriptedModel['requests'] = [];
	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const send = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (req.method === 'GET' && req.url?.endsWith('/models')) return send(200, { object: 'list', data: [{ id: 'scripted', object: 'model' }] });
		if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(404, { error: { message: `no ${req.method} ${req.url}` } });
		const body = JSON.parse(await readBody(req)) as ScriptedModel['requests'][number];
		requests.push(body);
		const step = body.messages.filter((m) => m.role === 'tool').length;
		const turn = script[Math.min(step, script.length - 1)];
		const msg = message(turn, step, body.tools);
		const finish = 'calls' in turn ? 'tool_calls' : 'stop';
		const base = { id: `chatcmpl-${requests.length}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'scripted' };
		const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
		if (body.stream) {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			const delta = 'tool_calls' in msg ? { role: 'assistant', tool_calls: (msg.tool_calls ?? []).map((t, index) => ({ index, ...t })) } : msg;
			res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
			res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }], usage })}\n\n`);
			res.end('data: [DONE]\n\n');
			return;
		}
		send(200, { ...base, object: 'chat.completion', choices: [{ index: 0, message: msg, finish_reason: finish }], usage });
	};
	const server: Server = createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: String(error) } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
