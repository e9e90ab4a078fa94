import type { IDataObject } from 'n8n-workflow';
import { describeEnvironment, NO_REDIRECTS } from '../environments';
import { networkReason, TokenCallError } from '../errors';
import { PATHS } from '../api/paths';
import { tokenCache, tokenId } from './cache';
import type { ClientIdentity } from './credential';
import { failureStatus, type HttpFailure, type HttpHelpers, TOKEN_CALL_TIMEOUT_MS } from './tokenCall';

/**
 * The token check: one cheap authenticated read with a token, the
 * merchant's wallets when the credential names a default merchant, else one
 * payment request. Used by preAuthentication (outside the transport) and by
 * the credential test (./credentialTest.ts).
 */

const [WALLETS_PREFIX, WALLETS_SUFFIX] = PATHS.merchantWallets('MERCHANT').split('MERCHANT');
const PAYMENT_REQUESTS = PATHS.paymentRequests;
const CHECK_QS = { page: 0, size: 1 };

/** The check read for a (trimmed) default merchant id, '' for none. */
export function checkRead(merchantId: string): { path: string; qs: IDataObject } {
	return {
		path: merchantId ? `${WALLETS_PREFIX}${encodeURIComponent(merchantId)}${WALLETS_SUFFIX}` : PAYMENT_REQUESTS,
		qs: { ...CHECK_QS },
	};
}

/** What the check read's answer says of the token: true accepted, false refused (401); throws a clear error otherwise. */
function judge(outcome: true | HttpFailure, where: string, merchantId: string): boolean {
	if (outcome === true) return true;
	const status = failureStatus(outcome);
	if (status === 401) return false;
	if (status === 403) {
		throw new TokenCallError(
			`The Client ID and Client Secret are valid, but PayOnUs ${where} refused a read with the token (HTTP 403): this server's outbound IP address is probably not whitelisted for this environment on the PayOnUs dashboard, or the API client lacks permission${merchantId ? ` for merchant ${merchantId}` : ''}.`,
			'rejected',
			403,
		);
	}
	if (status === 404) {
		throw new TokenCallError(
			merchantId
				? `The Client ID and Client Secret are valid, but the Default Merchant ID "${merchantId}" was not found in ${where} (HTTP 404). Check it, or leave it empty.`
				: `${where} issued a token but answered 404 to a PayOnUs read: check the credential's Environment / Base URL.`,
			'unexpected',
			404,
		);
	}
	// Other statuses (400, 5xx...): the token itself was accepted.
	if (status !== undefined) return true;
	const code = networkReason(outcome?.code);
	throw new TokenCallError(
		`Could not reach PayOnUs at ${where} (${code}). Check the credential's Environment / Base URL.`,
		'unreachable',
	);
}

/**
 * Runs the check read with this token: true when the token is accepted,
 * false on 401; throws a clear error when the read shows what else is wrong
 * (403: IP whitelist or permission; 404: unknown merchant or not a PayOnUs
 * address; unreachable). Shared by concurrent callers asking about the same
 * token at the same time.
 */
export async function checkToken(
	helpers: HttpHelpers,
	key: string,
	id: ClientIdentity,
	token: string,
	merchantId: string,
): Promise<boolean> {
	const s = tokenCache.slot(key);
	const pid = tokenId(`${token}\n${merchantId}`);
	const known = s.probes.get(pid);
	if (known) return await known.result;
	const where = describeEnvironment(id.environment, id.baseUrl);
	const { path, qs } = checkRead(merchantId);
	const result = (async () => {
		try {
			await helpers.httpRequest({
				method: 'GET',
				url: `${id.baseUrl}${path}`,
				qs,
				headers: { Authorization: `Bearer ${token}` },
				json: true,
				timeout: TOKEN_CALL_TIMEOUT_MS,
				...NO_REDIRECTS,
			});
			return true as const;
		} catch (err) {
			return err as HttpFailure;
		}
	})().then((outcome) => judge(outcome, where, merchantId));
	// Shared while in flight only: a settled answer may be stale a moment later.
	const entry = { at: tokenCache.now(), result };
	s.probes.set(pid, entry);
	const forget = () => {
		if (s.probes.get(pid) === entry) s.probes.delete(pid);
	};
	result.then(forget, forget);
	return await result;
}
