import type { PayOnUsOperation } from '../types';

/** Operations of the "payin" resource, in the order the node lists them. */
export const operations: PayOnUsOperation[] = [];
