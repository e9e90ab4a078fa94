import type { z } from 'zod/v3';
import { describeIssue } from '../../../../nodes/shared/validation';

/** The node's message for an input ('' when valid). */
export function problem(schema: z.ZodTypeAny, input: unknown): string {
	const r = schema.safeParse(input);
	return r.success ? '' : describeIssue(r.error).message;
}

/** Parsed value (throws when invalid). */
export function parsed<S extends z.ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
	return schema.parse(input);
}
