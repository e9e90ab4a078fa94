import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { normaliseCredential } from '../credential/read';
import { TokenRejectedSignal } from '../errors';
import { type TokenRecord, tokenCache } from './cache';
import { checkToken } from './check';
import {
	clientIdentity,
	isTransportOwned,
	numberField,
	storedToken,
	tokenFields,
	tokenFingerprint,
} from './credential';
import { type HttpHelpers, requestToken } from './tokenCall';

/**
 * The credential's preAuthentication (the credential side of the token).
 * n8n calls it when the stored token is '' (then the result is saved to the
 * credential), after a 401 with the very credential object whose token
 * failed, on any error with the legacy request helper (HTTP Request node),
 * and during a credential test. Returning {} (no `accessToken`) means "keep
 * the token": n8n writes nothing.
 *
 * Tokens, the client secret and the verification key are never logged, never
 * put in an error message and never returned as node output.
 */
export async function payOnUsPreAuthentication(
	helpers: HttpHelpers,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const id = clientIdentity(credentials);
	const key = tokenFingerprint(id);
	const owned = isTransportOwned(credentials);
	const merchantId = normaliseCredential(credentials).defaults.merchantId ?? '';
	const mint = async () => await tokenCache.mint(key, async () => await requestToken(helpers, id, () => tokenCache.now()));
	/** Outside the transport (credential test, HTTP Request node), a token
	 * handed out is first checked with one read, so that a test names what is
	 * wrong (IP whitelist, merchant) in words. */
	const handOut = async (rec: TokenRecord): Promise<IDataObject> => {
		if (!owned) await checkToken(helpers, key, id, rec.token, merchantId);
		return tokenFields(rec, key);
	};
	const token = storedToken(credentials);

	if (token === '') return await handOut(tokenCache.live(key) ?? (await mint()));

	// A non-empty token: it failed (or this is a credential test).
	const issuedAt = numberField(credentials.issuedAt) ?? 0;
	const newer = tokenCache.newerThan(key, token, issuedAt);
	if (newer) return await handOut(newer);
	if (credentials.tokenFingerprint !== key || tokenCache.isStale(key, token, issuedAt)) {
		// Minted for other settings, or known refused: replace it (shared call).
		return await handOut(await mint());
	}
	if (owned) {
		// The transport re-reads the stored credential before any mint.
		throw new TokenRejectedSignal();
	}
	// HTTP Request node (legacy helper: any error) or a credential test: is
	// the token itself still good? Then the error was not about it.
	if (await checkToken(helpers, key, id, token, merchantId)) {
		tokenCache.observe(key, {
			token,
			issuedAt,
			expiresAt: numberField(credentials.expiresAt) || tokenCache.now() + 60 * 60 * 1000,
		});
		return {};
	}
	tokenCache.markDead(key, token, issuedAt);
	return await handOut(await mint());
}
