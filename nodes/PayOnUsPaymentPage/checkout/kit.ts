import type { StepKit } from '../methods/types';
import { createOnce } from './adopt';
import { nextView } from './nextView';
import { current } from './refresh';

/** The checkout's moves lent to every method's steps (../methods/types.ts StepKit). */
export const STEP_KIT: StepKit = { createOnce, current, nextView };
