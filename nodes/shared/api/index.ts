/**
 * The payments service's API surface, written once: endpoints (paths.ts),
 * lists and their paging (lists.ts, paging.ts), typed reads (reads.ts) and
 * the customer steps of a payin (steps.ts). The lookup by merchant reference
 * behind every money-moving call is part of that contract: ../moneyMoving/.
 */
export * from './paths';
export * from './paging';
export * from './lists';
export * from './reads';
export * from './steps';
