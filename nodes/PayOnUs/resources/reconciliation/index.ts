/**
 * The operations of the Reconciliation resource: one line each, alphabetical
 * by file. (The resource itself is declared in ../index.ts.)
 */
export { reconcile } from './reconcile';
