import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod/v3';
import * as v from '../validation';

/**
 * The `customer` object of the payin calls: each value's rule and where it
 * goes in the object ('address.city' -> customer.address.city). The PayOnUs
 * node shows each value as its own field
 * (nodes/PayOnUs/resources/payin/customer.ts) with these rules; the request
 * bodies (./bodies.ts) check the object with them.
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

export interface CustomerValue {
	/** Where the value goes in `customer` ('address.city' -> customer.address.city). */
	target: string;
	schema: () => z.ZodTypeAny;
}

export const CUSTOMER_VALUES: Record<CustomerKey, CustomerValue> = {
	name: { target: 'name', schema: () => v.bankText(200) },
	email: { target: 'email', schema: () => v.email() },
	phone: { target: 'phone', schema: () => v.phone() },
	externalId: { target: 'externalId', schema: () => v.text(100) },
	bvn: { target: 'bvn', schema: () => v.bvn() },
	line1: { target: 'address.line1', schema: () => v.text(200) },
	city: { target: 'address.city', schema: () => v.text(100) },
	state: { target: 'address.state', schema: () => v.text(100) },
	postalCode: { target: 'address.postalCode', schema: () => v.text(20) },
	countryCode: { target: 'address.countryCode', schema: () => v.countryCode() },
};

const ADDRESS = 'address.';

/** The customer values a payin call requires, and those it accepts besides. */
export interface CustomerValues {
	required: readonly CustomerKey[];
	optional: readonly CustomerKey[];
}

/** The customer values of each payin call (the PayOnUs node's customer fields follow them). */
export const PAYIN_CUSTOMERS = {
	dynamicAccount: { required: ['name', 'email'], optional: ['phone', 'externalId', 'bvn'] },
	fixedAccount: { required: ['name', 'email', 'bvn', 'line1', 'city', 'countryCode'], optional: ['phone', 'externalId', 'state', 'postalCode'] },
	cardCharge: { required: ['name', 'email'], optional: ['phone', 'line1', 'city', 'state', 'countryCode'] },
	mobileMoney: { required: ['name', 'email', 'phone'], optional: ['city', 'postalCode', 'countryCode'] },
	eft: { required: ['name', 'email'], optional: ['phone', 'line1', 'city', 'state', 'postalCode', 'countryCode'] },
} as const satisfies Record<string, CustomerValues>;

/**
 * zod schema of a `customer` object with these values (the optional ones
 * may be left out or empty); `address` holds the address values, and is
 * required when one of them is.
 */
export function customerSchema({ required, optional }: CustomerValues) {
	const top: z.ZodRawShape = {};
	const address: z.ZodRawShape = {};
	for (const [keys, isRequired] of [
		[required, true],
		[optional, false],
	] as const) {
		for (const key of keys) {
			const { target, schema } = CUSTOMER_VALUES[key];
			const shape = target.startsWith(ADDRESS) ? address : top;
			shape[target.startsWith(ADDRESS) ? target.slice(ADDRESS.length) : target] = isRequired ? schema() : v.optional(schema());
		}
	}
	if (Object.keys(address).length > 0) {
		const addressRequired = required.some((k) => CUSTOMER_VALUES[k].target.startsWith(ADDRESS));
		top.address = addressRequired ? z.object(address) : z.object(address).optional();
	}
	return z.object(top);
}

/** The customer object of a payin body. */
export interface PayinCustomer {
	name: string;
	email: string;
	phone?: string;
	externalId?: string;
	bvn?: string;
	address?: { line1?: string; city?: string; state?: string; postalCode?: string; countryCode?: string };
}

/** Values left out (undefined, or an address with nothing in it) are not sent. */
export function givenCustomer(customer: PayinCustomer): PayinCustomer {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(customer)) {
		if (value === undefined || value === '') continue;
		if (key === 'address') {
			const address = givenCustomer(value as PayinCustomer) as unknown as IDataObject;
			if (Object.keys(address).length > 0) out.address = address;
		} else out[key] = value;
	}
	return out as unknown as PayinCustomer;
}

/** The `customer` of a payin body with these values, as it is sent (values left out are not sent). */
export function customerBody(values: CustomerValues) {
	return customerSchema(values).transform((customer) => givenCustomer(customer as PayinCustomer));
}
