import type { PayOnUsClient } from '../../../shared/clientInterface';
import { orCredentialDefault } from '../../../shared/credential/defaults';
import { PayOnUsInputError } from '../types';

/**
 * Pieces shared by the payout operations: the merchant the transfer list
 * needs (the credential's default when the operation has no Merchant ID
 * field) and the beneficiary-name comparison. The lookup of a transfer by
 * its reference is shared/moneyMoving/lookup.ts (the same for payins and payouts).
 */

export function resolveMerchantId(client: PayOnUsClient, given: string | undefined, why: string): string {
	const id = orCredentialDefault(given, client.defaults, 'merchantId');
	if (!id) {
		throw new PayOnUsInputError(
			'merchantId',
			`is required ${why}: set a Default Merchant ID in the PayOnUs API credential`,
		);
	}
	return id;
}

/**
 * Beneficiary-name rule: two names match when they are equal after
 * lower-casing, trimming and collapsing every run of white space to one
 * space. Nothing else is forgiven (no reordering, no initials, no
 * punctuation), because a near miss on a payout name is what the check is
 * for.
 */
export function normaliseName(name: string): string {
	return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

export function namesMatch(a: string, b: string): boolean {
	return normaliseName(a) === normaliseName(b);
}
