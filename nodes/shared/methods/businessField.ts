import type { INodeProperties } from 'n8n-workflow';

/**
 * The Business field of the PayOnUs node's operations and of the Payment
 * Page: picked from the merchant's businesses (listSearch.searchBusinesses,
 * ./index.ts), or typed as an ID. Returns a fresh object; override what
 * differs.
 */
export function businessIdField(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Business',
		name: 'businessId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: "The business the call is made for. Leave empty to use the credential's Default Business ID.",
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a business...',
				typeOptions: { searchListMethod: 'searchBusinesses', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. BUS-2001',
			},
		],
		...overrides,
	};
}

