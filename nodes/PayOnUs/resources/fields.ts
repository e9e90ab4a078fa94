import type { INodeProperties } from 'n8n-workflow';

/**
 * Field descriptions several operations share (payin, wallet, payout, card
 * tokenization). Each returns a fresh object; spread and override what differs:
 * `{ ...amountField(), description: '...' }`.
 *
 * Naming convention the node relies on: a top-level field named `businessId`
 * or `merchantId` left empty takes the credential's default
 * (withCredentialDefaults, nodes/shared/credential/defaults.ts).
 */

/** Business picked from the merchant's businesses, or typed as an ID (the Payment Page's too). */
export { businessIdField } from '../../shared/methods/businessField';

/** Merchant ID (wallet queries, searches). */
export function merchantIdField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Merchant ID',
		name: 'merchantId',
		type: 'string',
		default: '',
		placeholder: 'e.g. MER-1001',
		description: "The merchant whose records are read. Leave empty to use the credential's Default Merchant ID.",
		...overrides,
	};
}

/**
 * Currency picked from the currencies the business has a wallet in (the
 * banks and mobile money dropdowns of an operation reload from it).
 */
export function currencyField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Currency Name or ID',
		name: 'currency',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getCurrencies', loadOptionsDependsOn: ['businessId.value'] },
		default: '',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		...overrides,
	};
}

export function amountField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		required: true,
		description: 'Amount in the currency (up to 2 decimal places), greater than 0',
		// Issue 38: typed into this number box, "{{" is dropped (n8n 2.8.4 and 2.41.1): say how to map one.
		hint: 'To map or compute it, switch to Expression (above this field) first, then type e.g. {{ $json.amount * 0.8 }}',
		...overrides,
	};
}

export function referenceField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Reference',
		name: 'reference',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. order-10045',
		description:
			'Your own reference for this transaction, unique for the business (at most 100 characters, no spaces). Reusing one is refused as a duplicate.',
		...overrides,
	};
}

export function narrationField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Narration',
		name: 'narration',
		type: 'string',
		default: '',
		description: 'Short text describing the transaction',
		...overrides,
	};
}

/** Return All + Limit pair for list operations. */
export function returnAllFields(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The reference PayOnUs gave a payin or a transfer (onusReference). */
export function onusReferenceField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'PayOnUs Reference',
		name: 'onusReference',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. ONUS-NUB-1234567890123-31052024-101500',
		description: 'The reference PayOnUs gave the payment when it was created (onusReference in its output), such as ONUS-NUB-1234567890123-31052024-101500',
		...overrides,
	};
}

/** The optional fields of an operation, in one "Additional Fields" collection. */
export function additionalFields(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/** The filters of a list or search operation, in one "Filters" collection. */
export function filtersField(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options,
	};
}

/**
 * Business filter of a list (inside Filters: typed, never filled from the
 * credential; empty means every business of the merchant).
 */
export function businessIdFilter(description: string): INodeProperties {
	return {
		displayName: 'Business ID',
		name: 'businessId',
		type: 'string',
		default: '',
		placeholder: 'e.g. BUS-2001',
		description,
	};
}

/** A date filter (n8n's date picker; the date part is sent, YYYY-MM-DD). */
export function dateFilter(name: string, displayName: string, description: string): INodeProperties {
	return { displayName, name, type: 'dateTime', default: '', description };
}

/** Status filter from a fixed list of statuses (shown alphabetically). */
export function statusFilter(statuses: readonly string[], defaultStatus: string): INodeProperties {
	const title = (s: string) => s.charAt(0) + s.slice(1).toLowerCase();
	return {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [...statuses].sort().map((s) => ({ name: title(s), value: s })),
		default: defaultStatus,
	};
}
