import { systemClock, type Clock } from '../shared/clock';

/** The Payment Page's clock: its memory of emitted checkouts, its door buckets, its rendering (tests move it). */
export const clock: Clock = systemClock();
