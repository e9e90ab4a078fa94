import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../shared/clientInterface';
import { confirmLink } from './delivery';
import { isNotFound, readTokenizationLink } from './service';

/**
 * "Confirm Tokenization Through the API": a card tokenization notification
 * (not signed by PayOnUs) is confirmed by reading its link back. A link the
 * service does not have (404) marks a made-up notification (`forged`);
 * any other failure is "could not read", never a confirmation.
 */

export interface TokenizationVerdict {
	confirmed: boolean;
	reason?: string;
	/** False when the card token could not be compared (no Merchant ID to search links with). */
	tokenChecked?: boolean;
	/** PayOnUs has no such link for that business. */
	forged?: boolean;
}

export async function confirmTokenization(
	client: PayOnUsClient,
	body: IDataObject,
	merchantId: string | undefined,
): Promise<TokenizationVerdict> {
	const linkId = body.cardTokenizationLinkId as string;
	const businessId = String(body.businessId ?? '');
	try {
		const link = await readTokenizationLink(client, linkId, businessId, merchantId);
		return confirmLink(body, link, { tokenOptional: !merchantId });
	} catch (error) {
		return unreadable(error);
	}
}

/** The verdict when the link (or the client to read it with) could not be had. */
export function unreadable(error: unknown): TokenizationVerdict {
	if (isNotFound(error)) return { confirmed: false, reason: 'link not found', forged: true };
	return { confirmed: false, reason: `could not read the link through the API (${(error as Error).message})` };
}
