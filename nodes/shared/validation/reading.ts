import { z } from 'zod/v3';
import { notTextMessage } from '../values/text';

/**
 * How every block first reads what n8n gives: '' / null / whitespace is
 * "not given", text is trimmed, numbers may come as text, and a value that
 * must be text is refused when it is not; optional() and group() wrap blocks.
 */

export const REQUIRED = 'is required';

/** '' / null / whitespace -> undefined; other text trimmed. */
export function blankToUndefined(value: unknown): unknown {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'string') {
		const trimmed = value.trim();
		return trimmed === '' ? undefined : trimmed;
	}
	return value;
}

/** Accepts numbers and numeric text; '' / null -> undefined. */
export function toNumber(value: unknown): unknown {
	const v = blankToUndefined(value);
	if (typeof v === 'string' && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v)) return Number(v);
	return v;
}

/** Message for a value that is not text (an object from an expression, a number...). */
const notText = notTextMessage;

/**
 * `inner` (a text schema) behind the one reading of text: '' / null ->
 * undefined, other text trimmed, anything else that is not text refused
 * with ../values/text.ts's message (a number: keep it as text).
 */
export function asText<T extends z.ZodTypeAny>(inner: T) {
	return z.preprocess(
		blankToUndefined,
		z
			.unknown()
			.superRefine((value, ctx) => {
				if (value !== undefined && typeof value !== 'string') ctx.addIssue({ code: z.ZodIssueCode.custom, message: notText(value), fatal: true });
			})
			.pipe(inner),
	);
}

/** Makes any of these blocks optional ('' / null -> undefined, then not validated). */
export function optional<T extends z.ZodTypeAny>(schema: T) {
	return z.preprocess(blankToUndefined, schema.optional());
}

/**
 * An n8n collection (object) whose missing/empty value counts as {}. Nested
 * blocks keep their own messages; their path is reported as "customer.email".
 */
export function group<T extends z.ZodRawShape>(shape: T) {
	return z.preprocess((v) => (v === null || v === undefined || v === '' ? {} : v), z.object(shape));
}
