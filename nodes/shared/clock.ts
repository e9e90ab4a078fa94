/**
 * Time as a node reads it: milliseconds since the epoch. Each webhook-side
 * node has one clock, `clock` in its own clock.ts; every step of the node
 * reads time from it, and tests move time by replacing its `now`.
 */
export interface Clock {
	now(): number;
}

/** A clock reading the system's time. */
export function systemClock(): Clock {
	return { now: () => Date.now() };
}
