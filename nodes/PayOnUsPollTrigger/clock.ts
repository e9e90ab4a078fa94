import { systemClock, type Clock } from '../shared/clock';

/** The PayOnUs Poll Trigger's clock: where a poll reads "today", in UTC days (tests move it). */
export const clock: Clock = systemClock();
