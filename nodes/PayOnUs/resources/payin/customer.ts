import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';
import * as v from '../../../shared/validation';

/**
 * The `customer` object of the payin calls, as node fields.
 *
 * Each customer value is its own flat field (`customerName`,
 * `addressCity`...). Fields an operation requires are top-level; optional
 * ones sit in the operation's `additionalFields` collection under the same
 * names. `buildCustomer` turns the validated values back into the
 * `customer` object the service expects (empty values are left out).
 */

export type CustomerKey =
	| 'name'
	| 'email'
	| 'phone'
	| 'externalId'
	| 'bvn'
	| 'line1'
	| 'city'
	| 'state'
	| 'postalCode'
	| 'countryCode';

interface CustomerField {
	param: string;
	/** Where the value goes in `customer` ('address.city' -> customer.address.city). */
	target: string;
	displayName: string;
	placeholder: string;
	description: string;
	schema: () => z.ZodTypeAny;
}

const FIELDS: Record<CustomerKey, CustomerField> = {
	name: {
		param: 'customerName',
		target: 'name',
		displayName: 'Customer Name',
		placeholder: 'e.g. Ada Obi',
		description: 'Full name of the paying customer',
		schema: () => v.text(200),
	},
	email: {
		param: 'customerEmail',
		target: 'email',
		displayName: 'Customer Email',
		placeholder: 'e.g. name@email.com',
		description: 'E-mail address of the customer',
		schema: () => v.email(),
	},
	phone: {
		param: 'customerPhone',
		target: 'phone',
		displayName: 'Customer Phone',
		placeholder: 'e.g. +2348012345678',
		description: 'Phone number in international format: + and digits',
		schema: () => v.phone(),
	},
	externalId: {
		param: 'customerExternalId',
		target: 'externalId',
		displayName: 'Customer External ID',
		placeholder: 'e.g. CUST-0042',
		description: 'Your own identifier of the customer',
		schema: () => v.text(100),
	},
	bvn: {
		param: 'customerBvn',
		target: 'bvn',
		displayName: 'Customer BVN',
		placeholder: 'e.g. 22212345678',
		description: 'Bank Verification Number of the customer (11 digits)',
		schema: () => v.bvn(),
	},
	line1: {
		param: 'addressLine1',
		target: 'address.line1',
		displayName: 'Address Line 1',
		placeholder: 'e.g. 12 Marina Road',
		description: 'Street address of the customer',
		schema: () => v.text(200),
	},
	city: {
		param: 'addressCity',
		target: 'address.city',
		displayName: 'City',
		placeholder: 'e.g. Lagos',
		description: 'City of the customer',
		schema: () => v.text(100),
	},
	state: {
		param: 'addressState',
		target: 'address.state',
		displayName: 'State',
		placeholder: 'e.g. Lagos',
		description: 'State or province of the customer',
		schema: () => v.text(100),
	},
	postalCode: {
		param: 'addressPostalCode',
		target: 'address.postalCode',
		displayName: 'Postal Code',
		placeholder: 'e.g. 100001',
		description: 'Postal code of the customer',
		schema: () => v.text(20),
	},
	countryCode: {
		param: 'addressCountryCode',
		target: 'address.countryCode',
		displayName: 'Country Code',
		placeholder: 'e.g. NG',
		description: 'Country of the customer: 2-letter ISO code such as NG, KE, GH or ZA',
		schema: () => v.countryCode(),
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
export function customerShape(keys: CustomerKey[], required: boolean): z.ZodRawShape {
	const shape: z.ZodRawShape = {};
	for (const key of keys) {
		const f = FIELDS[key];
		shape[f.param] = required ? f.schema() : v.optional(f.schema());
	}
	return shape;
}

/**
 * Builds `customer` from validated values (top-level and additionalFields
 * merged). Values not given are left out; an empty address is left out.
 */
export function buildCustomer(values: IDataObject, keys: CustomerKey[]): IDataObject {
	const customer: IDataObject = {};
	const address: IDataObject = {};
	for (const key of keys) {
		const f = FIELDS[key];
		const value = values[f.param];
		if (value === undefined || value === '') continue;
		if (f.target.startsWith('address.')) address[f.target.slice('address.'.length)] = value;
		else customer[f.target] = value;
	}
	if (Object.keys(address).length > 0) customer.address = address;
	return customer;
}

/**
 * The customer of one operation in one piece: the values it requires
 * (top-level fields) and those it accepts (options of its Additional Fields
 * collection), their zod shapes, and the `customer` object built back from
 * the validated input.
 */
export function customerBlock(required: CustomerKey[], optional: CustomerKey[]) {
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
		build: (input: IDataObject & { additionalFields?: IDataObject }): IDataObject =>
			buildCustomer({ ...input, ...input.additionalFields }, [...required, ...optional]),
	};
}
