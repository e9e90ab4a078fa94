/**
 * The operations of the Wallet resource: one line each, alphabetical by file.
 * (The resource itself is declared in ../index.ts.)
 */
export { listWallets } from './listWallets';
