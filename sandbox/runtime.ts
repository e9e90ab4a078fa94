/**
 * The running sandbox: state, timers (asynchronous outcomes), the webhook
 * dispatcher and the fault table. One instance per server.
 */
import type { SeedConfig } from './config';
import { FaultTable } from './faults';
import { processDueCredits } from './settlement';
import { SandboxState } from './store';
import { realTimers, type Timers } from './timers';
import { WebhookDispatcher } from './webhooks';
import { Profiles, type ProfileName } from './profiles';

export class Sandbox {
	readonly state: SandboxState;
	readonly faults = new FaultTable();
	readonly webhooks: WebhookDispatcher;
	/** Behaviour profiles (profiles.ts); kept across resets. */
	readonly profiles: Profiles;
	/** Base URL the server listens on (set once listening). */
	baseUrl = '';
	/** Pending timers, each with the function that settles its `idle()` promise. */
	private timers = new Map<unknown, () => void>();
	private work = new Set<Promise<void>>();
	private stopped = false;

	constructor(
		seed?: SeedConfig,
		profiles: readonly ProfileName[] = [],
		private readonly clockTimers: Timers = realTimers,
	) {
		this.state = new SandboxState(seed);
		this.profiles = new Profiles(profiles);
		this.webhooks = new WebhookDispatcher(this);
	}

	/** Runs `fn` after `ms` milliseconds (real, or as the injected timers move) unless the sandbox is reset or stopped first. */
	later(ms: number, fn: () => void): void {
		if (this.stopped) return;
		let settle!: () => void;
		const settled = new Promise<void>((resolve) => (settle = resolve));
		this.work.add(settled);
		const done = () => {
			this.work.delete(settled);
			settle();
		};
		const handle = this.clockTimers.set(() => {
			this.timers.delete(handle);
			try {
				fn();
			} catch (error) {
				console.error('[sandbox] timer failed', error);
			} finally {
				done();
			}
		}, Math.max(0, ms));
		this.timers.set(handle, done);
	}

	/**
	 * Resolves once nothing is left to happen on its own: every pending timer
	 * has run (or was cleared) and every webhook delivery has been answered.
	 * Tests await it instead of sleeping; with injected timers that are not
	 * moved on, it waits for them.
	 */
	async idle(): Promise<void> {
		for (;;) {
			const pending = [...this.work, ...this.webhooks.inFlight()];
			if (pending.length === 0) return;
			await Promise.all(pending);
		}
	}

	private clearTimers(): void {
		for (const [handle, done] of this.timers) {
			this.clockTimers.clear(handle);
			done();
		}
		this.timers.clear();
	}

	/** Work due by the sandbox clock (delayed wallet credits). Called on every request and after clock moves. */
	tick(): void {
		if (this.state.pendingCredits.length > 0) processDueCredits(this.state, this.profiles.has('updated-date-moves-later'));
	}

	reset(seed?: SeedConfig): void {
		this.clearTimers();
		this.faults.clear();
		this.webhooks.reset();
		this.state.load(seed ?? this.state.seed);
	}

	stop(): void {
		this.stopped = true;
		this.clearTimers();
		this.webhooks.reset();
	}
}
