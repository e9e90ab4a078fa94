/**
 * Helpers of the example workflow e2e files (examples*.test.ts): a local
 * stand-in for a chat service's incoming webhook. (Waiting: dev/wait.ts.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatPost {
	path: string;
	contentType: string | undefined;
	body: string;
}

export interface ChatCapture {
	/** Base URL (`http://127.0.0.1:<port>`); any path under it answers 200 `ok`, as Slack's webhooks do. */
	url: string;
	posts: ChatPost[];
	stop(): Promise<void>;
}

/** A chat service's incoming webhook, on 127.0.0.1: keeps every POST it receives. */
export async function startChatCapture(): Promise<ChatCapture> {
	const posts: ChatPost[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (req.method === 'POST') {
				posts.push({ path: req.url ?? '/', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
			}
			res.writeHead(req.method === 'POST' ? 200 : 405, { 'content-type': 'text/plain' });
			res.end(req.method === 'POST' ? 'ok' : 'POST only');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		posts,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
