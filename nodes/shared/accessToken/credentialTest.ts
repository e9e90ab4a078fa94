import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHttpRequestOptions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { normaliseCredential } from '../credential/read';
import { TokenCallError } from '../errors';
import { tokenCache } from './cache';
import { checkToken } from './check';
import { clientIdentity, numberField, storedToken, tokenFingerprint } from './credential';
import type { HttpHelpers } from './tokenCall';
import { requestToken } from './tokenCall';

/**
 * The credential test (the editor's "Test" and the test after "Save").
 *
 * It always checks the values in the form with ONE fresh token call and one
 * read with that token. It does not go through the credential's
 * preAuthentication: in n8n 2.41.1 a declarative test request of a saved
 * credential whose stored token is set never calls preAuthentication (the
 * stored token, put back by n8n in place of the blanked hidden fields, is
 * sent as is), so a changed Client Secret was never checked.
 *
 * The service allows one valid token per API client and 3 token calls a
 * minute: the test's token replaces the client's previous one. It is kept as
 * this n8n process's live token (./cache.ts), so the next execution here
 * takes it instead of asking for another; the stored token it killed is
 * marked dead. The test cannot write the token to the stored credential (n8n
 * gives a test function no way to), so another process (a queue-mode worker,
 * a second main) that still uses the stored token gets one 401 and asks for
 * its own token then.
 *
 * A person asked for this one token call: the breaker of ./cache.ts (which
 * holds token calls while the service refuses every new token) does not
 * hold it, and a token the check read accepts clears the breaker's strikes
 * (the API client works again); one it refuses is a strike.
 */

export const CREDENTIAL_TEST_NAME = 'payOnUsApiTest';

type TestHelpers = Pick<ICredentialTestFunctions['helpers'], 'request'>;

/**
 * n8n's httpRequest shape over the `request` helper: a credential test
 * function gets no other (ICredentialTestFunctions), so the lint's advice to
 * use httpRequest cannot apply here. Options as n8n's legacy adapter reads
 * them; its errors carry response.status / response.headers / code, which
 * tokenCall.ts and check.ts read (and never rethrow: the request holds the
 * secret).
 */
export function legacyHttpHelpers(helpers: TestHelpers): HttpHelpers {
	const httpRequest = async (options: IHttpRequestOptions): Promise<unknown> =>
		await helpers.request({
			method: options.method ?? 'GET',
			uri: options.url,
			qs: options.qs,
			body: options.body,
			headers: options.headers,
			json: true,
			timeout: options.timeout,
			followRedirect: false,
			followAllRedirects: false,
		});
	return { httpRequest } as unknown as HttpHelpers;
}

const SUCCESS =
	'PayOnUs issued a new access token for this Client ID and Secret and accepted it. (This used one of the 3 token requests a minute the service allows per API client, and replaced the client\'s previous token; executions on this n8n instance take the new one without another request.)';

/** The test itself, given HTTP helpers (tests pass fakes). */
export async function testCredentialValues(
	helpers: HttpHelpers,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	try {
		const id = clientIdentity(data);
		const key = tokenFingerprint(id);
		const merchantId = normaliseCredential(data).defaults.merchantId ?? '';
		const rec = await tokenCache.mint(key, async () => await requestToken(helpers, id, () => tokenCache.now()), { userAsked: true });
		// The stored token is dead now (one valid token per client).
		const stored = storedToken(data);
		if (stored !== '' && stored !== rec.token) {
			const storedIssuedAt = numberField(data.issuedAt) ?? 0;
			tokenCache.markDead(key, stored, storedIssuedAt, false);
			if (typeof data.tokenFingerprint === 'string' && data.tokenFingerprint !== '' && data.tokenFingerprint !== key) {
				tokenCache.markDead(data.tokenFingerprint, stored, storedIssuedAt, false);
			}
		}
		if (!(await checkToken(helpers, key, id, rec.token, merchantId))) {
			tokenCache.markDead(key, rec.token, rec.issuedAt);
			return {
				status: 'Error',
				message:
					'PayOnUs issued a token but refused it on a read call (401): the API client may be switched off on the PayOnUs dashboard, another n8n instance or program using the same API client may have taken a token right after (each new token revokes the previous one), or the Environment / Base URL may point to a different PayOnUs environment than the one that issued it.',
			};
		}
		tokenCache.clearStrikes(key);
		return { status: 'OK', message: SUCCESS };
	} catch (error) {
		if (error instanceof TokenCallError) return { status: 'Error', message: error.message };
		return { status: 'Error', message: 'The credential test failed unexpectedly.' };
	}
}

/**
 * The method n8n calls. Every node using the credential names it
 * (credentials[].testedBy: 'payOnUsApiTest', a literal for the lint) and
 * carries it (methods.credentialTest = CREDENTIAL_TEST_METHODS): n8n takes
 * the first node it finds.
 */
export async function payOnUsApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return await testCredentialValues(legacyHttpHelpers(this.helpers), credential.data ?? {});
}

export const CREDENTIAL_TEST_METHODS = { [CREDENTIAL_TEST_NAME]: payOnUsApiTest };
