import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { ISSUE_ORDER_MARGIN_MS, tokenCache } from '../accessToken/cache';
import { copyTokenFields, markTransportOwned, numberField, storedToken } from '../accessToken/credential';
import { CREDENTIAL_TYPE, readCredential } from '../credential/read';
import { classifyFailure } from './failure';
import type { PayOnUsContext } from '../context';

/**
 * Authentication of the transport's calls. Every call goes through n8n's
 * `httpRequestWithAuthentication` with the credential this session read
 * itself (passed as `credentialsDecrypted`, marked as transport-owned), so
 * that after a 401 it can re-read the stored credential and take a newer
 * token another execution or n8n process stored, and only then ask for a
 * new one (see ../accessToken/preAuthentication.ts). At most two such recoveries per
 * call; a 401 means the service refused before processing, so resending is
 * safe even for money-moving calls.
 */

/** Sends with an empty token (each may mint) per call. */
const MAX_AUTH_RECOVERIES = 2;
/** Sends in all per call (401 recoveries that took a newer token included). */
const MAX_AUTH_ATTEMPTS = 6;
/** A stored token issued this recently that already fails probably lost a
 * race with another process that is about to store its own: look again. */
const RECENT_TOKEN_MS = 15_000;
const RACE_SETTLE_MS = 500;
const RACE_LOOKS = 4;

/**
 * Whether a session sends this stored token as it is: minted for these
 * settings (`key`, the client's token fingerprint), not known refused, and
 * not near its expiry (or of unknown expiry). Otherwise the session blanks
 * it and preAuthentication supplies one (a live token of this process, else
 * a token call).
 */
export function keepsStoredToken(data: ICredentialDataDecryptedObject, key: string): boolean {
	const token = storedToken(data);
	if (token === '' || data.tokenFingerprint !== key) return false;
	const expiresAt = numberField(data.expiresAt) ?? 0;
	return expiresAt <= 0 || tokenCache.isFresh({ token, issuedAt: numberField(data.issuedAt) ?? 0, expiresAt }, key);
}

export class Session {
	/** The credential data used for the next call (n8n updates its token in place). */
	private data: ICredentialDataDecryptedObject;
	private readonly secretValues: string[] = [];

	constructor(
		private readonly ctx: PayOnUsContext,
		credentials: ICredentialDataDecryptedObject,
		/** The client's token fingerprint (../accessToken/credential.ts). */
		private readonly key: string,
		private readonly pause: (ms: number) => Promise<void>,
	) {
		this.data = this.adopt(credentials);
	}

	/** Strings never to show: client secret, verification key, current token. */
	secrets(): string[] {
		const token = storedToken(this.data);
		return token ? [...this.secretValues, token] : this.secretValues;
	}

	/**
	 * Takes a credential read from the database: notes its token in the
	 * process cache, and blanks the token (so preAuthentication supplies one)
	 * when it was minted for other settings or is about to expire.
	 */
	private adopt(credentials: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
		const data = markTransportOwned({ ...credentials });
		const token = storedToken(data);
		if (token !== '' && !keepsStoredToken(data, this.key)) {
			data.accessToken = '';
		} else if (token !== '') {
			const expiresAt = numberField(data.expiresAt) ?? 0;
			if (expiresAt > 0) tokenCache.observe(this.key, { token, issuedAt: numberField(data.issuedAt) ?? 0, expiresAt });
		}
		for (const s of [data.clientSecret, data.webhookVerificationKey]) {
			if (typeof s === 'string' && s.length > 0 && !this.secretValues.includes(s)) this.secretValues.push(s);
		}
		return data;
	}

	/** The node's reference to its credential, taken once (n8n's getNode() copies the whole node on each call). */
	private credentialRef?: { id: string; name: string };

	private credentialsDecrypted(data: ICredentialDataDecryptedObject): ICredentialsDecrypted {
		if (!this.credentialRef) {
			const ref = this.ctx.getNode().credentials?.[CREDENTIAL_TYPE];
			this.credentialRef = { id: ref?.id ?? '', name: ref?.name ?? 'PayOnUs API' };
		}
		return { ...this.credentialRef, type: CREDENTIAL_TYPE, data };
	}

	/** Whether `data` holds a token usable instead of the one that failed:
	 * another token, not known dead, and not issued clearly before the failed
	 * one (the database keeps the last write, which may be an OLDER token than
	 * one already refused: taking it would only earn another 401). Issue
	 * times closer than ISSUE_ORDER_MARGIN_MS do not order two tokens: such a
	 * token is tried. */
	private newerThanFailed(data: ICredentialDataDecryptedObject, failedToken: string, failedIssuedAt: number): boolean {
		const token = storedToken(data);
		if (token === '' || token === failedToken) return false;
		const issuedAt = numberField(data.issuedAt) ?? 0;
		if (tokenCache.isStale(this.key, token, issuedAt)) return false;
		return failedIssuedAt === 0 || issuedAt === 0 || issuedAt >= failedIssuedAt - ISSUE_ORDER_MARGIN_MS;
	}

	/**
	 * Re-reads the stored credential after a refused token and decides
	 * whether a new token is needed. The refused token is marked dead with its
	 * issue time (so every older token counts as dead in this process). Then:
	 *  - this process holds a live token issued after the stored one: send
	 *    with an empty token, preAuthentication hands it out and n8n stores
	 *    it (repairing a database whose last write was an older token);
	 *  - the stored token is newer than the one that failed: another
	 *    execution or process stored it; use it (no token call);
	 *  - no newer token known and the failed one is only seconds old: another
	 *    process most likely minted at the same moment and is about to store
	 *    its token; look again a few times (jittered) before minting, so two
	 *    processes do not keep killing each other's tokens (not while the
	 *    token cache's breaker holds token calls: then the mint fails at once);
	 *  - otherwise send with an empty token: preAuthentication mints (single
	 *    flight). Returns 'took' when a token known to be newer is used (no
	 *    token call possible), 'blank' otherwise.
	 */
	private async recoverFromRejectedToken(failedToken: string, failedIssuedAt: number): Promise<'took' | 'blank'> {
		if (failedToken !== '') tokenCache.markDead(this.key, failedToken, failedIssuedAt);
		for (let look = 0; ; look++) {
			const fresh = this.adopt((await readCredential(this.ctx))?.data ?? {});
			const mine = tokenCache.live(this.key);
			const storedIssuedAt = numberField(fresh.issuedAt) ?? 0;
			if (mine && mine.token !== storedToken(fresh) && mine.issuedAt > storedIssuedAt + ISSUE_ORDER_MARGIN_MS) {
				fresh.accessToken = '';
				this.data = fresh;
				return 'took';
			}
			if (this.newerThanFailed(fresh, failedToken, failedIssuedAt)) {
				this.data = fresh;
				return 'took';
			}
			const recent = failedIssuedAt > 0 && tokenCache.now() - failedIssuedAt < RECENT_TOKEN_MS;
			if (recent && look < RACE_LOOKS && tokenCache.heldFor(this.key) === 0) {
				await this.pause(RACE_SETTLE_MS + Math.floor(Math.random() * RACE_SETTLE_MS));
				continue;
			}
			fresh.accessToken = '';
			this.data = fresh;
			return 'blank';
		}
	}

	/**
	 * One call with authentication and the 401 recovery; returns the raw body
	 * or throws what n8n threw (transport/failure.ts reads it).
	 * Safe with several calls of one node run in flight (the node runs reads
	 * concurrently): each attempt sends its own copy of the credential data, so
	 * n8n writes the token it sends (preAuthentication) into that copy and the
	 * token blamed for a 401 is exactly the one THIS attempt sent; a token that
	 * worked is handed back to the shared data for the next calls. When
	 * another call already recovered (the shared data holds another live
	 * token), a 401 just resends with it: no database read, no token call.
	 */
	async send(request: IHttpRequestOptions): Promise<unknown> {
		let tookShared = false;
		let recoveries = 0;
		for (let attempt = 0; ; attempt++) {
			const options: IHttpRequestOptions = {
				...request,
				headers: { ...(request.headers ?? {}) },
				qs: request.qs ? { ...request.qs } : undefined,
			};
			const base = this.data;
			const sent = markTransportOwned({ ...base });
			let failed: unknown;
			try {
				const body = await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx as IExecuteFunctions,
					CREDENTIAL_TYPE,
					options,
					{ credentialsDecrypted: this.credentialsDecrypted(sent) },
				);
				if (this.data === base && sent.accessToken !== base.accessToken) copyTokenFields(sent, base);
				return body;
			} catch (error) {
				failed = error;
			}
			if (classifyFailure(failed).kind !== 'auth' || attempt >= MAX_AUTH_ATTEMPTS) throw failed;
			const token = storedToken(sent);
			const issuedAt = numberField(sent.issuedAt) ?? 0;
			if (!tookShared && this.newerThanFailed(this.data, token, issuedAt)) {
				// Once per call, and not counted as a recovery (the re-read ones stay available).
				tookShared = true;
				continue;
			}
			// Taking a token known to be newer costs no token call and is not
			// counted; each take moves to a strictly newer token, and
			// MAX_AUTH_ATTEMPTS bounds the whole loop.
			if ((await this.recoverFromRejectedToken(token, issuedAt)) === 'blank' && ++recoveries > MAX_AUTH_RECOVERIES) throw failed;
		}
	}
}
