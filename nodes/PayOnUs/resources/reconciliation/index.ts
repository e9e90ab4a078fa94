import type { PayOnUsOperation } from '../types';
import { reconcileOperation } from './reconcile';

export const operations: PayOnUsOperation[] = [reconcileOperation as PayOnUsOperation];
