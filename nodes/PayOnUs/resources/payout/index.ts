import type { PayOnUsOperation } from '../types';
import { bulkTransferOperation } from './bulkTransfer';
import { createTransferOperation } from './createTransfer';
import { getTransferOperation } from './getTransfer';
import { listBanksOperation } from './listBanks';
import { nameEnquiryOperation } from './nameEnquiry';
import { searchTransfersOperation } from './searchTransfers';

/** Operations of the "payout" resource, in the order the node lists them. */
export const operations: PayOnUsOperation[] = [
	createTransferOperation,
	bulkTransferOperation,
	nameEnquiryOperation,
	getTransferOperation,
	searchTransfersOperation,
	listBanksOperation,
];
