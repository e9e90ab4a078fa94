/**
 * A webhook fan-out relay for the demo (`npm start`).
 *
 * The service (and the sandbox) sends every payment notification to ONE
 * webhook URL per environment, while the example workflows are separate
 * templates, each with its own PayOnUs Trigger. The relay receives each
 * notification once and forwards it, byte for byte and with its headers
 * (`hash`, `content-type`, ...), to every trigger workflow's production URL.
 * Each trigger still verifies the signature itself: the relay adds no trust.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

export interface FanoutHandle {
	url: string;
	/** The demo's chat webhook (POST { text }), written to `chatFile`. */
	chatUrl: string;
	port: number;
	/** Replaces the list of target URLs. */
	setTargets(urls: string[]): void;
	/** Deliveries seen so far (for the guide and tests). */
	readonly received: number;
	stop(): Promise<void>;
}

/** Headers not forwarded (hop-by-hop or recomputed by fetch). */
const SKIPPED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

const CHAT_PATH = '/chat';

/** One line per message: when, then its text (a chat's incoming webhook takes `{ "text": ... }`). */
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

export async function startFanout(opts: {
	port?: number;
	host?: string;
	targets?: string[];
	/** Per-target time limit; the service wants an answer within about 5 s. */
	timeoutMs?: number;
	/** Where POST /chat appends the `text` of each message (the demo's stand-in for a chat webhook). */
	chatFile?: string;
	log?: (line: string) => void;
}): Promise<FanoutHandle> {
	let targets = [...(opts.targets ?? [])];
	let received = 0;
	const timeoutMs = opts.timeoutMs ?? 4000;
	const host = opts.host ?? '127.0.0.1';

	const server: Server = createServer((req, res) => {
		void (async () => {
			const body = await readBody(req);
			if (req.url === CHAT_PATH && opts.chatFile) {
				appendChat(opts.chatFile, body);
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end('{"ok":true}');
				return;
			}
			received++;
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(req.headers)) {
				if (SKIPPED_HEADERS.has(name) || value === undefined) continue;
				headers[name] = Array.isArray(value) ? value.join(', ') : value;
			}
			const statuses = await Promise.all(
				targets.map(async (target) => {
					try {
						const answer = await fetch(target, {
							method: req.method ?? 'POST',
							headers,
							body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
							signal: AbortSignal.timeout(timeoutMs),
						});
						await answer.arrayBuffer();
						return answer.status;
					} catch (error) {
						opts.log?.(`relay: ${target} unreachable (${(error as Error).message})`);
						return 502;
					}
				}),
			);
			// 200 when at least one workflow took it: the others may simply not be
			// interested (a filtered trigger still answers 200, an inactive one 404).
			const status = statuses.length === 0 ? 404 : statuses.some((s) => s >= 200 && s < 300) ? 200 : Math.max(...statuses);
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ forwarded: statuses.length, statuses }));
		})().catch((error) => {
			res.writeHead(500);
			res.end(String((error as Error).message));
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, host, () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://${host}:${port}/payonus-events`,
		chatUrl: `http://${host}:${port}${CHAT_PATH}`,
		port,
		setTargets(urls) {
			targets = [...urls];
		},
		get received() {
			return received;
		},
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}
