/**
 * Fault injection per endpoint, set at run time by POST /_sandbox/faults.
 * A fault matches on method (optional) and path (a prefix, or a pattern where
 * `*` matches any characters); when it fires it can add latency, answer an
 * error status before processing, or process the request and then destroy the
 * socket without answering (dropAfterProcessing). Firing is decided by
 * `every` (every Nth matching request, deterministic), or `rate` with a seeded
 * PRNG (`seed`, deterministic for a given seed), and stops after `times` fires.
 */
import { ApiError } from './errors';

export interface FaultSpec {
	method?: string;
	path: string;
	status?: number;
	message?: string;
	rate?: number;
	every?: number;
	seed?: number;
	latencyMs?: number;
	dropAfterProcessing?: boolean;
	dropBeforeProcessing?: boolean;
	times?: number;
}

export interface Fault extends FaultSpec {
	id: number;
	matched: number;
	fired: number;
	rngState: number;
	regex: RegExp | null;
}

export interface FaultDecision {
	id: number;
	latencyMs: number;
	status?: number;
	message?: string;
	dropAfter: boolean;
	dropBefore: boolean;
}

/** mulberry32: small seeded PRNG so rate-based drills are reproducible. */
function nextRandom(f: Fault): number {
	f.rngState = (f.rngState + 0x6d2b79f5) | 0;
	let t = f.rngState;
	t = Math.imul(t ^ (t >>> 15), t | 1);
	t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export class FaultTable {
	private faults: Fault[] = [];
	private nextId = 0;

	add(spec: FaultSpec): Fault {
		if (typeof spec.path !== 'string' || spec.path === '') throw new ApiError(400, 'path is required', ['path: is required']);
		if (spec.status !== undefined && (!Number.isInteger(spec.status) || spec.status < 400 || spec.status > 599)) {
			throw new ApiError(400, 'status must be an HTTP error status 400-599', ['status: must be 400-599']);
		}
		if (spec.rate !== undefined && !(spec.rate >= 0 && spec.rate <= 1)) {
			throw new ApiError(400, 'rate must be between 0 and 1', ['rate: must be between 0 and 1']);
		}
		if (spec.every !== undefined && !(Number.isInteger(spec.every) && spec.every >= 1)) {
			throw new ApiError(400, 'every must be an integer >= 1', ['every: must be an integer >= 1']);
		}
		if (spec.status === undefined && !spec.latencyMs && !spec.dropAfterProcessing && !spec.dropBeforeProcessing) {
			throw new ApiError(400, 'a fault needs status, latencyMs, dropAfterProcessing or dropBeforeProcessing', [
				'status: one of status, latencyMs, dropAfterProcessing, dropBeforeProcessing is required',
			]);
		}
		let path = spec.path;
		if (!path.startsWith('/api/') && !path.startsWith('*')) path = `/api/v1${path.startsWith('/') ? '' : '/'}${path}`;
		const regex = path.includes('*')
			? new RegExp('^' + path.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$')
			: null;
		const fault: Fault = {
			...spec,
			method: spec.method?.toUpperCase(),
			path,
			id: ++this.nextId,
			matched: 0,
			fired: 0,
			rngState: spec.seed ?? 1,
			regex,
		};
		this.faults.push(fault);
		return fault;
	}

	list(): Array<Omit<Fault, 'regex' | 'rngState'>> {
		return this.faults.map(({ regex: _r, rngState: _s, ...rest }) => rest);
	}

	clear(): void {
		this.faults = [];
	}

	get size(): number {
		return this.faults.length;
	}

	/** The first fault that fires for this request, if any. */
	decide(method: string, path: string): FaultDecision | undefined {
		for (const f of this.faults) {
			if (f.method && f.method !== method) continue;
			if (f.regex ? !f.regex.test(path) : !path.startsWith(f.path)) continue;
			if (f.times !== undefined && f.fired >= f.times) continue;
			f.matched++;
			let fire: boolean;
			if (f.every !== undefined) fire = f.matched % f.every === 0;
			else fire = nextRandom(f) < (f.rate ?? 1);
			if (!fire) continue;
			f.fired++;
			return {
				id: f.id,
				latencyMs: f.latencyMs ?? 0,
				status: f.status,
				message: f.message,
				dropAfter: f.dropAfterProcessing === true,
				dropBefore: f.dropBeforeProcessing === true,
			};
		}
		return undefined;
	}
}
