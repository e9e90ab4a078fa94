import type { PayOnUsOperation } from '../types';
import { createLinkOperation } from './createLink';
import { deleteTokenOperation } from './deleteToken';
import { getLinkOperation } from './getLink';
import { searchLinksOperation } from './searchLinks';
import { searchTokensOperation } from './searchTokens';

/** Operations of the "cardTokenization" resource, in the order the node lists them. */
export const operations: PayOnUsOperation[] = [
	createLinkOperation,
	getLinkOperation,
	searchLinksOperation,
	searchTokensOperation,
	deleteTokenOperation,
];
