/**
 * The demo's CHAT STAND-IN (`npm start`): a local HTTP endpoint that takes
 * what a chat service's incoming webhook takes (Slack, Mattermost,
 * Rocket.Chat: POST `{ "text": ... }`) and appends each message to a file
 * (`files/chat.log`). The nightly reconciliation example posts its summary
 * here under `npm start`.
 *
 * It is a stand-in, not a chat: no chat server can be run locally from the
 * registries this project installs from (npm and Debian's packages have no
 * Matrix homeserver, Mattermost or Rocket.Chat server), so the example's
 * HTTP Request node is shown working against this file instead. E-mail is
 * real: see dev/mailCatcher.ts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

export interface ChatStandIn {
	/** The incoming-webhook URL to put in the example's Settings (chatWebhookUrl). */
	url: string;
	port: number;
	stop(): Promise<void>;
}

const CHAT_PATH = '/chat';

/** One line per message: when, then its text. */
function appendChat(file: string, body: Buffer): void {
	let text = body.toString('utf8');
	try {
		const parsed = JSON.parse(text) as { text?: unknown };
		if (typeof parsed.text === 'string') text = parsed.text;
	} catch {
		// not JSON: kept as sent
	}
	appendFileSync(file, `${new Date().toISOString()} ${text}\n\n`);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

export async function startChatStandIn(opts: { chatFile: string; port?: number }): Promise<ChatStandIn> {
	const host = '127.0.0.1';
	const server: Server = createServer((req, res) => {
		void readBody(req)
			.then((body) => {
				if (req.method !== 'POST' || req.url !== CHAT_PATH) {
					res.writeHead(404, { 'content-type': 'text/plain' }).end(`POST ${CHAT_PATH} only (the demo's chat stand-in)`);
					return;
				}
				appendChat(opts.chatFile, body);
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			})
			.catch((error: Error) => res.writeHead(500).end(error.message));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, host, () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://${host}:${port}${CHAT_PATH}`,
		port,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}
