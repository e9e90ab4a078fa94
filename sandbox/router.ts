/**
 * Routing, request context and replies. Static paths are found in one Map
 * lookup; parameterised paths are matched segment by segment against the few
 * patterns of the same method and segment count.
 */
import type { IncomingMessage } from 'node:http';
import type { AccessToken } from './records';
import type { Sandbox } from './runtime';

export interface Ctx {
	sb: Sandbox;
	req: IncomingMessage;
	method: string;
	path: string;
	params: Record<string, string>;
	query: URLSearchParams;
	/** Parsed JSON body (or form fields for urlencoded bodies), {} when empty. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request's JSON as sent (anything); each area validates the fields it reads
	body: any;
	rawBody: Buffer;
	contentType: string;
	/** The caller's access token (set for authenticated /api/v1 routes). */
	auth: AccessToken | null;
	/** `http://host:port` as the caller reached the sandbox. */
	baseUrl: string;
}

export interface EnvelopeReply {
	kind?: 'envelope';
	status?: number;
	message?: string;
	data: unknown;
	/** Extra top-level fields next to status/message/data. */
	extra?: Record<string, unknown>;
}

export interface RawReply {
	kind: 'raw';
	status: number;
	headers: Record<string, string>;
	body: string;
}

export type Reply = EnvelopeReply | RawReply;
export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface RouteOptions {
	/** Require a bearer token (default true for /api/v1 paths, false elsewhere). */
	auth?: boolean;
}

interface Route {
	method: string;
	segments: string[];
	handler: Handler;
	auth: boolean;
	pattern: string;
}

export function ok(data: unknown, message = 'Successful', status = 200): EnvelopeReply {
	return { status, message, data };
}

export function html(body: string, status = 200): RawReply {
	return { kind: 'raw', status, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
}

export function redirect(location: string): RawReply {
	return { kind: 'raw', status: 303, headers: { location }, body: '' };
}

export class Router {
	private statics = new Map<string, Route>();
	private dynamic = new Map<string, Route[]>();

	add(method: string, pattern: string, handler: Handler, opts: RouteOptions = {}): void {
		const auth = opts.auth ?? pattern.startsWith('/api/v1/');
		const segments = pattern.split('/').filter(Boolean);
		const route: Route = { method, segments, handler, auth, pattern };
		if (segments.some((s) => s.startsWith(':'))) {
			const key = `${method} ${segments.length}`;
			const list = this.dynamic.get(key) ?? [];
			list.push(route);
			this.dynamic.set(key, list);
		} else {
			this.statics.set(`${method} /${segments.join('/')}`, route);
		}
	}

	match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } {
		const clean = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
		const hit = this.statics.get(`${method} ${clean}`);
		if (hit) return { route: hit, params: {} };
		const segments = clean.split('/').filter(Boolean);
		const found = this.matchDynamic(method, segments);
		if (found) return found;
		const allowed: string[] = [];
		for (const m of ['GET', 'POST', 'PUT', 'DELETE']) {
			if (m !== method && (this.statics.has(`${m} ${clean}`) || this.matchDynamic(m, segments))) allowed.push(m);
		}
		return { allowed };
	}

	private matchDynamic(method: string, segments: string[]) {
		const list = this.dynamic.get(`${method} ${segments.length}`);
		if (!list) return undefined;
		outer: for (const route of list) {
			const params: Record<string, string> = {};
			for (let i = 0; i < segments.length; i++) {
				const p = route.segments[i];
				if (p.startsWith(':')) {
					try {
						params[p.slice(1)] = decodeURIComponent(segments[i]);
					} catch {
						params[p.slice(1)] = segments[i];
					}
				} else if (p !== segments[i]) continue outer;
			}
			return { route, params };
		}
		return undefined;
	}
}
