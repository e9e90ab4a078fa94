import { systemClock, type Clock } from '../shared/clock';

/** The PayOnUs Trigger's clock: its memory of events, the age of its credential reads (tests move it). */
export const clock: Clock = systemClock();
