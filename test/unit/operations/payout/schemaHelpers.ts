import type { z } from 'zod/v3';
import { describeIssue } from '../../../../nodes/shared/validation';

/** Parses like the node does; returns the data or the node's message for the first issue. */
export function parse<S extends z.ZodTypeAny>(schema: S, raw: unknown): { ok: true; data: z.infer<S> } | { ok: false; message: string } {
	const r = schema.safeParse(raw);
	return r.success ? { ok: true, data: r.data } : { ok: false, message: describeIssue(r.error).message };
}
