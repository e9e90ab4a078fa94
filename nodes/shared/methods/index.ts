import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import type { PayOnUsClient } from '../clientInterface';
import { keepUnchosen, pickFirst, waitFor, withClient } from './waiting';
import { orCredentialDefault } from '../credential/defaults';
import * as api from '../api';
import { CURRENCIES } from '../validation';

/**
 * Dropdowns loaded from the service, so users pick instead of typing codes
 * (an expression is still accepted in every one of these fields).
 *
 * - listSearch.searchBusinesses: the merchant's businesses (from its wallets),
 *   for `businessId` resource locators.
 * - loadOptions.getCurrencies: currencies with a wallet (for the chosen
 *   business when one is set).
 * - loadOptions.getFilterCurrencies: the same for a list's Filters (for
 *   Filters > Business ID when set, else the whole merchant).
 * - loadOptions.getBanks: banks for the chosen `currency` (payouts).
 * - loadOptions.getEftBanks: South African EFT banks.
 * - loadOptions.getMobileMoneyNetworks: mobile money networks (for the chosen
 *   `currency` when the operation has one).
 *
 * Wallets are listed for the merchant of the node's `merchantId` parameter
 * when there is one, else the credential's Default Merchant ID.
 *
 * A dropdown never shows a red error for something the user has not reached
 * yet (issue 31 point 1; checked on a fresh node, and with a credential
 * without defaults, by test/unit/shared/methods.test.ts): a list that needs
 * something first says what as its one entry, and sends nothing:
 * - no usable credential yet (a fresh node whose credential is not set, or
 *   one whose base address cannot be used): "Choose a PayOnUs API credential
 *   first" (every list, ./waiting.ts withClient);
 * - currency without a business (none picked, no Default Business ID):
 *   "Pick a Business first"; banks without a currency: "Pick a Currency first";
 * - without a merchant, the currency lists offer the documented currencies
 *   and the business list the credential's Default Business ID, or says to
 *   set a Default Merchant ID (or type the ID).
 * Errors of the service itself (a refused secret, an unreachable service)
 * still show: they are not something to wait for.
 *
 * Once a list loads while its field is still empty, it starts with a
 * "Choose a bank" entry for that empty value (./waiting.ts keepUnchosen):
 * the field then never reads as an unsupported value (issue 38).
 */

interface WalletRecord extends IDataObject {
	currency?: string;
	entityId?: string;
	businessName?: string;
}

interface CodeName extends IDataObject {
	code?: string;
	name?: string;
}

interface NetworkRecord extends CodeName {
	currency?: string;
	countryCode?: string;
	otpRequired?: boolean;
	initiatingCodeRequired?: boolean;
}

/** A current parameter value, resource locators unwrapped; '' when unset. */
function current(ctx: ILoadOptionsFunctions, name: string): string {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter(name);
	} catch {
		return '';
	}
	if (value && typeof value === 'object' && (value as IDataObject).__rl === true) {
		value = (value as IDataObject).value;
	}
	if (typeof value !== 'string') return '';
	// An unresolved expression cannot be used to filter.
	return value.startsWith('=') ? '' : value.trim();
}

/** The merchant's wallets; undefined when no merchant is known (node field or credential default). */
async function merchantWallets(ctx: ILoadOptionsFunctions, client: PayOnUsClient): Promise<WalletRecord[] | undefined> {
	const merchantId = orCredentialDefault(current(ctx, 'merchantId'), client.defaults, 'merchantId');
	if (!merchantId) return undefined;
	return (await api.listWallets(client, merchantId)) as WalletRecord[];
}

/** Without a merchant to read wallets from: the currencies PayOnUs documents, saying how to narrow them. */
function documentedCurrencies(): INodePropertyOptions[] {
	return [...CURRENCIES].sort().map((code) => ({
		name: code,
		value: code,
		description: 'Set a Default Merchant ID in the PayOnUs credential to list only the currencies you have a wallet in',
	}));
}

function byName(a: INodePropertyOptions, b: INodePropertyOptions): number {
	return a.name.localeCompare(b.name);
}

/** Bank options "Name (code)", by name; the value is the code. */
function bankOptions(banks: CodeName[]): INodePropertyOptions[] {
	return banks
		.filter((b) => b.code)
		.map((b) => ({ name: `${b.name ?? b.code} (${b.code})`, value: b.code as string }))
		.sort(byName);
}

export const loadOptions = {
	async getCurrencies(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await withClient(this, async (client) => {
			const businessId = orCredentialDefault(current(this, 'businessId'), client.defaults, 'businessId') ?? '';
			// Said in the dropdown, rather than a red error: the currencies are the business's.
			if (!businessId) return pickFirst('a Business');
			const wallets = await merchantWallets(this, client);
			if (!wallets) return documentedCurrencies();
			const chosen = wallets.filter((w) => w.entityId === businessId);
			const source = chosen.length > 0 ? chosen : wallets;
			const codes = [...new Set(source.map((w) => w.currency).filter((c): c is string => !!c))].sort();
			return keepUnchosen(this, ['currency'], 'a currency', codes.map((code) => ({ name: code, value: code })));
		});
	},

	/**
	 * Currencies for a list's Filters > Currency: of the business in Filters >
	 * Business ID when one is typed, else of every business of the merchant
	 * (a list is merchant-wide; the credential's Default Business does not
	 * narrow it).
	 */
	async getFilterCurrencies(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await withClient(this, async (client) => {
			const businessId = current(this, 'filters.businessId');
			const wallets = await merchantWallets(this, client);
			if (!wallets) return documentedCurrencies();
			const source = businessId ? wallets.filter((w) => w.entityId === businessId) : wallets;
			const codes = [...new Set(source.map((w) => w.currency).filter((c): c is string => !!c))].sort();
			return codes.map((code) => ({ name: code, value: code }));
		});
	},

	async getBanks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const currency = current(this, 'currency');
		// Said in the dropdown, rather than a red error or an empty "No data".
		if (!currency) return pickFirst('a Currency');
		return await withClient(this, async (client) =>
			keepUnchosen(this, ['beneficiaryBankCode', 'institutionCode'], 'a bank', bankOptions(await api.listBanks(client, currency))),
		);
	},

	async getEftBanks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await withClient(this, async (client) => keepUnchosen(this, ['eftBank', 'bank'], 'a bank', bankOptions(await api.listEftBanks(client))));
	},

	async getMobileMoneyNetworks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await withClient(this, async (client) => {
			const currency = current(this, 'currency');
			const networks = (await api.listMobileMoneyNetworks(client, { currency })) as NetworkRecord[];
			const options = networks
				.filter((n) => n.code)
				.map((n) => {
					const notes = [n.otpRequired ? 'OTP' : '', n.initiatingCodeRequired ? 'initiating code' : '']
						.filter(Boolean)
						.join(', ');
					return {
						name: `${n.name ?? n.code} (${[n.currency, n.countryCode].filter(Boolean).join(', ')})`,
						value: n.code as string,
						description: notes ? `Needs: ${notes}` : undefined,
					};
				})
				.sort(byName);
			return keepUnchosen(this, ['momoNetwork'], 'a network', options);
		});
	},
};

export const listSearch = {
	async searchBusinesses(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const options = await withClient(this, async (client) => {
			const wallets = await merchantWallets(this, client);
			if (!wallets) {
				// No merchant to list businesses from: the credential's default business, when it has one.
				const id = client.defaults.businessId;
				if (id) return [{ name: `Default business of the credential (${id})`, value: id }];
				return waitFor('Set a Default Merchant ID in the PayOnUs credential (or choose By ID)', 'The businesses are listed from the wallets of the merchant');
			}
			const seen = new Map<string, string>();
			for (const w of wallets) {
				if (w.entityId && !seen.has(w.entityId)) seen.set(w.entityId, w.businessName ?? w.entityId);
			}
			const needle = (filter ?? '').toLowerCase();
			return [...seen.entries()]
				.map(([id, name]) => ({ name: `${name} (${id})`, value: id }))
				.filter((r) => !needle || r.name.toLowerCase().includes(needle))
				.sort(byName);
		});
		return { results: options.map((o) => ({ name: o.name, value: o.value as string })) };
	},
};
