import type { PayOnUsOperation } from '../types';
import { listWallets } from './listWallets';

/** Operations of the "wallet" resource, in the order the node lists them. */
export const operations: PayOnUsOperation[] = [listWallets] as PayOnUsOperation[];
