import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { baseUrlOf, normaliseCredential } from '../credential/read';
import { TokenCallError } from '../errors';
import { sha256, type TokenRecord } from './cache';

/**
 * The token as it lives in the PayOnUs API credential: which settings it was
 * minted for (fingerprint), the ONE list of its fields, and how to read them.
 */

/**
 * The credential fields preAuthentication writes (hidden fields of
 * credentials/PayOnUsApi.credentials.ts; `accessToken` is the expirable one).
 */
export const TOKEN_FIELDS = ['accessToken', 'issuedAt', 'expiresAt', 'tokenFingerprint'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];

export interface ClientIdentity {
	environment: string;
	baseUrl: string;
	clientId: string;
	clientSecret: string;
}

/**
 * One-way fingerprint of (base URL, client id, client secret): the cache key
 * of a client in this process, and stored with the token (hidden field
 * `tokenFingerprint`) so a token minted for other settings (another
 * environment, client or secret) is never sent anywhere.
 */
export function tokenFingerprint(id: Pick<ClientIdentity, 'baseUrl' | 'clientId' | 'clientSecret'>): string {
	return sha256(`payonus-token-v1\n${id.baseUrl}\n${id.clientId}\n${id.clientSecret}`).slice(0, 32);
}

/** Reads the connection part of a credential, refusing missing fields clearly. */
export function clientIdentity(credentials: ICredentialDataDecryptedObject): ClientIdentity {
	const credential = normaliseCredential(credentials);
	const baseUrl = baseUrlOf(credential);
	const { clientId, clientSecret } = credential;
	if (clientId === '') throw new TokenCallError('The PayOnUs API credential has no Client ID', 'rejected');
	if (clientSecret === '') throw new TokenCallError('The PayOnUs API credential has no Client Secret', 'rejected');
	return { environment: String(credentials.environment), baseUrl, clientId, clientSecret };
}

/** The values of TOKEN_FIELDS for a token minted for `fingerprint`. */
export function tokenFields(rec: TokenRecord, fingerprint: string): Record<TokenField, string | number> {
	return {
		accessToken: rec.token,
		issuedAt: rec.issuedAt,
		expiresAt: rec.expiresAt,
		tokenFingerprint: fingerprint,
	};
}

/** Copies the token fields from one credential data object to another. */
export function copyTokenFields(from: IDataObject, to: IDataObject): void {
	for (const k of TOKEN_FIELDS) if (k in from) to[k] = from[k];
}

/** A finite number, or undefined (a stored field may be '', a string or missing). */
export function numberField(v: unknown): number | undefined {
	const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
	return Number.isFinite(n) ? n : undefined;
}

/** The stored access token ('' when none). */
export function storedToken(data: IDataObject): string {
	return typeof data.accessToken === 'string' ? data.accessToken : '';
}

/** Marker put by the transport on the credential data it passes to n8n. A
 * symbol key: JSON.stringify (used by n8n when it saves a credential) drops
 * it, so it never reaches the database. Symbol.for: shared across copies of
 * this module. */
const TRANSPORT_OWNED = Symbol.for('n8n-nodes-payonus.transportOwned');

export function markTransportOwned<T extends object>(data: T): T {
	Object.defineProperty(data, TRANSPORT_OWNED, { value: true, enumerable: false, configurable: true });
	return data;
}

export function isTransportOwned(data: object): boolean {
	return (data as Record<symbol, unknown>)[TRANSPORT_OWNED] === true;
}
