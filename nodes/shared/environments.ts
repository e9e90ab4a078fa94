import type { PayOnUsEnvironment } from './client';

/** Public base addresses of the two hosted environments (public-facts.md). */
export const ENVIRONMENT_BASE_URLS: Record<Exclude<PayOnUsEnvironment, 'custom'>, string> = {
	sandbox: 'https://core-sandbox.payonus.com',
	production: 'https://core.payonus.com',
};

export const ENVIRONMENT_LABELS: Record<PayOnUsEnvironment, string> = {
	sandbox: 'Sandbox',
	production: 'Production',
	custom: 'Custom base URL',
};

export function isEnvironment(value: unknown): value is PayOnUsEnvironment {
	return value === 'sandbox' || value === 'production' || value === 'custom';
}

/**
 * The base address for a credential's environment, without a trailing slash.
 * A custom address must be an absolute http(s) URL (the local sandbox, a proxy,
 * a new region); anything else is refused with a message naming the field.
 */
export function resolveBaseUrl(environment: unknown, customBaseUrl?: unknown): string {
	if (environment === 'sandbox' || environment === 'production') {
		return ENVIRONMENT_BASE_URLS[environment];
	}
	if (environment !== 'custom') {
		throw new Error(
			`The credential's Environment is "${String(environment)}"; choose Sandbox, Production or Custom base URL`,
		);
	}
	const raw = typeof customBaseUrl === 'string' ? customBaseUrl.trim() : '';
	if (raw === '') {
		throw new Error('The credential uses a custom environment but its Base URL is empty');
	}
	let parsed: URL | undefined;
	try {
		parsed = new URL(raw);
	} catch {
		parsed = undefined;
	}
	if (!parsed) throw new Error(`The credential's Base URL "${raw}" is not a valid URL`);
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		throw new Error(`The credential's Base URL must start with http:// or https:// (got "${raw}")`);
	}
	if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '' || parsed.hash !== '') {
		throw new Error('The credential\'s Base URL must not contain a user, password, query or fragment');
	}
	return (parsed.origin + parsed.pathname).replace(/\/+$/, '');
}

/** Short human name of where a credential points, for messages. */
export function describeEnvironment(environment: unknown, baseUrl: string): string {
	if (isEnvironment(environment) && environment !== 'custom') {
		return `${ENVIRONMENT_LABELS[environment]} (${baseUrl})`;
	}
	return baseUrl;
}
