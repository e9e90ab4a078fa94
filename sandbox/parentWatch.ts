/**
 * Stops a long-running command when the process that started it is gone.
 *
 * `npm start` and `npm run sandbox` run their command through `sh -c`. On a
 * SIGTERM (`docker stop`, systemd, a process manager) npm forwards the signal
 * to that shell, which dies without passing it on: the command would keep
 * n8n and the sandbox running with nobody left to stop them. An orphan is
 * re-parented, so its parent process id changes; that change is the signal.
 */
import { realTimers, type Timers } from './timers';

export interface ParentWatchOptions {
	/** How often the parent is looked at (ms). */
	everyMs?: number;
	/** The current parent process id (tests inject it). */
	ppid?: () => number;
	timers?: Timers;
}

/** Calls `onGone` once, when this process's parent changes; returns a function that stops watching. */
export function whenParentGone(onGone: () => void, options: ParentWatchOptions = {}): () => void {
	const ppid = options.ppid ?? (() => process.ppid);
	const timers = options.timers ?? realTimers;
	const everyMs = options.everyMs ?? 1000;
	const parent = ppid();
	let handle: unknown;
	let watching = true;
	const arm = (): void => {
		handle = timers.set(look, everyMs);
		// never what keeps the process alive
		(handle as { unref?: () => void } | undefined)?.unref?.();
	};
	const look = (): void => {
		if (!watching) return;
		if (ppid() === parent) return arm();
		watching = false;
		onGone();
	};
	arm();
	return () => {
		watching = false;
		timers.clear(handle);
	};
}
