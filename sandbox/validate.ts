/**
 * Request validation with zod: every failure becomes a 400 whose errors name
 * the field (`customer.phone: must be in international format ...`).
 */
import { z } from 'zod';
import { parseDate } from './clock';
import { CURRENCIES } from './catalog';
import { ApiError } from './errors';

export const str = () =>
	z.string({ required_error: 'is required', invalid_type_error: 'must be a string' }).trim().min(1, 'must not be empty');

export const optStr = () => z.string({ invalid_type_error: 'must be a string' }).optional().nullable();

export const amount = () =>
	z
		.number({ required_error: 'is required', invalid_type_error: 'must be a number' })
		.finite('must be a finite number')
		.positive('must be greater than 0')
		.refine((n) => Math.round(n * 100) === Math.round(n * 100 * 1e6) / 1e6, 'must have at most 2 decimal places');

export const currency = () =>
	str().refine((c) => CURRENCIES.includes(c), `must be one of ${CURRENCIES.join(', ')}`);

export const countryCode = () => str().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code (e.g. NG)');

export const phone = () =>
	str().regex(/^\+[1-9]\d{6,14}$/, 'must be in international format with a leading + (e.g. +2348012345678)');

export const email = () => str().email('must be a valid email address');

export const isoDate = () => str().refine((s) => parseDate(s) !== undefined, 'must be a date YYYY-MM-DD');

export const bool = () => z.boolean({ invalid_type_error: 'must be true or false' });

export const reference = () => str().max(100, 'must be at most 100 characters');

export function fail(field: string, reason: string, status = 400): never {
	throw new ApiError(status, `${field} ${reason}`, [`${field}: ${reason}`]);
}

export function parse<S extends z.ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
	const result = schema.safeParse(input ?? {});
	if (result.success) return result.data;
	const errors = result.error.issues.map((i) => {
		const field = i.path.join('.') || 'body';
		const msg = i.code === 'invalid_type' && i.received === 'undefined' ? 'is required' : i.message;
		return `${field}: ${msg}`;
	});
	throw new ApiError(400, `Invalid request: ${errors.join('; ')}`, errors);
}

/** Query helpers (strings from URLSearchParams). */
export function qInt(q: URLSearchParams, name: string, def: number, min: number, max: number): number {
	const raw = q.get(name);
	if (raw === null || raw === '') return def;
	if (!/^-?\d+$/.test(raw)) fail(name, 'must be an integer');
	const n = Number(raw);
	if (n < min || n > max) fail(name, `must be between ${min} and ${max}`);
	return n;
}

export function qDate(q: URLSearchParams, name: string): number | undefined {
	const raw = q.get(name);
	if (raw === null || raw === '') return undefined;
	const t = parseDate(raw);
	if (t === undefined) fail(name, 'must be a date YYYY-MM-DD');
	return t;
}

export function qBool(q: URLSearchParams, name: string): boolean | undefined {
	const raw = q.get(name);
	if (raw === null || raw === '') return undefined;
	if (raw !== 'true' && raw !== 'false') fail(name, 'must be true or false');
	return raw === 'true';
}

export function qRequired(q: URLSearchParams, name: string): string {
	const raw = q.get(name);
	if (raw === null || raw.trim() === '') fail(name, 'is required');
	return raw.trim();
}

export function qEnum(q: URLSearchParams, name: string, values: string[]): string | undefined {
	const raw = q.get(name);
	if (raw === null || raw === '') return undefined;
	if (!values.includes(raw)) fail(name, `must be one of ${values.join(', ')}`);
	return raw;
}

/** `businessIds` as repeated params or a comma list. */
export function qList(q: URLSearchParams, name: string): string[] {
	return q
		.getAll(name)
		.flatMap((v) => v.split(','))
		.map((v) => v.trim())
		.filter(Boolean);
}
