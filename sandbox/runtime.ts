/**
 * The running sandbox: state, timers (asynchronous outcomes), the webhook
 * dispatcher and the fault table. One instance per server.
 */
import type { SeedConfig } from './config';
import { FaultTable } from './faults';
import { processDueCredits } from './settlement';
import { SandboxState } from './store';
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
	private timers = new Set<NodeJS.Timeout>();
	private stopped = false;

	constructor(seed?: SeedConfig, profiles: readonly ProfileName[] = []) {
		this.state = new SandboxState(seed);
		this.profiles = new Profiles(profiles);
		this.webhooks = new WebhookDispatcher(this);
	}

	/** Runs `fn` after `ms` real milliseconds unless the sandbox is reset or stopped first. */
	later(ms: number, fn: () => void): void {
		if (this.stopped) return;
		const t = setTimeout(() => {
			this.timers.delete(t);
			try {
				fn();
			} catch (error) {
				console.error('[sandbox] timer failed', error);
			}
		}, Math.max(0, ms));
		this.timers.add(t);
	}

	/** Work due by the sandbox clock (delayed wallet credits). Called on every request and after clock moves. */
	tick(): void {
		if (this.state.pendingCredits.length > 0) processDueCredits(this.state);
	}

	reset(seed?: SeedConfig): void {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.faults.clear();
		this.webhooks.reset();
		this.state.load(seed ?? this.state.seed);
	}

	stop(): void {
		this.stopped = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.webhooks.reset();
	}
}
