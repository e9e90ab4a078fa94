import type { PayOnUsOperation } from '../types';

/** Operations of the "wallet" resource, in the order the node lists them. */
export const operations: PayOnUsOperation[] = [];
