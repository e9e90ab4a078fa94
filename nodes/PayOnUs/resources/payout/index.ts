import type { PayOnUsOperation } from '../types';

/** Operations of the "payout" resource, in the order the node lists them. */
export const operations: PayOnUsOperation[] = [];
