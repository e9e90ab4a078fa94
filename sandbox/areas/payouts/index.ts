/**
 * Payouts: bank lists, name enquiry, single and bulk transfers (PENDING, then
 * SUCCESSFUL or FAILED after a short delay, or held until settled by the
 * control API) and the transfer search. Refunds are in ../refunds.ts.
 */
import type { Router } from '../../router';
import { listBanks, nameEnquiry } from './banks';
import { bulkTransfer } from './bulk';
import { searchTransfers } from './search';
import { initiateTransfer } from './transfer';

export function registerPayouts(router: Router): void {
	router.add('GET', '/api/v1/banks', listBanks);
	router.add('POST', '/api/v1/transfer-requests/name-enquiry', nameEnquiry);
	router.add('POST', '/api/v1/transfer-requests/bank-transfer', initiateTransfer);
	router.add('POST', '/api/v1/transfer-requests/bulk/bank-transfer', bulkTransfer);
	router.add('GET', '/api/v1/transfer-requests', searchTransfers);
}
