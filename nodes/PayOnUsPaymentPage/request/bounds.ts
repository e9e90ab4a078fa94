import type { IDataObject } from 'n8n-workflow';
import { PAGE_METHODS } from '../methods';
import { BoundedMap } from '../../shared/boundedMap';
import type { PayOnUsClient, RequestOptions } from '../../shared/clientInterface';
import { clock } from '../clock';

/**
 * Rule 4: every public door is bounded. What one visitor, one page and one
 * target (a phone number or an e-mail address a payin is made for) can make
 * the merchant's credential do per minute, enforced on the one client every
 * service call of a page request goes through (serve.ts wraps it once per
 * request: BoundedDoor). Only calls that would reach the service count:
 * a page shown, a form refused, a bad link cost nothing; a call over a bound
 * is refused before it is sent (`DoorClosed`, answered 429 with Retry-After),
 * so a flood spends neither the credential's token calls (the client is
 * created on its first call) nor the service's rate limit.
 *
 * Two kinds of call:
 *  - a payment attempt: a payin created (a mobile money prompt, a dynamic
 *    account, a card charge, an EFT payment), counted per visitor, per page
 *    and per target, and also as a service call;
 *  - a service call: anything else (reading a checkout's payins, a PIN or
 *    OTP sent on), counted per visitor and per page.
 *
 * Each bound is a token bucket: N a minute, a burst of N, one back every
 * 60/N seconds. Per n8n process (n8n gives a community node no store shared
 * between processes): with k webhook processes the page's bounds are k times
 * these. The memory is bounded: at most MAX_KEYS visitors and targets (the
 * longest unused go first; one that is dropped comes back with a full
 * bucket, the page's bound still holds) and MAX_PAGES pages.
 */

/** Per minute. Builders change them in the node's Options (properties.ts, which takes their defaults and names from here). */
export interface DoorLimits {
	attemptsPerVisitor: number;
	attemptsPerTarget: number;
	attemptsPerPage: number;
	callsPerVisitor: number;
	callsPerPage: number;
}

export const DEFAULT_LIMITS: DoorLimits = {
	attemptsPerVisitor: 3,
	attemptsPerTarget: 2,
	attemptsPerPage: 30,
	callsPerVisitor: 120,
	callsPerPage: 600,
};

/** The highest a builder may set (a bucket is kept in a number of tokens; no bound is "off"). */
export const MAX_LIMIT = 100_000;

export const MAX_KEYS = 20_000;
export const MAX_PAGES = 1_000;

/** Which bound refused: the buyer is told which (the page, their connection, or the phone/e-mail). */
export type BoundKind = 'page' | 'visitor' | 'target';

/** A call over a bound, refused before it reached the service. */
export class DoorClosed extends Error {
	constructor(
		readonly retryAfterSeconds: number,
		readonly kind: BoundKind,
	) {
		super(`Payment Page bound reached (${kind}): try again in ${retryAfterSeconds} s`);
	}
}

interface Bucket {
	tokens: number;
	at: number;
}

/** The buckets of one process: visitors and targets in one bounded map, pages in another. */
export class DoorBuckets {
	private readonly keys: BoundedMap<string, Bucket>;
	private readonly pages: BoundedMap<string, Bucket>;

	constructor(
		readonly now: () => number,
		maxKeys = MAX_KEYS,
		maxPages = MAX_PAGES,
	) {
		this.keys = new BoundedMap(maxKeys);
		this.pages = new BoundedMap(maxPages);
	}

	get size(): number {
		return this.keys.size + this.pages.size;
	}

	/**
	 * Takes one token from each bucket, or none: when one has less than one
	 * token, nothing is taken and the DoorClosed returned says when the
	 * slowest of the refusing buckets has one again.
	 */
	take(wanted: Array<{ key: string; perMinute: number; kind: BoundKind; page?: boolean }>): DoorClosed | undefined {
		const now = this.now();
		const filled = wanted.map((w) => {
			const map = w.page ? this.pages : this.keys;
			const b = map.get(w.key);
			const elapsed = b ? Math.max(0, now - b.at) : 0;
			const tokens = b ? Math.min(w.perMinute, b.tokens + (elapsed * w.perMinute) / 60_000) : w.perMinute;
			return { ...w, map, tokens };
		});
		const short = filled.filter((f) => f.tokens < 1);
		if (short.length > 0) {
			const waits = short.map((f) => ({ kind: f.kind, ms: ((1 - f.tokens) * 60_000) / f.perMinute }));
			const longest = waits.reduce((a, b) => (b.ms > a.ms ? b : a));
			return new DoorClosed(Math.max(1, Math.ceil(longest.ms / 1000)), longest.kind);
		}
		for (const f of filled) {
			// Deleted first: a key in use becomes the newest, the longest unused go first.
			f.map.delete(f.key);
			f.map.set(f.key, { tokens: f.tokens - 1, at: now });
		}
		return undefined;
	}
}

/** Who is asking: the page (workflow and node) and the visitor's address. */
export interface Door {
	page: string;
	visitor: string;
	limits: DoorLimits;
}

/**
 * The visitor's address as n8n gives it (Express's req.ip): the connection's
 * peer, or, when n8n runs behind a proxy and N8N_PROXY_HOPS says how many,
 * the address that proxy saw. X-Forwarded-For is never read here: its
 * left-most entries are whatever the client wrote. IPv4 in IPv6 form is read
 * as IPv4; an IPv6 address counts by its /64 (one subscriber's block, which
 * its holder can change at will).
 */
export function visitorOf(ip: unknown): string {
	let a = typeof ip === 'string' ? ip.trim().toLowerCase() : '';
	if (a === '') return 'unknown';
	if (a.startsWith('::ffff:') && a.includes('.')) a = a.slice(7);
	if (!a.includes(':')) return a;
	const [head, tail = ''] = a.split('::');
	const left = head === '' ? [] : head.split(':');
	const right = tail === '' ? [] : tail.split(':');
	const groups = a.includes('::') ? [...left, ...new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
	return `${groups
		.slice(0, 4)
		.map((g) => g.replace(/^0+(?=.)/, ''))
		.join(':')}::/64`;
}

/** The calls that create a payin, each a payment attempt (exact paths, POST): the payin call of every registered method. */
const ATTEMPT_PATHS = new Set<string>(PAGE_METHODS.map((m) => m.call.path));

export function isAttempt(opts: Pick<RequestOptions, 'method' | 'path'>): boolean {
	return opts.method === 'POST' && ATTEMPT_PATHS.has(opts.path);
}

/**
 * The targets a payin names: its customer's phone (digits only) and e-mail
 * (lower case). A card number never reaches n8n (it is encrypted in the
 * buyer's browser): a card is bounded through its visitor, its page and the
 * e-mail it is charged for.
 */
export function targetsOf(body: IDataObject | undefined): string[] {
	const customer = (body?.customer ?? {}) as IDataObject;
	const out: string[] = [];
	const phone = String(customer.phone ?? body?.customerPhone ?? '').replace(/\D/g, '');
	if (phone) out.push(`phone:${phone}`);
	const email = String(customer.email ?? body?.customerEmail ?? '')
		.trim()
		.toLowerCase();
	if (email) out.push(`email:${email}`);
	return out;
}

/** Takes what one call costs at `door`, or nothing and the DoorClosed of the bound reached. */
export function admit(buckets: DoorBuckets, door: Door, call: { attempt: boolean; targets?: string[] }): DoorClosed | undefined {
	const l = door.limits;
	const v = `${door.page}|v|${door.visitor}`;
	const wanted: Parameters<DoorBuckets['take']>[0] = [
		{ key: door.page, perMinute: l.callsPerPage, kind: 'page', page: true },
		{ key: `${v}|call`, perMinute: l.callsPerVisitor, kind: 'visitor' },
	];
	if (call.attempt) {
		wanted.push(
			{ key: `${door.page}|attempt`, perMinute: l.attemptsPerPage, kind: 'page', page: true },
			{ key: `${v}|attempt`, perMinute: l.attemptsPerVisitor, kind: 'visitor' },
			...(call.targets ?? []).map((t) => ({ key: `${door.page}|t|${t}`, perMinute: l.attemptsPerTarget, kind: 'target' as const })),
		);
	}
	return buckets.take(wanted);
}

/**
 * One request's door: the page's client bounded at it (every call admitted,
 * or refused with DoorClosed, before it is sent; a paged read counts one
 * call per page it may read), and the refusal, if any. The request's steps
 * may wrap the error they see (DoorClosed need not reach serve.ts as
 * itself): `closed` is what serve.ts answers by.
 */
export class BoundedDoor {
	closed?: DoorClosed;

	constructor(
		private readonly buckets: DoorBuckets,
		private readonly door: Door,
	) {}

	private admit(call: { attempt: boolean; targets?: string[] }): void {
		const closed = admit(this.buckets, this.door, call);
		if (!closed) return;
		this.closed ??= closed;
		throw closed;
	}

	client(client: PayOnUsClient): PayOnUsClient {
		return {
			environment: client.environment,
			defaults: client.defaults,
			request: async (opts) => {
				const attempt = isAttempt(opts);
				this.admit({ attempt, targets: attempt ? targetsOf(opts.body) : [] });
				return await client.request(opts);
			},
			paginate: async (opts) => {
				for (let i = 0; i < Math.max(1, opts.maxPages ?? 1); i++) this.admit({ attempt: false });
				return await client.paginate(opts);
			},
		};
	}
}

/** The limits a page's Options set (each a whole number from 1 to MAX_LIMIT; unset: the default). */
export function limitsOf(options: IDataObject): DoorLimits | string {
	const out = { ...DEFAULT_LIMITS };
	for (const name of Object.keys(DEFAULT_LIMITS) as Array<keyof DoorLimits>) {
		if (!(name in options)) continue;
		const value = options[name];
		const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
		if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT)
			return `Options > ${LIMIT_NAMES[name]} must be a whole number from 1 to ${MAX_LIMIT} (it is ${JSON.stringify(value)})`;
		out[name] = n;
	}
	return out;
}

/** The options' display names (properties.ts shows them; the messages name them). */
export const LIMIT_NAMES: Record<keyof DoorLimits, string> = {
	attemptsPerVisitor: 'Limit: Payment Attempts per Visitor per Minute',
	attemptsPerTarget: 'Limit: Payment Attempts per Phone or Email per Minute',
	attemptsPerPage: 'Limit: Payment Attempts per Page per Minute',
	callsPerVisitor: 'Limit: Service Calls per Visitor per Minute',
	callsPerPage: 'Limit: Service Calls per Page per Minute',
};

/** The process's buckets, on the page's clock. */
export const DOOR_BUCKETS = new DoorBuckets(() => clock.now());
