import type { IDataObject } from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { fetchPage, LISTS, recordsOf } from './lists';
import { PATHS } from './paths';

/**
 * Typed reads of the service: one record by its key, and the reference data
 * (wallets, banks, networks). None moves money; the name enquiry is a POST
 * that only reads. A record found through a list filter counts only when its
 * key matches (filters are checked here, never trusted).
 */

/** One payin by its onusReference, through the per-business status query (null: none). */
export async function getPayment(client: PayOnUsClient, businessId: string, onusReference: string): Promise<IDataObject | null> {
	return await client.request<IDataObject | null>({
		method: 'GET',
		path: PATHS.paymentRequestOfBusiness(businessId),
		qs: { onusReference },
	});
}

/** The payin holding this onusReference, from the payment list's documented filter (one page). */
export async function findPayment(client: PayOnUsClient, onusReference: string, pageSize = 20): Promise<IDataObject | undefined> {
	const records = await fetchPage(client, LISTS.payments, { onusReference }, pageSize);
	return records.find((r) => r.onusReference === onusReference);
}

/**
 * The transfer holding this onusReference among the merchant's transfers.
 * `pageSize` omitted: the filtered query is sent without a page query (the
 * service's default page).
 */
export async function findTransfer(
	client: PayOnUsClient,
	merchantId: string,
	onusReference: string,
	pageSize?: number,
): Promise<IDataObject | undefined> {
	const qs = { merchantId, onusReference };
	const records =
		pageSize === undefined
			? recordsOf(await client.request<unknown>({ method: 'GET', path: LISTS.transfers.path, qs }))
			: await fetchPage(client, LISTS.transfers, qs, pageSize);
	return records.find((r) => r.onusReference === onusReference);
}

/** One card tokenization link by its id. */
export async function getLink(client: PayOnUsClient, businessId: string, linkId: string): Promise<IDataObject> {
	return await client.request<IDataObject>({ method: 'GET', path: PATHS.link(linkId), qs: { businessId } });
}

/** One card tokenization link by its merchant reference. */
export async function getLinkByReference(client: PayOnUsClient, businessId: string, merchantReference: string): Promise<IDataObject> {
	return await client.request<IDataObject>({
		method: 'GET',
		path: PATHS.linkByReference(merchantReference),
		qs: { businessId },
	});
}

/** A link as the merchant's link search shows it (its items carry cardTokenId), or undefined. */
export async function findLink(client: PayOnUsClient, merchantId: string, linkId: string, pageSize = 5): Promise<IDataObject | undefined> {
	const records = await fetchPage(client, LISTS.links, { merchantId, id: linkId }, pageSize);
	return records.find((l) => String(l.id) === linkId);
}

/** A card token as the merchant's token search shows it (deleted tokens are not listed), or undefined. */
export async function findCardToken(client: PayOnUsClient, merchantId: string, cardTokenId: string, pageSize = 5): Promise<IDataObject | undefined> {
	const records = await fetchPage(client, LISTS.storedCards, { merchantId, id: cardTokenId }, pageSize);
	return records.find((t) => String(t.id) === cardTokenId);
}

/** The merchant's wallets (one per business and currency). */
export async function listWallets(client: PayOnUsClient, merchantId: string): Promise<IDataObject[]> {
	return recordsOf(await client.request<unknown>({ method: 'GET', path: PATHS.merchantWallets(merchantId) }));
}

/** The banks that receive payouts in a currency ({ code, name }). */
export async function listBanks(client: PayOnUsClient, currency: string): Promise<IDataObject[]> {
	return recordsOf(await client.request<unknown>({ method: 'GET', path: PATHS.banks, qs: { key: currency } }));
}

/** The South African banks of EFT payins and payouts ({ code, name }). */
export async function listEftBanks(client: PayOnUsClient): Promise<IDataObject[]> {
	return recordsOf(await client.request<unknown>({ method: 'GET', path: PATHS.eftBanks }));
}

export interface NetworkFilters {
	currency?: string;
	countryCode?: string;
}

/** The mobile money networks ({ code, name, currency, countryCode, otpRequired, initiatingCodeRequired }), filtered by the service. */
export async function listMobileMoneyNetworks(client: PayOnUsClient, filters: NetworkFilters = {}): Promise<IDataObject[]> {
	const qs: IDataObject = {};
	if (filters.currency) qs.currency = filters.currency;
	if (filters.countryCode) qs.countryCode = filters.countryCode;
	return recordsOf(
		await client.request<unknown>({
			method: 'GET',
			path: PATHS.mobileMoneyNetworks,
			...(Object.keys(qs).length > 0 ? { qs } : {}),
		}),
	);
}

export interface NameEnquiryResult extends IDataObject {
	accountNumber?: string;
	accountName?: string;
	bankCode?: string;
	bankName?: string;
}

/** Who owns a bank account (a POST that moves no money). */
export async function enquireName(
	client: PayOnUsClient,
	body: { institutionCode: string; accountNumber: string; businessId: string; currency: string },
): Promise<NameEnquiryResult> {
	return await client.request<NameEnquiryResult>({ method: 'POST', path: PATHS.nameEnquiry, body });
}
