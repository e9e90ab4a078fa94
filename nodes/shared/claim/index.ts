import type { IDataObject } from 'n8n-workflow';
import { readPersistedKeys, SeenRegistry, type Decision, type SeenKeys, type SeenWindow } from './memory';

export { readPersistedKeys, SeenKeys, SeenRegistry, serviceTime } from './memory';
export type { Decision, PersistedKey, SeenWindow } from './memory';

/**
 * One claim/dedupe mechanism for the webhook nodes: a key (a notification's
 * signed fields, a checkout reference) is claimed before the workflow is
 * started, so that of several copies one starts it.
 *
 * - Scope: one memory per (workflow, node, mode) in each registry.
 * - Carried over: on opening, what static data carried (the newest keys and
 *   the horizon) is merged into the in-process memory (memory.ts).
 * - Claim: synchronous (check and record in one step, no await between), so
 *   in one process exactly one of any number of concurrent copies wins.
 * - Keep: the newest keys (dated with the service's record date when known)
 *   and the horizon are written to static data under the node's field names.
 * - Release: a claim given up (the run could not be stored, the event was not
 *   confirmed) is forgotten, so a later copy may claim the key again.
 * - Horizon: for a key the memory does not hold, the service's date of its
 *   record decides whether it may have been handled already (`decide`).
 *
 * Test URL requests (mode `manual`) keep their own memory and never read or
 * write static data. Time is always an argument: each node injects its clock.
 */

/** Where a node keeps its newest keys in static data. The names are public: saved workflows carry them. */
export interface KeptIn {
	/** The field holding the newest keys (e.g. `seenEvents`). */
	keys: string;
	/** The field holding the horizon of the keys left out (e.g. `seenHorizon`). */
	horizon: string;
	/** How many of the newest keys are written. */
	newest: number;
}

export interface ClaimOptions {
	/**
	 * How long and how many keys the memory holds. Taken by reference: a
	 * memory created later sees the bounds as they are then (tests shrink them).
	 */
	window: SeenWindow;
	/** Kept in the workflow's static data too; without it, in process only (the trigger's held events). */
	keptIn?: KeptIn;
}

/** Whose memory: one per workflow, node and mode (`manual` is the Test URL). */
export interface ClaimScope {
	workflowId: string | undefined;
	nodeId: string;
	mode: string;
}

/** The outcome of `claimAndKeep`: claimed, or not, with why when the horizon refused it. */
export type ClaimResult = { claimed: true } | { claimed: false; reason?: string };

/** The claims of one request on one scope's memory (and, outside test mode, its static data). */
export class Claims {
	constructor(
		private readonly memory: SeenKeys,
		private readonly staticData: IDataObject | undefined,
		private readonly keptIn: KeptIn | undefined,
		now: number,
	) {
		if (staticData && keptIn) memory.merge(readPersistedKeys(staticData[keptIn.keys]), now, staticData[keptIn.horizon]);
	}

	/** Whether the key is claimed already (within the window): a repeat. */
	has(key: string, now: number): boolean {
		return this.memory.has(key, now);
	}

	/** Claims the key, synchronously: true for the one copy that goes on, false for a repeat. Not kept yet. */
	claim(key: string, now: number): boolean {
		return this.memory.checkAndAdd(key, now);
	}

	/** For a key not held: may its record (created `date`) have been handled already? */
	decide(date: unknown): Decision {
		return this.memory.decide(date);
	}

	/** Dates a claimed key with its record's date (when given) and writes the newest keys and the horizon to static data. */
	keep(key: string, date?: unknown): void {
		this.memory.setDate(key, date);
		if (!this.staticData || !this.keptIn) return;
		this.staticData[this.keptIn.keys] = this.memory.newest(this.keptIn.newest);
		const horizon = this.memory.horizonBeyond(this.keptIn.newest);
		if (horizon !== undefined) this.staticData[this.keptIn.horizon] = horizon;
	}

	/** Gives a claim up: a later copy may claim the key again. */
	release(key: string): void {
		this.memory.forget(key);
	}

	/** Claims the key afresh: its window starts again now. */
	reclaim(key: string, now: number): void {
		this.memory.forget(key);
		this.memory.checkAndAdd(key, now);
	}

	/**
	 * The whole sequence where the record is known before the claim: not a
	 * repeat; when its date is given (`null`: the record has none), created
	 * after the horizon; then claimed and kept at once.
	 */
	claimAndKeep(key: string, now: number, date?: unknown): ClaimResult {
		if (this.memory.has(key, now)) return { claimed: false };
		if (date !== undefined) {
			const decision = this.memory.decide(date);
			if (decision.known) return { claimed: false, reason: decision.reason };
		}
		if (!this.memory.checkAndAdd(key, now)) return { claimed: false };
		this.keep(key, date);
		return { claimed: true };
	}
}

/** A node's process-wide memories (one per scope) and how they are kept. */
export class ClaimRegistry {
	private readonly memories: SeenRegistry;

	constructor(
		private readonly options: ClaimOptions,
		maxScopes?: number,
	) {
		this.memories = new SeenRegistry(maxScopes);
	}

	/**
	 * The claims of one request. `staticData` is read only where keys are
	 * kept and the mode is not `manual`; what it carried is merged at once.
	 */
	open(scope: ClaimScope, now: number, staticData?: () => IDataObject): Claims {
		const keptIn = scope.mode === 'manual' ? undefined : this.options.keptIn;
		return new Claims(this.memory(scope), keptIn && staticData ? staticData() : undefined, keptIn, now);
	}

	/** Gives a claim up outside a request (static data untouched). */
	release(scope: ClaimScope, key: string): void {
		this.memory(scope).forget(key);
	}

	private memory(scope: ClaimScope): SeenKeys {
		return this.memories.for(`${scope.workflowId ?? ''}:${scope.nodeId}:${scope.mode}`, this.options.window);
	}

	/** Forgets every scope (tests: a restart). */
	clear(): void {
		this.memories.clear();
	}
}
