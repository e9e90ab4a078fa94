import { z } from 'zod/v3';
import { parseAmount } from '../values/amount';
import { REQUIRED, toNumber } from './reading';

/** Money amounts (read by ../values/amount.ts) and whole numbers. */

function requiredNumber() {
	return z.number({ required_error: REQUIRED, invalid_type_error: 'must be a number' }).finite('must be a finite number');
}

function amountSchema(options: { min?: number; minInclusive?: boolean }) {
	return z.unknown().transform((value, ctx) => {
		const r = parseAmount(typeof value === 'string' && value.trim() === '' ? undefined : value, options);
		if (!r.ok) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: r.message });
			return z.NEVER;
		}
		return r.value;
	});
}

/**
 * A money amount: greater than 0, at most 2 decimal places, at most
 * MAX_AMOUNT, read exactly (see parseAmount).
 */
export function amount() {
	return amountSchema({ min: 0 });
}

/** Amount of a tokenized card charge: the spec's minimum is 1. */
export function tokenizedAmount() {
	return amountSchema({ min: 1, minInclusive: true });
}

/** Whole number in a range (page size, limit, expiry minutes...). */
export function integer(min: number, max?: number) {
	let schema = requiredNumber().int('must be a whole number').gte(min, `must be at least ${min}`);
	if (max !== undefined) schema = schema.lte(max, `must be at most ${max}`);
	return z.preprocess(toNumber, schema);
}
