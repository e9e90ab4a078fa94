import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod/v3';
import * as v from '../../../shared/validation';
import { CUSTOMER_VALUES, type CustomerKey, type CustomerValues, type PayinCustomer } from '../../../shared/payins';

/**
 * The `customer` object of the payin calls, as node fields.
 *
 * Each customer value is its own flat field (`customerName`,
 * `addressCity`...). Fields an operation requires are top-level; optional
 * ones sit in the operation's `additionalFields` collection under the same
 * names. `buildCustomer` turns the validated values back into the
 * `customer` object the service expects (empty values are left out). Each
 * value's rule and place in `customer` are the payin calls' own
 * (nodes/shared/payins/customer.ts).
 */

export type { CustomerKey };

interface CustomerField {
	param: string;
	displayName: string;
	placeholder: string;
	description: string;
}

const FIELDS: Record<CustomerKey, CustomerField> = {
	name: {
		param: 'customerName',
		displayName: 'Customer Name',
		placeholder: 'e.g. Ada Obi',
		description: 'Full name of the paying customer',
	},
	email: {
		param: 'customerEmail',
		displayName: 'Customer Email',
		placeholder: 'e.g. name@email.com',
		description: 'E-mail address of the customer',
	},
	phone: {
		param: 'customerPhone',
		displayName: 'Customer Phone',
		placeholder: 'e.g. +2348012345678',
		description: 'Phone number in international format: + and digits',
	},
	externalId: {
		param: 'customerExternalId',
		displayName: 'Customer External ID',
		placeholder: 'e.g. CUST-0042',
		description: 'Your own identifier of the customer',
	},
	bvn: {
		param: 'customerBvn',
		displayName: 'Customer BVN',
		placeholder: 'e.g. 22212345678',
		description: 'Bank Verification Number of the customer (11 digits)',
	},
	line1: {
		param: 'addressLine1',
		displayName: 'Address Line 1',
		placeholder: 'e.g. 12 Marina Road',
		description: 'Street address of the customer',
	},
	city: {
		param: 'addressCity',
		displayName: 'City',
		placeholder: 'e.g. Lagos',
		description: 'City of the customer',
	},
	state: {
		param: 'addressState',
		displayName: 'State',
		placeholder: 'e.g. Lagos',
		description: 'State or province of the customer',
	},
	postalCode: {
		param: 'addressPostalCode',
		displayName: 'Postal Code',
		placeholder: 'e.g. 100001',
		description: 'Postal code of the customer',
	},
	countryCode: {
		param: 'addressCountryCode',
		displayName: 'Country Code',
		placeholder: 'e.g. NG',
		description: 'Country of the customer: 2-letter ISO code such as NG, KE, GH or ZA',
	},
};

/** Node field for one customer value; `required` ones are top-level. */
export function customerProperty(key: CustomerKey, required: boolean): INodeProperties {
	const f = FIELDS[key];
	return {
		displayName: f.displayName,
		name: f.param,
		type: 'string',
		default: '',
		placeholder: f.placeholder,
		description: f.description,
		...(required ? { required: true } : {}),
	};
}

/** zod shape entries for these customer values (optional ones may be empty). */
export function customerShape(keys: readonly CustomerKey[], required: boolean): z.ZodRawShape {
	const shape: z.ZodRawShape = {};
	for (const key of keys) {
		const { schema } = CUSTOMER_VALUES[key];
		shape[FIELDS[key].param] = required ? schema() : v.optional(schema());
	}
	return shape;
}

/**
 * Builds `customer` from validated values (top-level and additionalFields
 * merged). Values not given are left out; an empty address is left out.
 */
export function buildCustomer(values: IDataObject, keys: readonly CustomerKey[]): IDataObject {
	const customer: IDataObject = {};
	const address: IDataObject = {};
	for (const key of keys) {
		const { target } = CUSTOMER_VALUES[key];
		const value = values[FIELDS[key].param];
		if (value === undefined || value === '') continue;
		if (target.startsWith('address.')) address[target.slice('address.'.length)] = value;
		else customer[target] = value;
	}
	if (Object.keys(address).length > 0) customer.address = address;
	return customer;
}

/**
 * The customer of one operation in one piece: the values it requires
 * (top-level fields) and those it accepts (options of its Additional Fields
 * collection), as its payin call takes them (PAYIN_CUSTOMERS,
 * nodes/shared/payins/customer.ts), their zod shapes, and the `customer`
 * object built back from the validated input.
 */
export function customerBlock({ required, optional }: CustomerValues) {
	return {
		/** Top-level node fields. */
		fields: required.map((k) => customerProperty(k, true)),
		/** Options of the Additional Fields collection. */
		options: optional.map((k) => customerProperty(k, false)),
		/** zod shape of the top-level fields. */
		shape: customerShape(required, true),
		/** zod shape of the optional ones (inside additionalFields). */
		optionalShape: customerShape(optional, false),
		/** `customer` from the validated input (additionalFields merged in). */
		build: (input: IDataObject & { additionalFields?: IDataObject }): PayinCustomer =>
			buildCustomer({ ...input, ...input.additionalFields }, [...required, ...optional]) as unknown as PayinCustomer,
	};
}
