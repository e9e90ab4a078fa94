/**
 * The sandbox HTTP server: plain node:http, the router, the response
 * envelope, fault injection and the request log.
 *
 *   const sb = await startSandbox({ port: 0 });   // sb.url, sb.port, sb.state, sb.stop()
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Router, type Ctx, type Reply } from './router';
import { Sandbox } from './runtime';
import type { SandboxConfig, SeedConfig } from './config';
import { ApiError } from './errors';
import type { RequestLogEntry } from './records';
import type { SandboxState } from './store';
import type { FaultDecision } from './faults';
import { authenticate, registerAuth } from './areas/auth';
import { registerPayins } from './areas/payins';
import { registerWallets } from './areas/wallets';
import { registerPayouts } from './areas/payouts';
import { registerRefunds } from './areas/refunds';
import { registerTokenization } from './areas/tokenization';
import { registerPages } from './areas/pages';
import { registerControl } from './areas/control';
import { attachLink, makeTlsMaterial, registerLink, startLink, type LinkHandle, type LinkSettings } from './link';
import { OVERLOAD_CALLS, parseProfiles, RATE_LIMIT_PER_SECOND, SLOW_FREE_CALLS, SLOW_MS_PER_CALL } from './profiles';
import type { Timers } from './timers';
import { shapeAnswer } from './answerShapes';

export type { SeedConfig, SandboxConfig } from './config';

export interface StartOptions {
	port?: number;
	host?: string;
	seed?: SeedConfig;
	/** Overrides of the seed's config (delays, settlement, fees, limits). */
	config?: Partial<SandboxConfig>;
	/**
	 * Serve HTTPS with a certificate chain made at start (sandbox/link.ts):
	 * the CA is written to `tls.caFile` of the handle; clients trust it with
	 * NODE_EXTRA_CA_CERTS=<caFile>. `tlsDir`: where to write (and reuse) it.
	 */
	tls?: boolean;
	tlsDir?: string;
	/**
	 * Added round-trip time (ms) and jitter (ms): a delaying TCP proxy in
	 * front of the server (connection set-up and every chunk each way; see
	 * sandbox/link.ts). Either one (even 0) puts the link in, so that it can
	 * be changed at run time: PUT /_sandbox/link { rttMs, jitterMs }.
	 */
	rttMs?: number;
	jitterMs?: number;
	/** Behaviour profiles (profiles.ts). Default: env PAYONUS_SANDBOX_PROFILE, else none. */
	profiles?: readonly string[];
	/** The sandbox's timers (timers.ts): real by default; tests may pass ManualTimers and move time on themselves. */
	timers?: Timers;
}

export interface SandboxHandle {
	url: string;
	port: number;
	state: SandboxState;
	sandbox: Sandbox;
	/** With `tls`: the CA certificate file clients must trust, and the PEMs. */
	tls?: { caFile: string; ca: string };
	/** With `rttMs` / `jitterMs`: the link's settings, changeable. */
	link?: { settings: LinkSettings; set(next: Partial<LinkSettings>): LinkSettings };
	stop(): Promise<void>;
}

const REDACTED_KEYS = new Set(['carddata', 'apiclientsecret', 'cvv', 'cardnumber', 'pin', 'otp', 'authdata', 'verificationkey']);

export function redact(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(redact);
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) out[k] = REDACTED_KEYS.has(k.toLowerCase()) ? '[REDACTED]' : redact(v);
		return out;
	}
	return value;
}

export function buildRouter(): Router {
	const router = new Router();
	registerAuth(router);
	registerPayins(router);
	registerWallets(router);
	registerPayouts(router);
	registerRefunds(router);
	registerTokenization(router);
	registerPages(router);
	registerControl(router);
	registerLink(router);
	return router;
}

function errorBody(status: number, message: string, errors: string[]) {
	return { status, message, data: { statusCode: status, errors } };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function parseBody(raw: Buffer, contentType: string): unknown {
	if (raw.length === 0) return {};
	if (contentType.includes('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
	}
	if (contentType.includes('multipart/form-data')) return {};
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		throw new ApiError(400, 'Malformed JSON body', ['body: is not valid JSON']);
	}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An answer refused by a load profile (profiles.ts: rate-limited, slows-under-load), with its Retry-After. */
class PushBack extends ApiError {
	constructor(
		status: number,
		message: string,
		readonly retryAfterSeconds: number,
	) {
		super(status, message, [`sandbox profile: ${message}`]);
	}
}

export class SandboxServer {
	readonly router = buildRouter();
	/** `rate-limited`: calls per API client in the current wall-clock second. */
	private readonly window = { second: 0, calls: new Map<string, number>() };
	/** `slows-under-load`: authenticated API calls in flight. */
	private inFlight = 0;
	constructor(readonly sb: Sandbox) {}

	/** The load profiles, once the caller is known: a 429/503 to refuse with, or a delay (ms) to serve after. */
	private loadProfiles(clientId: string): number {
		const profiles = this.sb.profiles;
		if (profiles.has('rate-limited')) {
			const now = Date.now();
			const second = Math.floor(now / 1000);
			if (second !== this.window.second) {
				this.window.second = second;
				this.window.calls.clear();
			}
			const calls = (this.window.calls.get(clientId) ?? 0) + 1;
			this.window.calls.set(clientId, calls);
			if (calls > RATE_LIMIT_PER_SECOND) {
				throw new PushBack(429, `Too many requests: at most ${RATE_LIMIT_PER_SECOND} a second`, Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000)));
			}
		}
		if (profiles.has('slows-under-load')) {
			if (this.inFlight >= OVERLOAD_CALLS) throw new PushBack(503, 'Service overloaded', 1);
			return Math.max(0, this.inFlight - SLOW_FREE_CALLS) * SLOW_MS_PER_CALL;
		}
		return 0;
	}

	handle = (req: IncomingMessage, res: ServerResponse): void => {
		void this.process(req, res).catch((error) => {
			console.error('[sandbox] unexpected error', error);
			if (!res.headersSent) this.send(res, 500, errorBody(500, 'Internal sandbox error', [String(error)]));
		});
	};

	private async process(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const started = Date.now();
		const url = req.url ?? '/';
		const qi = url.indexOf('?');
		const path = qi === -1 ? url : url.slice(0, qi);
		const query = new URLSearchParams(qi === -1 ? '' : url.slice(qi + 1));
		const method = req.method ?? 'GET';
		const isApi = path.startsWith('/api/');
		const sb = this.sb;
		if (isApi) sb.tick();
		const fault: FaultDecision | undefined = isApi && sb.faults.size > 0 ? sb.faults.decide(method, path) : undefined;
		const contentType = String(req.headers['content-type'] ?? '');
		let rawBody: Buffer = Buffer.alloc(0);
		let ctx: Ctx | undefined;
		let reply: Reply;
		let status: number;
		let retryAfter: number | undefined;
		try {
			rawBody = method === 'GET' || method === 'HEAD' ? await this.drain(req) : await readBody(req);
			if (fault?.latencyMs) await sleep(fault.latencyMs);
			if (fault?.dropBefore) {
				this.log(req, path, query, rawBody, contentType, 0, null, started, `drop-before#${fault.id}`);
				req.socket.destroy();
				return;
			}
			if (fault?.status) {
				throw new ApiError(fault.status, fault.message ?? `Injected fault (${fault.status})`, ['sandbox: injected fault']);
			}
			const found = this.router.match(method, path);
			if (!('route' in found)) {
				if (found.allowed.length > 0) throw new ApiError(405, `Method ${method} not allowed`, [`method: use ${found.allowed.join(', ')}`]);
				throw new ApiError(404, `No such endpoint: ${method} ${path}`, [`path: ${path} not found`]);
			}
			const host = req.headers.host ?? sb.baseUrl.replace(/^https?:\/\//, '');
			ctx = {
				sb,
				req,
				method,
				path,
				params: found.params,
				query,
				body: undefined,
				rawBody,
				contentType,
				auth: null,
				baseUrl: `${sb.baseUrl.startsWith('https:') ? 'https' : 'http'}://${host}`,
			};
			if (found.route.auth) ctx.auth = authenticate(sb, req);
			ctx.body = parseBody(rawBody, contentType);
			if (ctx.auth) {
				const delay = this.loadProfiles(ctx.auth.clientId);
				this.inFlight++;
				try {
					if (delay > 0) await sleep(delay);
					reply = await found.route.handler(ctx);
				} finally {
					this.inFlight--;
				}
			} else {
				reply = await found.route.handler(ctx);
			}
			status = reply.status ?? 200;
		} catch (error) {
			if (error instanceof PushBack) {
				status = error.status;
				retryAfter = error.retryAfterSeconds;
				reply = { status, message: error.message, data: { statusCode: status, errors: error.errors }, kind: 'envelope' };
			} else if (error instanceof ApiError) {
				status = error.status;
				reply = { status, message: error.message, data: { statusCode: status, errors: error.errors }, kind: 'envelope' };
			} else {
				console.error('[sandbox] handler error', error);
				status = 500;
				reply = { status, message: 'Internal sandbox error', data: { statusCode: 500, errors: [String(error)] } };
			}
		}
		if (isApi) {
			this.log(req, path, query, rawBody, contentType, fault?.dropAfter ? 0 : status, ctx?.auth?.clientId ?? null, started,
				fault ? (fault.dropAfter ? `drop-after#${fault.id}` : fault.status ? `status#${fault.id}` : `latency#${fault.id}`) : null);
		}
		if (fault?.dropAfter) {
			req.socket.destroy();
			return;
		}
		if (reply.kind === 'raw') {
			res.writeHead(reply.status, reply.headers);
			res.end(reply.body);
			return;
		}
		const body = reply.extra
			? { status, message: reply.message ?? 'Successful', data: reply.data ?? null, ...reply.extra }
			: { status, message: reply.message ?? 'Successful', data: reply.data ?? null };
		// Answer-shape profiles (answerShapes.ts): the same outcome in another shape.
		const shaped = isApi && ctx?.auth !== null ? shapeAnswer(sb.profiles, method, path, { status, body }) : { status, body };
		this.send(res, shaped.status, shaped.body, retryAfter);
	}

	private drain(req: IncomingMessage): Promise<Buffer> {
		// GET bodies are ignored, but still read so keep-alive sockets stay usable.
		if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
			return Promise.resolve(Buffer.alloc(0));
		}
		return readBody(req);
	}

	private send(res: ServerResponse, status: number, body: unknown, retryAfterSeconds?: number): void {
		const text = JSON.stringify(body);
		res.writeHead(status, {
			'content-type': 'application/json; charset=utf-8',
			'content-length': Buffer.byteLength(text),
			...(retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {}),
		});
		res.end(text);
	}

	private log(
		req: IncomingMessage,
		path: string,
		query: URLSearchParams,
		rawBody: Buffer,
		contentType: string,
		status: number,
		clientId: string | null,
		started: number,
		fault: string | null,
	): void {
		const state = this.sb.state;
		const headers: Record<string, string | string[] | undefined> = {};
		for (const [k, v] of Object.entries(req.headers)) if (k !== 'authorization' && k !== 'cookie') headers[k] = v;
		let body: unknown = null;
		if (rawBody.length > 0) {
			if (contentType.includes('multipart/form-data')) body = { multipart: true, bytes: rawBody.length };
			else {
				try {
					body = redact(parseBody(rawBody, contentType));
				} catch {
					body = '[unparseable body]';
				}
			}
		}
		const q: Record<string, string | string[]> = {};
		for (const key of new Set(query.keys())) {
			const all = query.getAll(key);
			q[key] = all.length === 1 ? all[0] : all;
		}
		const entry: RequestLogEntry = {
			id: ++state.requestSeq,
			at: state.now(),
			method: req.method ?? 'GET',
			path,
			query: q,
			headers,
			body,
			status,
			clientId,
			durationMs: Date.now() - started,
			fault,
		};
		state.requestLog.push(entry);
		const limit = state.config.requestLogLimit;
		if (state.requestLog.length > limit) state.requestLog.splice(0, state.requestLog.length - limit + Math.ceil(limit / 10));
	}
}

export async function startSandbox(opts: StartOptions = {}): Promise<SandboxHandle> {
	const profiles = parseProfiles(opts.profiles ?? process.env.PAYONUS_SANDBOX_PROFILE);
	const sandbox = new Sandbox(opts.seed, profiles, opts.timers);
	if (opts.config) {
		sandbox.state.seed = { ...sandbox.state.seed, config: { ...(sandbox.state.seed.config ?? {}), ...opts.config } };
		Object.assign(sandbox.state.config, opts.config);
	}
	const app = new SandboxServer(sandbox);
	const material = opts.tls ? makeTlsMaterial(opts.tlsDir) : undefined;
	const server: Server = material
		? (createHttpsServer({ key: material.key, cert: material.cert }, app.handle) as unknown as Server)
		: createServer(app.handle);
	server.keepAliveTimeout = 5000;
	const host = opts.host ?? '127.0.0.1';
	const withLink = opts.rttMs !== undefined || opts.jitterMs !== undefined;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		// Behind a link, the server itself listens on a free loopback port; the link takes the asked one.
		server.listen(withLink ? 0 : (opts.port ?? 0), withLink ? '127.0.0.1' : host, () => resolve());
	});
	let link: LinkHandle | undefined;
	if (withLink) {
		link = await startLink(
			{ host: '127.0.0.1', port: (server.address() as AddressInfo).port },
			{ host, port: opts.port ?? 0 },
			{ rttMs: opts.rttMs ?? 0, jitterMs: opts.jitterMs ?? 0 },
		);
		attachLink(sandbox, link);
	}
	const port = link ? link.port : (server.address() as AddressInfo).port;
	const url = `${material ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
	sandbox.baseUrl = url;
	return {
		url,
		port,
		state: sandbox.state,
		sandbox,
		...(material ? { tls: { caFile: material.caFile, ca: material.ca } } : {}),
		...(link ? { link: { settings: link.settings, set: link.set } } : {}),
		stop: async () => {
			sandbox.stop();
			await sandbox.webhooks.close();
			await link?.stop();
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}
