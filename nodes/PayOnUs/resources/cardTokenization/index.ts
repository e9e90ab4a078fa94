/**
 * The operations of the Card Tokenization resource: one line each,
 * alphabetical by file. (The node lists them alphabetically by name in its
 * dropdown, whatever this order; the resource itself is declared in ../index.ts.)
 */
export { createLink } from './createLink';
export { deleteToken } from './deleteToken';
export { getLink } from './getLink';
export { searchLinks } from './searchLinks';
export { searchTokens } from './searchTokens';
