/** Where the service runs: its two hosted environments, or a base address of the builder's own. */
export type PayOnUsEnvironment = 'sandbox' | 'production' | 'custom';

/** Public base addresses of the two hosted environments (public-facts.md). */
export const ENVIRONMENT_BASE_URLS: Record<Exclude<PayOnUsEnvironment, 'custom'>, string> = {
	sandbox: 'https://core-sandbox.payonus.com',
	production: 'https://core.payonus.com',
};

/**
 * resolveBaseUrl as an n8n expression over the credential, for the
 * credential test request (n8n evaluates it; the addresses come from
 * ENVIRONMENT_BASE_URLS above).
 */
export const BASE_URL_EXPRESSION = `={{$credentials.environment === "custom" ? String($credentials.baseUrl).trim().replace(/\\/+$/, "") : ($credentials.environment === "production" ? ${JSON.stringify(
	ENVIRONMENT_BASE_URLS.production,
)} : ${JSON.stringify(ENVIRONMENT_BASE_URLS.sandbox)})}}`;

export const ENVIRONMENT_LABELS: Record<PayOnUsEnvironment, string> = {
	sandbox: 'Sandbox',
	production: 'Production',
	custom: 'Custom base URL',
};

export function isEnvironment(value: unknown): value is PayOnUsEnvironment {
	return value === 'sandbox' || value === 'production' || value === 'custom';
}

/** Hosts for which a plain http:// base address is allowed (this machine only). */
export function isLoopbackHost(hostname: string): boolean {
	const h = hostname.toLowerCase().replace(/\.$/, '');
	return h === 'localhost' || h === '127.0.0.1' || h === '[::1]' || h === '::1';
}

/**
 * Options of every request to PayOnUs (API calls, token call, token check):
 * redirects are NOT followed (a money-moving POST must never be resent
 * somewhere else, nor the Client Secret of the token call), and should n8n
 * ever follow one, the Authorization header is not forwarded to another
 * origin (n8n's default, sendCredentialsOnCrossOriginRedirect, is true).
 * Checked in n8n-core 2.8: request-helper-functions.js convertN8nRequestToAxios
 * (disableFollowRedirect -> maxRedirects 0; getBeforeRedirectFn).
 */
export const NO_REDIRECTS = { disableFollowRedirect: true, sendCredentialsOnCrossOriginRedirect: false } as const;

/**
 * The base address for a credential's environment, without a trailing slash.
 * A custom address must be an absolute https URL (a proxy, a new region), or
 * http only for this machine (the local sandbox); anything else is refused
 * with a message naming the field.
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
	if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
		throw new Error(
			`The credential's Base URL must use https:// (got "${raw}"): plain http:// would send the Client Secret and the access token unencrypted. http:// is allowed only for this machine (localhost, 127.0.0.1, [::1]).`,
		);
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
