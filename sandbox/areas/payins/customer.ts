/** Customer fields shared by the payin requests (name, email, phone, address). */
import { z } from 'zod';
import { countryCode, email, optStr, phone, str } from '../../validate';

export const address = z
	.object({
		line1: optStr(),
		city: optStr(),
		state: optStr(),
		postalCode: optStr(),
		countryCode: countryCode().optional(),
	})
	.optional();

export const customerBase = {
	name: str(),
	email: email(),
	phone: phone().optional(),
	externalId: optStr(),
	address,
};
