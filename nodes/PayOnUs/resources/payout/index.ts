/**
 * The operations of the Payout resource: one line each, alphabetical by file.
 * (The node lists them alphabetically by name in its dropdown, whatever this
 * order; the resource itself is declared in ../index.ts.)
 */
export { bulkTransfer } from './bulkTransfer';
export { createTransfer } from './createTransfer';
export { getTransfer } from './getTransfer';
export { listBanks } from './listBanks';
export { nameEnquiry } from './nameEnquiry';
export { searchTransfers } from './searchTransfers';
